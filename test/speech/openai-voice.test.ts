// OpenAI's speech adapter against a local fake of POST /v1/audio/speech: the request it makes, the line audio it
// makes of streamed 24 kHz PCM, sentences spoken in order with one request ahead, abort, and every bad day (refusals,
// throttling, 5xx, a body cut or stalled mid-stream) mapped to the port's failures without the key leaking.
import { expect } from 'chai';
import { encodeMuLaw, pcm16, resample } from '../../server/src/speech/audio.js';
import { OpenAiVoice, type OpenAiVoiceOptions } from '../../server/src/speech/openai/openai-voice.js';
import { ProviderError } from '../../server/src/speech/provider-error.js';
import { type FakeOpenAiSpeech, startFakeOpenAiSpeech } from '../support/fake-openai-speech.js';
import { until } from '../support/until.js';
import { capturedLogger, drain, expectNoKey, speechOptions, TextFeed } from './speech-test-kit.js';

const KEY = 'sk-test-tts-Qw7eR9tY2uI4oP6aS8dF';
// 20 characters: one second of speech at the fake's 50 ms a character.
const ONE_SECOND = 'Hello, how are you?!';

describe('OpenAiVoice', () => {
  let fake: FakeOpenAiSpeech;
  let log: ReturnType<typeof capturedLogger>;

  beforeEach(async () => {
    // An odd chunk size splits samples between chunks.
    fake = await startFakeOpenAiSpeech({ apiKey: KEY, chunkBytes: 4801 });
    log = capturedLogger();
  });
  afterEach(async () => {
    await fake.close();
    expectNoKey(KEY, log.lines.join('\n'));
  });

  const voice = (over: Partial<OpenAiVoiceOptions> = {}) => new OpenAiVoice({ apiKey: KEY, baseUrl: fake.baseUrl, retryWaitMs: 10, stallMs: 2000, ...over });
  /** The line audio of a sentence: the fake's PCM resampled and encoded whole. */
  const lineAudio = (...sentences: string[]) => Buffer.concat(sentences.map((s) => encodeMuLaw(resample(pcm16(fake.pcmFor(s)).samples, 24_000, 8000))));

  it('posts one sentence as the API asks and turns 1 s of streamed 24 kHz PCM into 8000 bytes of 8 kHz mu-law', async () => {
    const { audio, chunks, error } = await drain(voice().speak(new TextFeed(ONE_SECOND).end(), speechOptions({ logger: log.logger })));
    expect(error).to.equal(null);
    expect(fake.requests).to.have.length(1);
    const [req] = fake.requests;
    expect(req!.path).to.equal('/v1/audio/speech');
    expect(req!.headers.authorization).to.equal(`Bearer ${KEY}`);
    expect(req!.headers['content-type']).to.equal('application/json');
    expect(req!.body).to.deep.equal({ model: 'gpt-4o-mini-tts', voice: 'alloy', input: ONE_SECOND, response_format: 'pcm' });
    expect(fake.pcmFor(ONE_SECOND).length).to.equal(48_000);
    expect(audio.length).to.equal(8000);
    // Chunk by chunk, odd bytes carried, it is exactly the whole resampled and encoded at once.
    expect(audio.equals(lineAudio(ONE_SECOND))).to.equal(true);
    expect(chunks.length).to.be.greaterThan(5);
  });

  it("speaks with the call's voice when it names one, and the configured model", async () => {
    await drain(voice({ model: 'tts-1', voice: 'nova' }).speak(new TextFeed('Hi.').end(), speechOptions({ logger: log.logger, voice: 'coral' })));
    await drain(voice({ model: 'tts-1', voice: 'nova' }).speak(new TextFeed('Bye.').end(), speechOptions({ logger: log.logger })));
    expect(fake.requests.map((r) => [r.body.model, r.body.voice, r.body.input])).to.deep.equal([
      ['tts-1', 'coral', 'Hi.'],
      ['tts-1', 'nova', 'Bye.'],
    ]);
  });

  it('speaks sentences in order, one request each, skipping blank pieces', async () => {
    const sentences = ['First sentence here.', 'Two.', 'And the third one, a little longer than the others.'];
    const { audio, error } = await drain(voice().speak(new TextFeed(sentences[0]!, '  ', ` ${sentences[1]} `, sentences[2]!).end(), speechOptions({ logger: log.logger })));
    expect(error).to.equal(null);
    expect(fake.requests.map((r) => r.body.input)).to.deep.equal(sentences);
    expect(audio.equals(lineAudio(...sentences))).to.equal(true);
  });

  it("yields a sentence's first audio while the fake is still sending that sentence", async () => {
    fake.play({ holdAfterBytes: 4801 });
    const audio = voice()
      .speak(new TextFeed(ONE_SECOND).end(), speechOptions({ logger: log.logger }))
      [Symbol.asyncIterator]();
    const first = await audio.next();
    expect(first.done).to.equal(false);
    // The fake holds the rest of the body until released: the audio came from the part already sent.
    await until('the fake to hold the body', () => fake.events.includes('held 1'));
    expect(fake.events).to.deep.equal(['request 1', 'first-byte 1', 'held 1']);
    expect(fake.requests[0]!.ended).to.equal(false);
    expect(first.value.equals(lineAudio(ONE_SECOND).subarray(0, first.value.length))).to.equal(true);
    fake.release();
    const rest = await drain({ [Symbol.asyncIterator]: () => audio });
    expect(Buffer.concat([first.value, rest.audio]).equals(lineAudio(ONE_SECOND))).to.equal(true);
  });

  it("starts the next sentence's request while the one before streams, one ahead at most", async () => {
    fake.play({ holdAfterBytes: 4801 });
    const text = new TextFeed('The first sentence.', 'The second.', 'The third.').end();
    const audio = voice()
      .speak(text, speechOptions({ logger: log.logger }))
      [Symbol.asyncIterator]();
    const first = await audio.next();
    expect(first.done).to.equal(false);
    await until('the second request to be answered whole', () => fake.events.includes('end 2'));
    // The first sentence is still held: its request is open, the second is done, and the third is not asked.
    expect(fake.requests.map((r) => [r.body.input, r.ended])).to.deep.equal([
      ['The first sentence.', false],
      ['The second.', true],
    ]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.requests).to.have.length(2);
    fake.release();
    const rest = await drain({ [Symbol.asyncIterator]: () => audio });
    expect(rest.error).to.equal(null);
    expect(fake.requests.map((r) => r.body.input)).to.deep.equal(['The first sentence.', 'The second.', 'The third.']);
    expect(Buffer.concat([first.value, rest.audio]).equals(lineAudio('The first sentence.', 'The second.', 'The third.'))).to.equal(true);
  });

  it('on abort ends quietly, aborts the open request and asks for nothing more', async () => {
    fake.play({ holdAfterBytes: 4801 }, { holdAfterBytes: 4801 });
    const controller = new AbortController();
    const text = new TextFeed('The first sentence.', 'The second sentence.');
    const audio = voice()
      .speak(text, speechOptions({ logger: log.logger, signal: controller.signal }))
      [Symbol.asyncIterator]();
    expect((await audio.next()).done).to.equal(false);
    await until('the second request to be held', () => fake.events.includes('held 2'));
    controller.abort();
    expect(await audio.next()).to.deep.equal({ done: true, value: undefined });
    await until('both requests to be aborted', () => fake.events.includes('aborted 1') && fake.events.includes('aborted 2'));
    text.push('A third sentence.').end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.requests).to.have.length(2);
  });

  it('asks nothing when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { audio, error } = await drain(voice().speak(new TextFeed('Hello.').end(), speechOptions({ logger: log.logger, signal: controller.signal })));
    expect([audio.length, error, fake.requests.length]).to.deep.equal([0, null, 0]);
  });

  describe('refusals are thrown at once, never retried', () => {
    const cases: Array<{ what: string; make: () => OpenAiVoice; voiceName?: string; status: number; message: string }> = [
      {
        what: 'a wrong key (401)',
        make: () => new OpenAiVoice({ apiKey: `${KEY}-wrong`, baseUrl: fake.baseUrl }),
        status: 401,
        message: 'OpenAI speech answered 401 (invalid_request_error, invalid_api_key)',
      },
      { what: 'an unknown voice (400)', make: () => voice(), voiceName: 'robot', status: 400, message: 'OpenAI speech answered 400 (invalid_request_error, invalid_value)' },
      { what: 'an unknown model (404)', make: () => voice({ model: 'tts-9' }), status: 404, message: 'OpenAI speech answered 404 (invalid_request_error, model_not_found)' },
    ];
    for (const c of cases) {
      it(c.what, async () => {
        const { audio, error } = await drain(c.make().speak(new TextFeed('Hello there.').end(), speechOptions({ logger: log.logger, voice: c.voiceName ?? null })));
        expect(audio.length).to.equal(0);
        expect(error).to.be.instanceOf(ProviderError);
        const e = error as ProviderError;
        expect([e.provider, e.failure, e.retryable, e.message, e.retryAfterMs]).to.deep.equal(['openai-tts', 'refused', false, c.message, null]);
        expect(fake.requests).to.have.length(1);
        // The fake's 401 quotes the key it was sent, as OpenAI's quotes part of it.
        expectNoKey(KEY, e);
      });
    }

    it('a spent quota (429 insufficient_quota): waiting does not refill it', async () => {
      fake.play({ status: 429, code: 'insufficient_quota' });
      const { error } = await drain(voice().speak(new TextFeed('Hello there.').end(), speechOptions({ logger: log.logger })));
      const e = error as ProviderError;
      expect([e.failure, e.message]).to.deep.equal(['refused', 'OpenAI speech answered 429 (insufficient_quota, insufficient_quota)']);
      expect(fake.requests).to.have.length(1);
    });
  });

  it('retries a throttled sentence (429 with Retry-After) once, and speaks it whole', async () => {
    fake.play({ status: 429, retryAfter: '0' });
    const { audio, error } = await drain(voice().speak(new TextFeed(ONE_SECOND).end(), speechOptions({ logger: log.logger })));
    expect(error).to.equal(null);
    expect(fake.events).to.deep.equal(['request 1', 'status 1 429', 'request 2', 'first-byte 2', 'end 2']);
    expect(audio.equals(lineAudio(ONE_SECOND))).to.equal(true);
    const retried = log.lines.map((l) => JSON.parse(l)).find((l) => l.msg.includes('trying it once more'));
    expect([retried.level, retried.failure, retried.waitMs, retried.callId]).to.deep.equal([40, 'throttled', 0, 'call-tts-1']);
  });

  it('throws a throttle whose Retry-After is longer than a call can wait, with the wait, without retrying', async () => {
    fake.play({ status: 429, retryAfter: '30' });
    const { error } = await drain(voice().speak(new TextFeed('Hello there.').end(), speechOptions({ logger: log.logger })));
    const e = error as ProviderError;
    expect([e.failure, e.retryAfterMs, e.message]).to.deep.equal(['throttled', 30_000, 'OpenAI speech answered 429 (requests, rate_limit_exceeded)']);
    expect(fake.requests).to.have.length(1);
  });

  it("retries the vendor's own failure (500) once, and throws a second one as unavailable", async () => {
    fake.play({ status: 500 });
    const ok = await drain(voice().speak(new TextFeed(ONE_SECOND).end(), speechOptions({ logger: log.logger })));
    expect(ok.error).to.equal(null);
    expect(ok.audio.equals(lineAudio(ONE_SECOND))).to.equal(true);
    expect(fake.requests).to.have.length(2);

    fake.play({ status: 500 }, { status: 503 });
    const failed = await drain(voice().speak(new TextFeed('Hello there.').end(), speechOptions({ logger: log.logger })));
    const e = failed.error as ProviderError;
    expect([e.failure, e.retryable, e.message]).to.deep.equal(['unavailable', true, 'OpenAI speech answered 503 (server_error)']);
    expect(fake.requests).to.have.length(4);
  });

  it('throws a body cut mid-stream as dropped, after the audio that came, without retrying', async () => {
    // 9600 bytes of PCM: 4800 samples at 24 kHz, 1600 at 8 kHz.
    fake.play({ dropAfterBytes: 9600 });
    const { audio, error } = await drain(voice().speak(new TextFeed(ONE_SECOND, 'Never asked.').end(), speechOptions({ logger: log.logger })));
    const e = error as ProviderError;
    expect([e.provider, e.failure]).to.deep.equal(['openai-tts', 'dropped']);
    expect(e.message).to.match(/^OpenAI speech request failed mid-stream \(\w+\)$/);
    expect(audio.length).to.equal(1600);
    expect(audio.equals(lineAudio(ONE_SECOND).subarray(0, 1600))).to.equal(true);
    expect(fake.requests.filter((r) => r.body.input === ONE_SECOND)).to.have.length(1);
    expectNoKey(KEY, e);
  });

  it('retries a connection cut before any audio of the sentence came', async () => {
    fake.play({ dropAfterBytes: 0 });
    const { audio, error } = await drain(voice().speak(new TextFeed(ONE_SECOND).end(), speechOptions({ logger: log.logger })));
    expect(error).to.equal(null);
    expect(fake.events.slice(0, 3)).to.deep.equal(['request 1', 'dropped 1', 'request 2']);
    expect(audio.equals(lineAudio(ONE_SECOND))).to.equal(true);
  });

  it('throws a body that stops sending as stalled after its bound, and closes the request', async () => {
    fake.play({ stallAfterBytes: 9600 });
    const { audio, error } = await drain(voice({ stallMs: 300 }).speak(new TextFeed(ONE_SECOND).end(), speechOptions({ logger: log.logger })));
    const e = error as ProviderError;
    expect([e.failure, e.message]).to.deep.equal(['stalled', 'OpenAI speech sent nothing for 300 ms']);
    expect(audio.equals(lineAudio(ONE_SECOND).subarray(0, 1600))).to.equal(true);
    await until('the stalled request to be closed by the client', () => fake.events.includes('aborted 1'));
    expect(fake.requests).to.have.length(1);
  });

  it("throws a later sentence's failure only after the earlier sentence is spoken whole", async () => {
    fake.play('ok', { status: 400 });
    const { audio, error } = await drain(voice().speak(new TextFeed(ONE_SECOND, 'Second.').end(), speechOptions({ logger: log.logger })));
    expect((error as ProviderError).failure).to.equal('refused');
    expect(audio.equals(lineAudio(ONE_SECOND))).to.equal(true);
  });

  it("throws the model's own failure after the sentences before it are spoken", async () => {
    const broken = new Error('the chat model failed');
    const { audio, error } = await drain(voice().speak(new TextFeed(ONE_SECOND).fail(broken), speechOptions({ logger: log.logger })));
    expect(error).to.equal(broken);
    expect(audio.equals(lineAudio(ONE_SECOND))).to.equal(true);
  });

  it('keeps the key out of the adapter however it is printed', () => {
    expectNoKey(KEY, voice());
  });
});
