// Rendering the recording of a 60-second conversation with the SpeechRecorder (one espeak-ng WebAssembly
// instance, its pristine memory restored before each turn), beside the package's documented use measured in the
// same run: a new module per utterance (`ESpeakNg({ arguments })`, which compiles and instantiates the 18 MB
// WebAssembly each time). The recorder is measured with its utterance cache off (every turn synthesised) and on
// with every line heard before (the sandbox's scripted calls repeat their lines). Medians of several rounds; the
// first render after start is reported apart.
//   npx tsx bench/recording-render.ts [rounds=5]
import ESpeakNg from 'espeak-ng';
import { timeTurns, type Turn, type TimedTurn } from '../server/src/conversation/conversation.js';
import { decodePcm16Wav } from '../server/src/recording/encode-wav.js';
import { sharedSynthesizer } from '../server/src/recording/espeak-synthesizer.js';
import { DEFAULT_VOICES, SpeechRecorder } from '../server/src/recording/speech-recorder.js';
import { median } from './support/harness.js';

const rounds = Number(process.argv[2] ?? 5);

const LINES: Turn[] = [
  { speaker: 'agent', text: 'Hello, this is an automated assistant calling on behalf of Acme Dental about an appointment.' },
  { speaker: 'callee', text: 'Oh, hello. Yes, how can I help you?' },
  { speaker: 'agent', text: 'I would like to know whether the clinic is open on Sunday, and if so, until what time.' },
  { speaker: 'callee', text: 'Yes, we are open on Sunday from nine in the morning until one in the afternoon.' },
  { speaker: 'agent', text: 'Thank you. Could you also tell me the name of the dentist on duty that day?' },
  { speaker: 'callee', text: 'That would be Doctor Levi, she works every other Sunday.' },
  { speaker: 'agent', text: 'And how much does a routine check-up cost for a new patient?' },
  { speaker: 'callee', text: 'I am sorry, I do not know that. You would have to ask the front desk on Monday.' },
  { speaker: 'agent', text: 'Is it possible to book an appointment by phone, or only online?' },
  { speaker: 'callee', text: 'Both work. Most people book online these days.' },
  { speaker: 'agent', text: 'Does the clinic accept walk-in patients for emergencies?' },
  { speaker: 'callee', text: 'Yes, emergencies are seen the same day whenever possible.' },
  { speaker: 'agent', text: 'That is all I needed. Thank you very much for your help, and have a good day.' },
  { speaker: 'callee', text: 'You are welcome, goodbye.' },
];
const turns: TimedTurn[] = timeTurns(LINES);
const totalMs = turns.at(-1)!.endMs;

/** The package's documented use: a new module for each utterance, the text as an argument, the WAV read back. */
async function renderNewModulePerTurn(): Promise<number> {
  let samples = 0;
  for (const t of turns) {
    const v = DEFAULT_VOICES[t.speaker];
    const es = await ESpeakNg({
      arguments: ['-v', `en-us+${v.variant}`, '-p', String(v.pitch), '-s', String(v.wordsPerMinute), '-w', '/out.wav', t.text],
      print: () => {},
      printErr: () => {},
    });
    samples += decodePcm16Wav(es.FS.readFile('/out.wav')).samples.length;
  }
  return samples;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const loadMs = await time(() => sharedSynthesizer());
const uncached = new SpeechRecorder({ cacheBytes: 0 });
const cached = new SpeechRecorder();
const firstMs = await time(() => cached.render({ turns, totalMs, language: 'en-US' }));
const rssAfterFirst = process.memoryUsage().rss;

const ours: number[] = [];
const hits: number[] = [];
const naive: number[] = [];
for (let r = 0; r < rounds; r++) {
  ours.push(await time(() => uncached.render({ turns, totalMs, language: 'en-US' })));
  hits.push(await time(() => cached.render({ turns, totalMs, language: 'en-US' })));
  naive.push(await time(renderNewModulePerTurn));
}

const audioSec = totalMs / 1000;
const row = (name: string, ms: number, base: number) => `| ${name} | ${ms.toFixed(0)} | ${(audioSec / (ms / 1000)).toFixed(0)}× | ${(base / ms).toFixed(1)}× |`;
console.log(`Recording of a ${audioSec.toFixed(1)} s conversation, ${turns.length} turns, ${rounds} rounds (medians)`);
console.log('| approach | ms per recording | faster than real time | speed-up over baseline |');
console.log('|---|---|---|---|');
console.log(row('baseline: new espeak-ng module per turn (package README)', median(naive), median(naive)));
console.log(row('SpeechRecorder: one instance, memory restored per turn, cache off', median(ours), median(naive)));
console.log(row('SpeechRecorder: every line already in its utterance cache', median(hits), median(naive)));
console.log(`SpeechRecorder first render after start: ${firstMs.toFixed(0)} ms (synthesiser load ${loadMs.toFixed(0)} ms, not included); RSS after it ${(rssAfterFirst / 2 ** 20).toFixed(0)} MB`);
