// How well the offline recogniser hears the sandbox: every line the simulated callee says in a set of English calls
// (the scripted agent's conversations with the sandbox's usual kinds of field, an opt-out and a chatty call),
// spoken by espeak-ng in the callee's voice, put on the line as 8 kHz mu-law and streamed through pocketsphinx in
// 20 ms frames, one stream per call as a live call would be. Each line's word error rate counts the words espeak-ng
// says (spoken-words.ts), and both bounds are stated below. Skipped when pocketsphinx is not installed, unless
// SVC_TEST_SPHINX=required (CI), where it fails; SVC_TEST_SPHINX_REPORT=1 prints every line's figures.
import { expect } from 'chai';
import pino from 'pino';
import type { CallBrief } from '../../server/src/conversation/conversation.js';
import type { FieldDefinition } from '../../server/src/generated/types.gen.js';
import { ESPEAK_SAMPLE_RATE, sharedSynthesizer } from '../../server/src/recording/espeak-synthesizer.js';
import { DEFAULT_VOICES } from '../../server/src/recording/speech-recorder.js';
import { encodeMuLaw, LINE_BYTES_PER_MS, resample } from '../../server/src/speech/audio.js';
import { PocketsphinxRecognizer, pocketsphinxInstalled } from '../../server/src/speech/pocketsphinx/pocketsphinx-recognizer.js';
import { spokenWords } from '../../server/src/speech/pocketsphinx/spoken-words.js';
import { ScriptedAgent } from '../../server/src/voice-agent/scripted-agent.js';

/**
 * No line may come back with more word errors than words. A one-word line ("Hello?", "Goodbye!") has a rate of 0
 * or at least 1, so a tighter bound per line would demand that every one of them is heard perfectly.
 */
const LINE_BOUND = 1;
/** The mean of the lines' word error rates may not pass this. */
const MEAN_BOUND = 0.12;

/** Fields of every kind the simulated callee answers: times, yes/no, counts, names, numbers, addresses, prices… */
const FIELDS: FieldDefinition[] = [
  { name: 'open_sunday', type: 'boolean', description: 'whether the bakery is open on Sunday' },
  { name: 'closing_time', description: 'the closing time on Sunday' },
  { name: 'rye_loaves', type: 'number', description: 'how many loaves of rye bread are left' },
  { name: 'manager_name' },
  { name: 'phone_number' },
  { name: 'contact_email' },
  { name: 'website' },
  { name: 'street_address' },
  { name: 'price_per_night', description: 'Price per night' },
  { name: 'opening_hours' },
  { name: 'delivery_day' },
  { name: 'booking_date' },
  { name: 'wait_minutes', type: 'number', description: 'Wait time in minutes' },
  { name: 'staffCount', type: 'number' },
  { name: 'parking', description: 'Which parking option' },
];

const brief = (callId: string, fields: FieldDefinition[], to?: string): CallBrief => ({
  callId,
  objective: 'Ask about the bakery on Sunday',
  context: null,
  fields,
  language: 'en-US',
  // The agent's voice, which the callee's lines do not depend on.
  voice: 'alloy',
  ...(to ? { to } : {}),
});

/** Calls whose callee lines together hold every kind of answer, a refusal, an opt-out and some chatter. */
const CALLS: { brief: CallBrief; agent: ScriptedAgent }[] = [
  ...[0, 1, 2, 3, 4].map((i) => ({ brief: brief(`call_wer_${i}`, FIELDS.filter((_, j) => j % 5 !== i).slice(i, i + 6)), agent: new ScriptedAgent() })),
  { brief: brief('call_wer_notice', []), agent: new ScriptedAgent() },
  { brief: brief('call_wer_optout', FIELDS.slice(0, 2), '+15555550118'), agent: new ScriptedAgent() },
  { brief: brief('call_wer_chatty', FIELDS.slice(0, 1)), agent: new ScriptedAgent({ minTalkMs: 60_000 }) },
];

/** Silence between two callee lines: enough for the decoder to end an utterance (it needs 0.5 s). */
const GAP_MS = 1000;
const FRAME_BYTES = 160;

interface Heard {
  text: string;
  reference: string[];
  hypothesis: string[];
  errors: number;
  wer: number;
}

/** Word-level Levenshtein distance: substitutions, insertions and deletions. */
function wordErrors(reference: readonly string[], hypothesis: readonly string[]): number {
  let previous = Array.from({ length: hypothesis.length + 1 }, (_, j) => j);
  for (let i = 1; i <= reference.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= hypothesis.length; j += 1) {
      row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1)));
    }
    previous = row;
  }
  return previous[hypothesis.length]!;
}

