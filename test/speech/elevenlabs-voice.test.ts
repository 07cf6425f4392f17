// ElevenLabs' stream-input adapter against a local fake of the WebSocket: the handshake and messages it sends, the
// line audio it passes on, streaming before the turn's text has ended, abort, and every bad day (a refused or
// throttled handshake, an error message that leaves the socket open, a 1008 close, a dropped or stalled socket)
// mapped to the port's failures without the key leaking.
import { expect } from 'chai';
import { ElevenLabsVoice, type ElevenLabsVoiceOptions } from '../../server/src/speech/elevenlabs/elevenlabs-voice.js';
import { ProviderError } from '../../server/src/speech/provider-error.js';
import { type FakeElevenLabs, startFakeElevenLabs } from '../support/fake-elevenlabs.js';
import { until } from '../support/until.js';
import { capturedLogger, drain, expectNoKey, speechOptions, TextFeed } from './speech-test-kit.js';

const KEY = 'xi-test-key-7f3a9c2e5b8d1f4a6c0e';

describe('ElevenLabsVoice', () => {
  let fake: FakeElevenLabs;
  let log: ReturnType<typeof capturedLogger>;

  beforeEach(async () => {
    fake = await startFakeElevenLabs({ apiKey: KEY });
    log = capturedLogger();
  });
  afterEach(async () => {
    await fake.close();
    expectNoKey(KEY, log.lines.join('\n'));
  });

  const voice = (over: Partial<ElevenLabsVoiceOptions> = {}) => new ElevenLabsVoice({ apiKey: KEY, baseUrl: fake.baseUrl, retryWaitMs: 10, stallMs: 2000, ...over });
  const failure = (error: unknown) => {
    expect(error).to.be.instanceOf(ProviderError);
    const e = error as ProviderError;
    expectNoKey(KEY, e);
    return [e.provider, e.failure, e.message];
  };

  it('opens one socket for the turn with the key in its handshake, sends each sentence flushed, and passes the ulaw_8000 audio on', async () => {
    const { audio, error } = await drain(voice().speak(new TextFeed('Hello there.', ' ', 'How are you today?').end(), speechOptions({ logger: log.logger })));
    expect(error).to.equal(null);
    expect(fake.connections).to.have.length(1);
    const [c] = fake.connections;
    expect(c!.voiceId).to.equal('JBFqnCBsd6RMkjVDRZzb');
    expect(c!.query).to.deep.equal({ model_id: 'eleven_flash_v2_5', output_format: 'ulaw_8000', language_code: 'en' });
    expect(c!.headers['xi-api-key']).to.equal(KEY);
    expect(c!.messages).to.deep.equal([{ text: ' ' }, { text: 'Hello there. ', flush: true }, { text: 'How are you today? ', flush: true }, { text: '' }]);
    // Flushed, each sentence is a generation of its own rather than waiting in the server's buffer.
    expect(c!.generations).to.deep.equal(['Hello there.', 'How are you today?']);
    // 30 characters at 50 ms each: 1.5 s of 8 kHz mu-law, exactly the fake's, in order.
    expect(audio.length).to.equal(12_000);
    expect(audio.equals(Buffer.concat([fake.ulawFor('Hello there.'), fake.ulawFor('How are you today?')]))).to.equal(true);
    expect(c!.closed).to.deep.equal({ code: 1000, by: 'server' });
  });

  it("uses the call's voice, the configured model and voice settings, and the language only where the model takes it", async () => {
    const settings = { stability: 0.4, similarity_boost: 0.75 };
    await drain(voice({ model: 'eleven_multilingual_v2', voiceSettings: settings }).speak(new TextFeed('Bonjour.').end(), speechOptions({ logger: log.logger, voice: 'voice-42', language: 'fr-FR' })));
    const [c] = fake.connections;
    expect([c!.voiceId, c!.query]).to.deep.equal(['voice-42', { model_id: 'eleven_multilingual_v2', output_format: 'ulaw_8000' }]);
    expect(c!.messages[0]).to.deep.equal({ text: ' ', voice_settings: settings });
  });

  it("yields the first sentence's audio before the turn's text has ended and before the fake has finished speaking it", async () => {
    fake.play({ holdAfterChunks: 1 });
    const text = new TextFeed('The first sentence of the turn.');
    const audio = voice()
      .speak(text, speechOptions({ logger: log.logger }))
      [Symbol.asyncIterator]();
    const first = await audio.next();
    expect(first.done).to.equal(false);
    await until('the fake to hold the audio', () => fake.events.includes('held 1'));
    expect(fake.events).to.deep.equal(['connect 1', 'text 1 The first sentence of the turn. ', 'audio 1', 'held 1']);
    expect(first.value.equals(fake.ulawFor('The first sentence of the turn.').subarray(0, 1600))).to.equal(true);
    text.push('And the second.').end();
    fake.release();
    const rest = await drain({ [Symbol.asyncIterator]: () => audio });
    expect(rest.error).to.equal(null);
    expect(Buffer.concat([first.value, rest.audio]).equals(Buffer.concat([fake.ulawFor('The first sentence of the turn.'), fake.ulawFor('And the second.')]))).to.equal(true);
  });

  it('on abort ends quietly and closes the socket, sending nothing more', async () => {
    fake.play({ holdAfterChunks: 1 });
    const controller = new AbortController();
    const text = new TextFeed('The first sentence of the turn.');
    const audio = voice()
      .speak(text, speechOptions({ logger: log.logger, signal: controller.signal }))
      [Symbol.asyncIterator]();
    expect((await audio.next()).done).to.equal(false);
    controller.abort();
    expect(await audio.next()).to.deep.equal({ done: true, value: undefined });
    await until('the socket to be closed', () => fake.connections[0]!.closed !== null);
    expect(fake.connections[0]!.closed).to.deep.equal({ code: 1000, by: 'client' });
    text.push('Never sent.').end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.connections[0]!.messages).to.deep.equal([{ text: ' ' }, { text: 'The first sentence of the turn. ', flush: true }]);
    expect(fake.connections).to.have.length(1);
  });

  it('refuses a wrong key at the handshake (401) without retrying', async () => {
    const { audio, error } = await drain(voice({ apiKey: `${KEY}-wrong` }).speak(new TextFeed('Hello.').end(), speechOptions({ logger: log.logger })));
    expect(audio.length).to.equal(0);
    expect(failure(error)).to.deep.equal(['elevenlabs', 'refused', 'ElevenLabs refused the socket with 401']);
    expect(fake.events).to.deep.equal(['refused 1 401']);
  });

  it('retries a throttled handshake (429, Retry-After) once and speaks the turn', async () => {
    fake.play({ handshake: 429, retryAfter: '0' });
    const { audio, error } = await drain(voice().speak(new TextFeed('Hello.').end(), speechOptions({ logger: log.logger })));
    expect(error).to.equal(null);
    expect(fake.events.slice(0, 2)).to.deep.equal(['refused 1 429', 'connect 2']);
    expect(audio.equals(fake.ulawFor('Hello.'))).to.equal(true);
    const retried = log.lines.map((l) => JSON.parse(l)).find((l) => l.msg.includes('trying it once more'));
    expect([retried.failure, retried.waitMs]).to.deep.equal(['throttled', 0]);
  });

  it('throws a throttle longer than a call can wait, and a second failed handshake, without more tries', async () => {
    fake.play({ handshake: 429, retryAfter: '30' });
    const throttled = await drain(voice().speak(new TextFeed('Hello.').end(), speechOptions({ logger: log.logger })));
    expect(failure(throttled.error)).to.deep.equal(['elevenlabs', 'throttled', 'ElevenLabs refused the socket with 429']);
    expect((throttled.error as ProviderError).retryAfterMs).to.equal(30_000);
    expect(fake.connections).to.have.length(1);

    fake.play({ handshake: 500 }, { handshake: 503 });
    const unavailable = await drain(voice().speak(new TextFeed('Hello.').end(), speechOptions({ logger: log.logger })));
    expect(failure(unavailable.error)).to.deep.equal(['elevenlabs', 'unavailable', 'ElevenLabs refused the socket with 503']);
    expect(fake.connections).to.have.length(3);
  });

  it('maps an error message that leaves the socket open, after the audio before it, and closes the socket itself', async () => {
    fake.play({ errorAfterChunks: 1, error: 'quota_exceeded', message: 'This request exceeds your quota of 10000. You have 12 credits remaining, while 40 credits are required for this request.' });
    const { audio, error } = await drain(voice().speak(new TextFeed('The first sentence of the turn.').end(), speechOptions({ logger: log.logger })));
    expect(failure(error)).to.deep.equal(['elevenlabs', 'refused', 'ElevenLabs reported an error (quota_exceeded)']);
    expect(audio.equals(fake.ulawFor('The first sentence of the turn.').subarray(0, 1600))).to.equal(true);
    await until('the socket to be closed', () => fake.connections[0]!.closed !== null);
    expect(fake.connections[0]!.closed).to.deep.equal({ code: 1000, by: 'client' });
  });

  it('maps a throttling error message as throttled', async () => {
    fake.play({ errorAfterChunks: 0, error: 'too_many_concurrent_requests', message: 'Too many concurrent requests.' });
    const { error } = await drain(voice().speak(new TextFeed('Hello.').end(), speechOptions({ logger: log.logger })));
    expect(failure(error)).to.deep.equal(['elevenlabs', 'throttled', 'ElevenLabs reported an error (too_many_concurrent_requests)']);
  });

  it('maps a 1008 close mid-turn by its reason: a spent quota is refused, a fault of the server unavailable', async () => {
    fake.play({ closeAfterChunks: 2, code: 1008, reason: 'This request exceeds your quota of 10000. You have 0 credits remaining.' });
    const quota = await drain(voice().speak(new TextFeed('The first sentence of the turn.').end(), speechOptions({ logger: log.logger })));
    expect(failure(quota.error)).to.deep.equal(['elevenlabs', 'refused', 'ElevenLabs closed the socket mid-turn (1008, refused)']);
    expect(quota.audio.equals(fake.ulawFor('The first sentence of the turn.').subarray(0, 3200))).to.equal(true);

    fake.play({ closeAfterChunks: 0, code: 1008, reason: 'We are sorry, something went wrong. You are not charged for this request.' });
    const fault = await drain(voice().speak(new TextFeed('Hello.').end(), speechOptions({ logger: log.logger })));
    expect(failure(fault.error)).to.deep.equal(['elevenlabs', 'unavailable', 'ElevenLabs closed the socket mid-turn (1008, unavailable)']);
    expect(fault.audio.length).to.equal(0);
  });

  it('throws a socket that drops mid-turn as dropped, after the audio that came', async () => {
    fake.play({ dropAfterChunks: 2 });
    const { audio, error } = await drain(voice().speak(new TextFeed('The first sentence of the turn.').end(), speechOptions({ logger: log.logger })));
    expect(failure(error)).to.deep.equal(['elevenlabs', 'dropped', 'ElevenLabs closed the socket mid-turn (1006)']);
    expect(audio.equals(fake.ulawFor('The first sentence of the turn.').subarray(0, 3200))).to.equal(true);
  });

  it('throws a socket that goes silent while audio is owed as stalled, and closes it', async () => {
    // Mid-sentence, with the input ended: every message restarts the bound until isFinal.
    fake.play({ stallAfterChunks: 1 });
    const ended = await drain(voice({ stallMs: 300 }).speak(new TextFeed('The first sentence of the turn.').end(), speechOptions({ logger: log.logger })));
    expect(failure(ended.error)).to.deep.equal(['elevenlabs', 'stalled', 'ElevenLabs sent nothing for 300 ms']);
    expect(ended.audio.length).to.equal(1600);
    await until('the socket to be closed', () => fake.connections[0]!.closed !== null);
    expect(fake.connections[0]!.closed).to.deep.equal({ code: 1000, by: 'client' });

    // Before the input ends: a flushed sentence owes audio.
    fake.play({ stallAfterChunks: 0 });
    const open = await drain(voice({ stallMs: 300 }).speak(new TextFeed('Hello.'), speechOptions({ logger: log.logger })));
    expect(failure(open.error)).to.deep.equal(['elevenlabs', 'stalled', 'ElevenLabs sent nothing for 300 ms']);
  });

  it('waits for the model without calling it a stall once the audio owed has come', async () => {
    const text = new TextFeed('Hello.');
    const audio = voice({ stallMs: 100 })
      .speak(text, speechOptions({ logger: log.logger }))
      [Symbol.asyncIterator]();
    const chunks: Buffer[] = [];
    for (let got = 0; got < fake.ulawFor('Hello.').length; ) {
      const next = await audio.next();
      chunks.push(next.value as Buffer);
      got += (next.value as Buffer).length;
    }
    // The model takes three stall bounds to write its next sentence.
    await new Promise((resolve) => setTimeout(resolve, 300));
    text.push('Goodbye.').end();
    const rest = await drain({ [Symbol.asyncIterator]: () => audio });
    expect(rest.error).to.equal(null);
    expect(Buffer.concat([...chunks, rest.audio]).equals(Buffer.concat([fake.ulawFor('Hello.'), fake.ulawFor('Goodbye.')]))).to.equal(true);
  });

  it("throws the model's own failure after what was sent is spoken, ending the input", async () => {
    const broken = new Error('the chat model failed');
    const { audio, error } = await drain(voice().speak(new TextFeed('Hello.').fail(broken), speechOptions({ logger: log.logger })));
    expect(error).to.equal(broken);
    expect(audio.equals(fake.ulawFor('Hello.'))).to.equal(true);
    expect(fake.connections[0]!.messages.at(-1)).to.deep.equal({ text: '' });
  });

  it('closes a turn with nothing to say without speaking', async () => {
    const { audio, error } = await drain(voice().speak(new TextFeed(' ').end(), speechOptions({ logger: log.logger })));
    expect([audio.length, error]).to.deep.equal([0, null]);
    await until('the socket to be closed', () => fake.connections[0]?.closed !== null);
    expect(fake.connections[0]!.messages).to.deep.equal([{ text: ' ' }]);
    expect(fake.connections[0]!.closed).to.deep.equal({ code: 1000, by: 'client' });
  });

  it('keeps the key out of every message and out of the adapter however it is printed', async () => {
    await drain(voice().speak(new TextFeed('Hello.').end(), speechOptions({ logger: log.logger })));
    expectNoKey(KEY, JSON.stringify(fake.connections[0]!.messages), voice());
  });
});
