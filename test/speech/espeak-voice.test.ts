// svc's own espeak-ng voice behind the text-to-speech port: real speech of a plausible length and loudness, sentence
// by sentence in order, in 100 ms chunks with the event loop free between them; the call's language and variant
// passed on; abort; and a synthesiser that fails or does not load.
import { expect } from 'chai';
import { ESPEAK_SAMPLE_RATE, type SpeechVoice, sharedSynthesizer, type Synthesizer } from '../../server/src/recording/espeak-synthesizer.js';
import { decodeMuLaw, encodeMuLaw, resample } from '../../server/src/speech/audio.js';
import { EspeakVoice } from '../../server/src/speech/espeak/espeak-voice.js';
import { ProviderError } from '../../server/src/speech/provider-error.js';
import { capturedLogger, drain, speechOptions, TextFeed } from './speech-test-kit.js';

/** A synthesiser that renders `ms` of a ramp per sentence and records what it was asked. */
function fakeSynthesizer(ms = 1000, fail: string | null = null) {
  const calls: Array<{ text: string; voice: SpeechVoice }> = [];
  const synth: Synthesizer = {
    languages: new Map([
      ['en-us', 'gmw/en-us'],
      ['fr', 'roa/fr'],
    ]),
    synthesize(text, voice) {
      calls.push({ text, voice });
      if (text === fail) throw new Error('espeak-ng failed (exit 1) for voice fr');
      return Int16Array.from({ length: (ms * ESPEAK_SAMPLE_RATE) / 1000 }, (_, i) => (i % 200) * 50);
    },
  };
  return { synth, calls };
}

describe('EspeakVoice', () => {
  const log = capturedLogger();
  const english: SpeechVoice = { language: 'en-us', variant: 'f2', pitch: 55, wordsPerMinute: 165 };

  it('speaks a sentence as non-silent 8 kHz mu-law of a plausible length, in 100 ms chunks', async () => {
    const sentence = 'Hello, this is a test of the telephone line.';
    const { audio, chunks, error } = await drain(new EspeakVoice().speak(new TextFeed(sentence).end(), speechOptions({ logger: log.logger })));
    expect(error).to.equal(null);
    // Eight words at 165 a minute: about three seconds of speech.
    expect(audio.length).to.be.within(1.5 * 8000, 5 * 8000);
    const samples = decodeMuLaw(audio);
    const rms = Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length);
    expect(rms).to.be.greaterThan(1000);
    expect(chunks.slice(0, -1).every((c) => c.length === 800)).to.equal(true);
    expect(chunks.at(-1)!.length).to.be.within(1, 800);
    // It is espeak-ng's own render of the sentence, resampled to the line.
    const synth = await sharedSynthesizer();
    expect(audio.equals(encodeMuLaw(resample(synth.synthesize(sentence, english), ESPEAK_SAMPLE_RATE, 8000)))).to.equal(true);
    const logged = log.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'espeak sentence rendered');
    expect([logged.chars, logged.audioMs, typeof logged.synthMs]).to.deep.equal([sentence.length, audio.length / 8, 'number']);
  });

  it('speaks sentences one by one, in order', async () => {
    const synth = await sharedSynthesizer();
    const render = (s: string) => encodeMuLaw(resample(synth.synthesize(s, english), ESPEAK_SAMPLE_RATE, 8000));
    const { audio } = await drain(new EspeakVoice().speak(new TextFeed('Good morning.', '', 'Is the shop open on Sunday?').end(), speechOptions({ logger: log.logger })));
    expect(audio.equals(Buffer.concat([render('Good morning.'), render('Is the shop open on Sunday?')]))).to.equal(true);
  });

  it("passes the call's language (as espeak-ng names it) and variant on", async () => {
    const { synth, calls } = fakeSynthesizer(200);
    const { audio } = await drain(new EspeakVoice({ synthesizer: async () => synth }).speak(new TextFeed('Bonjour.').end(), speechOptions({ logger: log.logger, language: 'fr-CA', voice: 'm3' })));
    expect(calls).to.deep.equal([{ text: 'Bonjour.', voice: { language: 'fr', variant: 'm3', pitch: 55, wordsPerMinute: 165 } }]);
    expect(audio.length).to.equal(1600);
  });

  it('lets the event loop run between chunks', async () => {
    const { synth } = fakeSynthesizer(1000);
    const audio = new EspeakVoice({ synthesizer: async () => synth }).speak(new TextFeed('One second.').end(), speechOptions({ logger: log.logger }))[Symbol.asyncIterator]();
    expect((await audio.next()).done).to.equal(false);
    let ran = false;
    setImmediate(() => (ran = true));
    expect((await audio.next()).done).to.equal(false);
    expect(ran).to.equal(true);
    await drain({ [Symbol.asyncIterator]: () => audio });
  });

  it('on abort ends quietly and renders nothing more', async () => {
    const { synth, calls } = fakeSynthesizer(1000);
    const controller = new AbortController();
    const text = new TextFeed('One second.', 'Never rendered.').end();
    const audio = new EspeakVoice({ synthesizer: async () => synth }).speak(text, speechOptions({ logger: log.logger, signal: controller.signal }))[Symbol.asyncIterator]();
    expect((await audio.next()).done).to.equal(false);
    controller.abort();
    expect(await audio.next()).to.deep.equal({ done: true, value: undefined });
    expect(calls.map((c) => c.text)).to.deep.equal(['One second.']);
  });

  it('throws a sentence espeak-ng cannot speak as refused, after the sentences before it', async () => {
    const { synth } = fakeSynthesizer(200, 'Broken.');
    const { audio, error } = await drain(new EspeakVoice({ synthesizer: async () => synth }).speak(new TextFeed('Fine.', 'Broken.').end(), speechOptions({ logger: log.logger })));
    expect(audio.length).to.equal(1600);
    expect(error).to.be.instanceOf(ProviderError);
    const e = error as ProviderError;
    expect([e.provider, e.failure, e.message]).to.deep.equal(['espeak', 'refused', 'espeak-ng could not speak a sentence (espeak-ng failed (exit 1) for voice fr)']);
  });

  it('throws a synthesiser that does not load as unavailable', async () => {
    const voice = new EspeakVoice({
      synthesizer: async () => {
        throw new Error('espeak-ng did not expose its WebAssembly instance');
      },
    });
    const { error } = await drain(voice.speak(new TextFeed('Hello.').end(), speechOptions({ logger: log.logger })));
    const e = error as ProviderError;
    expect([e.provider, e.failure, e.message]).to.deep.equal(['espeak', 'unavailable', 'espeak-ng did not load (espeak-ng did not expose its WebAssembly instance)']);
  });
});
