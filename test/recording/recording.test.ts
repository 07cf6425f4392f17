// The speech recorder: real espeak-ng audio, two voices, each turn at its time, a WAV that a standard parser reads.
import { expect } from 'chai';
import { WaveFile } from 'wavefile';
import { timeTurns, type TimedTurn } from '../../server/src/conversation/conversation.js';
import { decodePcm16Wav } from '../../server/src/recording/encode-wav.js';
import { ESPEAK_SAMPLE_RATE, EspeakSynthesizer, SynthesisError, sharedSynthesizer, type Synthesizer } from '../../server/src/recording/espeak-synthesizer.js';
import { DEFAULT_VOICES, SpeechRecorder, espeakLanguageFor } from '../../server/src/recording/speech-recorder.js';
import { UtteranceCache } from '../../server/src/recording/utterance-cache.js';

const RATE = ESPEAK_SAMPLE_RATE;
const at = (ms: number) => Math.round((ms * RATE) / 1000);

const CONVERSATION: TimedTurn[] = timeTurns([
  { speaker: 'agent', text: 'Hello, I am calling on behalf of Acme Dental about your appointment next week.' },
  { speaker: 'callee', text: 'Oh, hello. Yes, what would you like to know?' },
  { speaker: 'agent', text: 'Could you tell me whether the clinic is open on Sunday?' },
  { speaker: 'callee', text: 'Yes, we are open on Sunday from nine to one.' },
]);
const TOTAL_MS = CONVERSATION.at(-1)!.endMs + 1500;

function samplesOf(wav: Buffer): Int16Array {
  return decodePcm16Wav(wav).samples;
}

function peak(samples: Int16Array, from: number, to: number): number {
  let max = 0;
  for (let i = from; i < to; i++) max = Math.max(max, Math.abs(samples[i]!));
  return max;
}

/** Median fundamental frequency of the voiced 40 ms frames, by normalised autocorrelation over 60–400 Hz. */
function medianPitchHz(x: Int16Array): number {
  const frame = at(40);
  const found: number[] = [];
  for (let start = 0; start + 2 * frame < x.length; start += frame) {
    let energy = 0;
    for (let i = 0; i < frame; i++) energy += x[start + i]! ** 2;
    if (Math.sqrt(energy / frame) < 1500) continue;
    let best = 0;
    let bestLag = 0;
    for (let lag = Math.floor(RATE / 400); lag <= Math.ceil(RATE / 60); lag++) {
      let c = 0;
      let a = 0;
      let b = 0;
      for (let i = 0; i < frame; i++) {
        c += x[start + i]! * x[start + i + lag]!;
        a += x[start + i]! ** 2;
        b += x[start + i + lag]! ** 2;
      }
      const r = c / (Math.sqrt(a * b) || 1);
      if (r > best) [best, bestLag] = [r, lag];
    }
    if (best > 0.6) found.push(RATE / bestLag);
  }
  expect(found.length, 'voiced frames').to.be.greaterThan(10);
  found.sort((p, q) => p - q);
  return found[Math.floor(found.length / 2)]!;
}