describe('pocketsphinx word error rate on the sandbox callee', function () {
  this.timeout(180_000);

  before(async function () {
    if (await pocketsphinxInstalled()) return;
    if (process.env.SVC_TEST_SPHINX === 'required') throw new Error('pocketsphinx is required but not installed (apt-get install pocketsphinx pocketsphinx-en-us)');
    this.skip();
  });

  it('counts word errors as a word-level edit distance', () => {
    expect(wordErrors(['a', 'b', 'c'], ['a', 'b', 'c'])).to.equal(0);
    expect(wordErrors(['a', 'b', 'c'], ['a', 'x', 'c'])).to.equal(1);
    expect(wordErrors(['a', 'b', 'c'], ['a', 'c'])).to.equal(1);
    expect(wordErrors(['a', 'b'], ['x', 'a', 'b', 'y'])).to.equal(2);
    expect(wordErrors(['a'], [])).to.equal(1);
  });

  it(`hears every English callee line with a word error rate of at most ${LINE_BOUND}, ${MEAN_BOUND} on average`, async () => {
    const synth = await sharedSynthesizer();
    const recognizer = new PocketsphinxRecognizer();
    const logger = pino({ level: 'silent' });
    const hear = async ({ brief: b, agent }: (typeof CALLS)[number]): Promise<Heard[]> => {
      const lines = (await agent.converse(b)).filter((t) => t.speaker === 'callee').map((t) => t.text);
      const finals: { text: string; span: { startMs: number; endMs: number } | null }[] = [];
      const stream = await recognizer.open(
        { callId: b.callId, language: 'en-US', logger },
        {
          interim: () => {},
          final: (text, endOfTurn, span) => {
            expect(endOfTurn).to.equal(true);
            finals.push({ text, span });
          },
          failed: (e) => finals.push({ text: `FAILED ${e.message}`, span: null }),
        },
      );
      const windows: { startMs: number; endMs: number }[] = [];
      let atMs = 0;
      const send = (audio: Buffer) => {
        for (let i = 0; i < audio.length; i += FRAME_BYTES) stream.send(audio.subarray(i, i + FRAME_BYTES));
        atMs += audio.length / LINE_BYTES_PER_MS;
      };
      for (const text of lines) {
        const speech = encodeMuLaw(resample(synth.synthesize(text, { language: 'en-us', ...DEFAULT_VOICES.callee }), ESPEAK_SAMPLE_RATE, 8000));
        windows.push({ startMs: atMs - GAP_MS / 2, endMs: atMs + speech.length / LINE_BYTES_PER_MS + GAP_MS / 2 });
        send(speech);
        send(Buffer.alloc(GAP_MS * LINE_BYTES_PER_MS, 0xff));
      }
      await stream.close(60_000);
      for (const f of finals) expect(f.span, `${b.callId}: ${f.text}`).to.not.equal(null);
      return lines.map((text, i) => {
        const window = windows[i]!;
        const hypothesis = finals
          .filter((f) => f.span && (f.span.startMs + f.span.endMs) / 2 >= window.startMs && (f.span.startMs + f.span.endMs) / 2 < window.endMs)
          .flatMap((f) => f.text.split(' '));
        const reference = spokenWords(text);
        const errors = wordErrors(reference, hypothesis);
        return { text, reference, hypothesis, errors, wer: errors / reference.length };
      });
    };
    // Two calls at a time: one decoder per core.
    const heard: Heard[] = [];
    for (let i = 0; i < CALLS.length; i += 2) heard.push(...(await Promise.all(CALLS.slice(i, i + 2).map(hear))).flat());

    const mean = heard.reduce((sum, h) => sum + h.wer, 0) / heard.length;
    const pooled = heard.reduce((sum, h) => sum + h.errors, 0) / heard.reduce((sum, h) => sum + h.reference.length, 0);
    const summary = `${heard.length} lines, mean WER ${mean.toFixed(3)}, pooled ${pooled.toFixed(3)}, worst ${Math.max(...heard.map((h) => h.wer)).toFixed(2)}`;
    if (process.env.SVC_TEST_SPHINX_REPORT) {
      console.log(summary);
      for (const h of heard) console.log(`${h.wer.toFixed(2)}  ${h.reference.join(' ')}  =>  ${h.hypothesis.join(' ')}`);
    }
    expect(heard.length).to.be.greaterThan(40);
    for (const h of heard) expect(h.wer, `"${h.text}" heard as "${h.hypothesis.join(' ')}" (${summary})`).to.be.at.most(LINE_BOUND);
    expect(mean, summary).to.be.at.most(MEAN_BOUND);
  });
});