describe('SpeechRecorder', function () {
  const recorder = new SpeechRecorder();
  let synth: EspeakSynthesizer;
  let wav: Buffer;

  before(async function () {
    synth = await sharedSynthesizer();
    wav = await recorder.render({ turns: CONVERSATION, totalMs: TOTAL_MS, language: 'en-US' });
  });

  it('renders a RIFF/WAVE file, PCM 16-bit mono at 22050 Hz, that the wavefile parser reads', function () {
    const parsed = new WaveFile(wav);
    const fmt = parsed.fmt as { chunkId: string; audioFormat: number; numChannels: number; sampleRate: number; bitsPerSample: number; byteRate: number; blockAlign: number };
    expect(parsed.container).to.equal('RIFF');
    expect(parsed.format).to.equal('WAVE');
    expect(fmt).to.include({ chunkId: 'fmt ', audioFormat: 1, numChannels: 1, sampleRate: 22050, bitsPerSample: 16, byteRate: 44100, blockAlign: 2 });
    expect(parsed.bitDepth).to.equal('16');
    expect((parsed.data as { chunkSize: number }).chunkSize).to.equal(wav.length - 44);
    expect(wav.readUInt32LE(4)).to.equal(wav.length - 8);
  });

  it('lasts exactly totalMs, within one sample frame', function () {
    const parsed = new WaveFile(wav);
    const frames = (parsed.getSamples(false, Int16Array) as unknown as Int16Array).length;
    expect(frames).to.equal(at(TOTAL_MS));
    expect(Math.abs((frames / RATE) * 1000 - TOTAL_MS)).to.be.at.most(1000 / RATE);
  });

  it('speaks inside every turn window and is exactly silent in the gaps between turns and after the last', function () {
    const samples = samplesOf(wav);
    for (const turn of CONVERSATION) {
      expect(peak(samples, at(turn.startMs), at(turn.endMs)), `${turn.speaker} at ${turn.startMs} ms`).to.be.greaterThan(5000);
    }
    for (let i = 1; i < CONVERSATION.length; i++) {
      const gap = [at(CONVERSATION[i - 1]!.endMs), at(CONVERSATION[i]!.startMs)] as const;
      expect(gap[1] - gap[0]).to.equal(at(600));
      expect(peak(samples, ...gap), `gap before turn ${i}`).to.equal(0);
    }
    expect(peak(samples, at(CONVERSATION.at(-1)!.endMs), samples.length)).to.equal(0);
  });

  it('speaks the agent and the callee in two voices: the agent near 210 Hz, the callee near 95 Hz', function () {
    const text = 'Could you tell me whether the clinic is open on Sunday morning?';
    const agent = synth.synthesize(text, { language: 'en-us', ...DEFAULT_VOICES.agent });
    const callee = synth.synthesize(text, { language: 'en-us', ...DEFAULT_VOICES.callee });
    expect(Buffer.from(agent.buffer).equals(Buffer.from(callee.buffer))).to.equal(false);
    expect(medianPitchHz(agent)).to.be.within(170, 260);
    expect(medianPitchHz(callee)).to.be.within(70, 130);
  });

  it('renders the same text as agent and as callee into different audio in the same slot', async function () {
    const line = (speaker: 'agent' | 'callee') => [{ speaker, text: 'We are open on Sunday.', startMs: 0, endMs: 2000 }];
    const asAgent = samplesOf(await recorder.render({ turns: line('agent'), totalMs: 2000, language: 'en-US' }));
    const asCallee = samplesOf(await recorder.render({ turns: line('callee'), totalMs: 2000, language: 'en-US' }));
    expect(medianPitchHz(asAgent)).to.be.greaterThan(1.6 * medianPitchHz(asCallee));
  });

  it('speaks a turn that would outrun its slot faster, so it ends inside the slot instead of being cut', async function () {
    const text = 'The total is 1,250 dollars and 75 cents, due on 12/03/2026.';
    const [turn] = timeTurns([{ speaker: 'agent', text }]);
    const slot = at(turn!.endMs) - at(turn!.startMs);
    const natural = synth.synthesize(text, { language: 'en-us', ...DEFAULT_VOICES.agent });
    expect(peak(natural, slot, natural.length), 'speech past the slot at the natural rate').to.be.greaterThan(2000);
    const samples = samplesOf(await recorder.render({ turns: [turn!], totalMs: turn!.endMs, language: 'en-US' }));
    expect(peak(samples, 0, at(500))).to.be.greaterThan(2000);
    expect(peak(samples, slot - at(30), slot), 'the last 30 ms of the slot').to.be.lessThan(64);
  });

  it('cuts a turn that outruns its slot even at the fastest rate at its end, with the slot still speaking up to the cut', async function () {
    const long = 'This sentence is far too long to be spoken in the single second that the timing allows for it.';
    const samples = samplesOf(await recorder.render({ turns: [{ speaker: 'agent', text: long, startMs: 500, endMs: 1500 }], totalMs: 3000, language: 'en-US' }));
    expect(samples.length).to.equal(at(3000));
    expect(peak(samples, 0, at(500))).to.equal(0);
    expect(peak(samples, at(1300), at(1490))).to.be.greaterThan(2000);
    expect(peak(samples, at(1500), samples.length)).to.equal(0);
  });

  it('cuts the whole recording at totalMs when turns run past it', async function () {
    const samples = samplesOf(await recorder.render({ turns: CONVERSATION, totalMs: 4000, language: 'en-US' }));
    expect(samples.length).to.equal(at(4000));
    expect(peak(samples, at(3000), at(4000))).to.be.greaterThan(2000);
  });

  it('sums turns that overlap, saturating rather than wrapping, where each alone is laid as it is', async function () {
    const a: TimedTurn = { speaker: 'agent', text: 'Could you tell me whether the clinic is open?', startMs: 0, endMs: 3000 };
    const b: TimedTurn = { speaker: 'callee', text: 'Yes, we are open on Sunday from nine to one.', startMs: 1000, endMs: 4000 };
    const render = async (turns: TimedTurn[]) => samplesOf(await recorder.render({ turns, totalMs: 4000, language: 'en-US' }));
    const [alone, other, both] = [await render([a]), await render([b]), await render([a, b])];
    const mismatch = both.findIndex((v, i) => v !== Math.max(-32768, Math.min(32767, alone[i]! + other[i]!)));
    expect(mismatch, 'first sample that is not the saturated sum').to.equal(-1);
    expect(peak(both, at(1000), at(3000)), 'both speak in the overlap').to.be.greaterThan(1000);
    expect(peak(other, 0, at(1000)), 'the second is silent before its start').to.equal(0);
  });

  it('renders an empty conversation as a valid WAV of silence', async function () {
    const empty = await recorder.render({ turns: [], totalMs: 2500, language: 'en-US' });
    const parsed = new WaveFile(empty);
    expect((parsed.fmt as { sampleRate: number }).sampleRate).to.equal(RATE);
    expect(empty.length).to.equal(44 + 2 * at(2500));
    expect(peak(samplesOf(empty), 0, at(2500))).to.equal(0);
    const none = await recorder.render({ turns: [], totalMs: 0, language: 'en-US' });
    expect(none.length).to.equal(44);
    expect(new WaveFile(none).container).to.equal('RIFF');
  });

  it('refuses a negative or non-finite totalMs', async function () {
    for (const totalMs of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = await recorder.render({ turns: [], totalMs, language: 'en-US' }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, String(totalMs)).to.be.instanceOf(RangeError);
    }
  });

  it('renders the same conversation to the same bytes every time, on a fresh synthesiser too', async function () {
    const again = await recorder.render({ turns: CONVERSATION, totalMs: TOTAL_MS, language: 'en-US' });
    expect(again.equals(wav)).to.equal(true);
    const fresh = new SpeechRecorder({ synthesizer: () => EspeakSynthesizer.load() });
    expect((await fresh.render({ turns: CONVERSATION, totalMs: TOTAL_MS, language: 'en-US' })).equals(wav)).to.equal(true);
  });

  it('speaks a line heard before from its cache, to the same bytes, and synthesises every line with the cache off', async function () {
    const texts: string[] = [];
    const counting: Synthesizer = { languages: synth.languages, synthesize: (text, voice) => (texts.push(text), synth.synthesize(text, voice)) };
    const cached = new SpeechRecorder({ synthesizer: async () => counting });
    const first = await cached.render({ turns: CONVERSATION, totalMs: TOTAL_MS, language: 'en-US' });
    const second = await cached.render({ turns: CONVERSATION, totalMs: TOTAL_MS, language: 'en-US' });
    expect(texts).to.deep.equal(CONVERSATION.map((t) => t.text));
    expect(first.equals(wav)).to.equal(true);
    expect(second.equals(wav)).to.equal(true);
    texts.length = 0;
    const uncached = new SpeechRecorder({ synthesizer: async () => counting, cacheBytes: 0 });
    await uncached.render({ turns: CONVERSATION, totalMs: TOTAL_MS, language: 'en-US' });
    expect((await uncached.render({ turns: CONVERSATION, totalMs: TOTAL_MS, language: 'en-US' })).equals(wav)).to.equal(true);
    expect(texts).to.have.length(2 * CONVERSATION.length);
  });

  it('is unaffected by a failed utterance before it', function () {
    const voice = { language: 'en-us', ...DEFAULT_VOICES.agent };
    const before = synth.synthesize('Good morning.', voice);
    expect(() => synth.synthesize('Good morning.', { ...voice, language: 'zz-nonexistent' })).to.throw(SynthesisError, /zz-nonexistent\+f2/);
    const after = synth.synthesize('Good morning.', voice);
    expect(Buffer.from(after.buffer).equals(Buffer.from(before.buffer))).to.equal(true);
  });

  it('reads a turn that starts with a dash as text, never as an option', function () {
    const speech = synth.synthesize('-v xx --help', { language: 'en-us', ...DEFAULT_VOICES.agent });
    expect(peak(speech, 0, speech.length)).to.be.greaterThan(2000);
  });
});

describe('UtteranceCache', function () {
  it('holds at most maxBytes, letting the least recently used utterance go first', function () {
    const cache = new UtteranceCache(100);
    const a = new Int16Array(20);
    const b = new Int16Array(20);
    const c = new Int16Array(20);
    cache.set('a', a);
    cache.set('b', b);
    expect(cache.get('a')).to.equal(a);
    cache.set('c', c);
    expect(cache.bytes).to.equal(80);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).to.deep.equal([a, undefined, c]);
    cache.set('huge', new Int16Array(51));
    expect(cache.get('huge')).to.equal(undefined);
    expect(cache.bytes).to.equal(80);
  });
});

describe('espeakLanguageFor', function () {
  let known: ReadonlyMap<string, string>;
  before(async function () {
    known = (await sharedSynthesizer()).languages;
  });

  it('maps the call languages onto espeak-ng voices, falling back to English', function () {
    const cases: Record<string, string> = {
      'en-US': 'en-us',
      'en-GB': 'en',
      'en-AU': 'en',
      'he-IL': 'he',
      'fr-FR': 'fr',
      'fr-CA': 'fr',
      'es-ES': 'es',
      'es-419': 'es-419',
      'de-DE': 'de',
      'it-IT': 'it',
      'pt-PT': 'pt',
      'pt-BR': 'pt-br',
      'nl-NL': 'nl',
      'xx-YY': 'en-us',
      tlh: 'en-us',
    };
    for (const [language, voice] of Object.entries(cases)) expect(espeakLanguageFor(language, known), language).to.equal(voice);
  });

  it('speaks Hebrew and French with their own voices and an unknown language as English', async function () {
    const recorder = new SpeechRecorder();
    const turns: TimedTurn[] = [{ speaker: 'agent', text: 'Bonjour, shalom, hello.', startMs: 0, endMs: 2500 }];
    const render = (language: string) => recorder.render({ turns, totalMs: 2500, language });
    const [english, french, hebrew, unknown] = await Promise.all(['en-US', 'fr-FR', 'he-IL', 'xx-YY'].map(render));
    expect(french!.equals(english!)).to.equal(false);
    expect(hebrew!.equals(english!)).to.equal(false);
    expect(hebrew!.equals(french!)).to.equal(false);
    expect(unknown!.equals(english!)).to.equal(true);
  });
});
