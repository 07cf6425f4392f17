// The Deepgram adapter against the fake Deepgram (test/support/fake-deepgram.ts), which answers as the live
// streaming API does on good days and bad: what the adapter asks for, what it tells the session (interims, finals
// with Deepgram's end of speech, times in call ms), flush and close, KeepAlive, and each failure: a refused, throttled
// or failing handshake, one that never finishes, a socket that drops or stalls once (reopened, the audio sent
// meanwhile resent, times carried on) or twice (failed), audio Deepgram cannot decode, results out of order.
import { expect } from 'chai';
import { DeepgramRecognizer, type DeepgramConfig } from '../../server/src/speech/deepgram/deepgram-recognizer.js';
import { ProviderError } from '../../server/src/speech/provider-error.js';
import type { RecognitionStream } from '../../server/src/speech/recognizer.js';
import { FAKE_DEEPGRAM_KEY, FakeDeepgram, type FakeDeepgramOptions } from '../support/fake-deepgram.js';
import { until } from '../support/until.js';
import { capturedLogger, type Heard, recorder, sendAudio } from './support/listener.js';

describe('the Deepgram speech-to-text adapter', () => {
  let fake: FakeDeepgram;
  let stream: RecognitionStream | undefined;
  let log: ReturnType<typeof capturedLogger>;
  let rec: ReturnType<typeof recorder>;

  beforeEach(() => {
    log = capturedLogger();
    rec = recorder();
  });

  afterEach(async () => {
    await stream?.close(200);
    stream = undefined;
    await fake?.close();
    // Whatever happened in the test, the key never reached a log line.
    expect(log.lines.join('\n')).not.to.contain(FAKE_DEEPGRAM_KEY);
  });

  async function start(options: FakeDeepgramOptions, config: Partial<DeepgramConfig> = {}, language = 'en-US'): Promise<RecognitionStream> {
    fake = await FakeDeepgram.start(options);
    const recognizer = new DeepgramRecognizer({ apiKey: FAKE_DEEPGRAM_KEY, url: fake.url, ...config });
    stream = await recognizer.open({ callId: 'call_dg', language, logger: log.logger }, rec.listener);
    return stream;
  }

  async function refusal(options: FakeDeepgramOptions, config: Partial<DeepgramConfig> = {}): Promise<ProviderError> {
    fake = await FakeDeepgram.start(options);
    const recognizer = new DeepgramRecognizer({ apiKey: FAKE_DEEPGRAM_KEY, url: fake.url, ...config });
    const err = await recognizer.open({ callId: 'call_dg', language: 'en-US', logger: log.logger }, rec.listener).then(
      () => expect.fail('open resolved'),
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ProviderError);
    return err as ProviderError;
  }

  const heardSoFar = (n: number) => until(`${n} events heard`, () => rec.heard.length >= n);

  it("asks for the line's audio (mu-law, 8 kHz, mono) with interim results, endpointing, utterance end and VAD events, the key as a Token header", async () => {
    await start({}, { model: 'nova-2-phonecall', endpointingMs: 450 }, 'fr');
    const [seen] = fake.connections;
    expect(seen!.headers.authorization).to.equal(`Token ${FAKE_DEEPGRAM_KEY}`);
    expect(Object.fromEntries(seen!.query)).to.deep.equal({
      encoding: 'mulaw',
      sample_rate: '8000',
      channels: '1',
      model: 'nova-2-phonecall',
      language: 'fr',
      interim_results: 'true',
      endpointing: '450',
      utterance_end_ms: '1000',
      vad_events: 'true',
      smart_format: 'true',
    });
    expect(seen!.url.startsWith('/v1/listen?')).to.equal(true);
  });

  it('uses nova-3 and 300 ms endpointing unless told, and passes the BCP-47 language as it is', async () => {
    await start({});
    expect(fake.connections[0]!.query.get('model')).to.equal('nova-3');
    expect(fake.connections[0]!.query.get('endpointing')).to.equal('300');
    expect(fake.connections[0]!.query.get('language')).to.equal('en-US');
  });

  it("tells speech started, interims, finals with Deepgram's end of speech and the utterance's end, in call ms; silence says nothing", async () => {
    const s = await start({
      script: [
        { afterBytes: 8000, text: 'Hello, is this the bakery?' },
        { afterBytes: 16_000, silence: true },
        { afterBytes: 12_000, text: 'I would like to order', end: 'is_final' },
        { afterBytes: 4000, text: 'a cake.' },
      ],
    });
    sendAudio(s, 8000 + 16_000 + 12_000 + 4000 + 8000);
    await heardSoFar(13);
    expect(rec.heard).to.deep.equal([
      ['speechStarted', 0],
      ['interim', 'Hello, is'],
      ['interim', 'Hello, is this the'],
      ['final', 'Hello, is this the bakery?', true, { startMs: 0, endMs: 1000 }],
      // 1000 ms of audio with no words after the last one; the silence's empty result (one per 2 s) is not news.
      ['utteranceEnd', 1000],
      ['speechStarted', 3000],
      ['interim', 'I would'],
      ['interim', 'I would like to'],
      ['final', 'I would like to order', false, { startMs: 3000, endMs: 4500 }],
      // The callee goes on speaking: no new SpeechStarted.
      ['interim', 'a'],
      ['interim', 'a cake.'],
      ['final', 'a cake.', true, { startMs: 4500, endMs: 5000 }],
      ['utteranceEnd', 5000],
    ]);
    const sent = fake.connections[0]!.sent;
    expect(sent.filter((m) => m.type === 'Results' && (m.channel as any).alternatives[0].transcript === '').length).to.equal(1);
  });

  it('passes on an empty speech_final that closes words already finalised, with no words and endOfTurn', async () => {
    const s = await start({
      script: [
        { afterBytes: 8000, text: 'well I think', end: 'is_final' },
        { afterBytes: 2400, endpoint: true },
      ],
    });
    sendAudio(s, 8000 + 2400);
    await until('the endpoint', () => rec.heard.some((h) => h[0] === 'final' && h[1] === ''));
    expect(rec.heard.filter((h) => h[0] === 'final')).to.deep.equal([
      ['final', 'well I think', false, { startMs: 0, endMs: 1000 }],
      ['final', '', true, { startMs: 1000, endMs: 1300 }],
    ]);
  });

  it('drops a stale interim that arrives after its final (a speech_final before the last interim)', async () => {
    const s = await start({
      script: [
        { afterBytes: 8000, text: 'a table for two', staleInterim: true },
        { afterBytes: 8000, text: 'at eight' },
      ],
    });
    sendAudio(s, 16_000);
    await until('both finals', () => rec.heard.filter((h) => h[0] === 'final').length === 2);
    // The fake did send the stale one: an interim after the first final.
    const results = fake.connections[0]!.sent.filter((m) => m.type === 'Results');
    expect(results.map((m) => [m.is_final, (m.channel as any).alternatives[0].transcript]).slice(2, 4)).to.deep.equal([
      [true, 'a table for two'],
      [false, 'a table for'],
    ]);
    expect(rec.heard.filter((h) => h[0] !== 'speechStarted')).to.deep.equal([
      ['interim', 'a table'],
      ['interim', 'a table for'],
      ['final', 'a table for two', true, { startMs: 0, endMs: 1000 }],
      ['interim', 'at'],
      ['interim', 'at eight'],
      ['final', 'at eight', true, { startMs: 1000, endMs: 2000 }],
    ]);
  });

  it('flush() sends Finalize and the words heard so far come as a final', async () => {
    const s = await start({ script: [{ afterBytes: 8000, text: 'my number is five five five', end: 'held' }] });
    sendAudio(s, 8000);
    await until('two interims', () => rec.heard.filter((h) => h[0] === 'interim').length === 2);
    expect(rec.heard.some((h) => h[0] === 'final')).to.equal(false);
    s.flush();
    await until('the final', () => rec.heard.some((h) => h[0] === 'final'));
    expect(fake.connections[0]!.received).to.deep.equal([{ type: 'Finalize' }]);
    expect(rec.heard.at(-1)).to.deep.equal(['final', 'my number is five five five', false, { startMs: 0, endMs: 1000 }]);
    const last = fake.connections[0]!.sent.at(-1)!;
    expect(last.from_finalize).to.equal(true);
  });

  it('close() sends CloseStream and resolves only after the last words, the Metadata and the close', async () => {
    const s = await start({ script: [{ afterBytes: 4000, text: 'goodbye then', end: 'held' }], closeDelayMs: 150 });
    sendAudio(s, 4000);
    await until('an interim', () => rec.heard.some((h) => h[0] === 'interim'));
    await s.close();
    stream = undefined;
    expect(rec.heard.at(-1)).to.deep.equal(['final', 'goodbye then', false, { startMs: 0, endMs: 500 }]);
    const seen = fake.connections[0]!;
    expect(seen.received).to.deep.equal([{ type: 'CloseStream' }]);
    expect(seen.sent.at(-1)!.type).to.equal('Metadata');
    await fake.until(() => seen.closeCode !== null);
    expect(seen.closeCode).to.equal(1000);
    // Nothing is sent once closed, and a second close is the first one.
    s.send(Buffer.alloc(160));
    await s.close();
    expect(seen.audioBytes).to.equal(4000);
    expect(rec.failures()).to.deep.equal([]);
  });

  it('close() gives up after its grace when the stream never answers CloseStream', async () => {
    const s = await start({ script: [{ afterBytes: 160, stall: true }] });
    sendAudio(s, 160);
    await fake.until(() => fake.connections[0]!.audioBytes === 160);
    await s.close(100);
    stream = undefined;
    expect(fake.connections[0]!.received).to.deep.equal([{ type: 'CloseStream' }]);
    await fake.until(() => fake.connections[0]!.closeCode !== null);
    expect(log.lines.some((l) => l.includes('did not close within its grace'))).to.equal(true);
    expect(rec.failures()).to.deep.equal([]);
  });

  it("sends KeepAlive while no audio flows, so Deepgram's idle bound never closes the stream", async () => {
    const s = await start(
      {
        idleMs: 600,
        script: [
          { afterBytes: 1600, silence: true },
          { afterBytes: 4000, text: 'still there' },
        ],
      },
      { keepAliveMs: 100 },
    );
    sendAudio(s, 1600);
    // Eight KeepAlives a tenth of a second apart span longer than the idle bound.
    await fake.until(() => fake.connections[0]!.received.filter((m) => m.type === 'KeepAlive').length >= 8);
    expect(fake.connections[0]!.closeCode).to.equal(null);
    sendAudio(s, 4000);
    await until('the final', () => rec.heard.some((h) => h[0] === 'final'));
    expect(rec.heard.at(-1)).to.deep.equal(['final', 'still there', true, { startMs: 200, endMs: 700 }]);
    expect(fake.connections).to.have.length(1);
  });

  it('without KeepAlive the idle stream is closed (NET-0001), which the adapter takes as a drop and reopens', async () => {
    const s = await start({ idleMs: 150, connections: [{}, { script: [{ afterBytes: 4000, text: 'hello again' }] }] }, { keepAliveMs: 60_000 });
    sendAudio(s, 800);
    await fake.until(() => fake.connections.length === 2);
    expect(fake.connections[0]!.closeCode).to.equal(1011);
    sendAudio(s, 4000);
    await until('the final', () => rec.heard.some((h) => h[0] === 'final'));
    expect(rec.heard.at(-1)).to.deep.equal(['final', 'hello again', true, { startMs: 100, endMs: 600 }]);
  });

  describe('a refused handshake', () => {
    it('is refused (401) without a retry, naming Deepgram’s reason and never the key', async () => {
      const err = await refusal({ apiKey: 'dg-the-right-key-0000000000' });
      expect(err.failure).to.equal('refused');
      expect(err.retryable).to.equal(false);
      expect(err.provider).to.equal('deepgram');
      expect(err.message).to.equal('deepgram refused the stream: HTTP 401 (Invalid credentials.)');
      expect(err.message).not.to.contain(FAKE_DEEPGRAM_KEY);
      expect(fake.handshakes.map((h) => h.status)).to.deep.equal([401]);
    });

    it('is refused (400) when Deepgram does not know the model', async () => {
      const err = await refusal({}, { model: 'whisper-large' });
      expect([err.failure, err.message]).to.deep.equal(['refused', 'deepgram refused the stream: HTTP 400 (Bad Request: No such model/language/tier combination found.)']);
    });

    it('is refused (403) without a retry', async () => {
      const err = await refusal({ reject: { status: 403, message: 'Insufficient permissions.' } });
      expect([err.failure, err.retryable, fake.handshakes.length]).to.deep.equal(['refused', false, 1]);
    });

    it('is throttled (429) with the wait Retry-After asks for', async () => {
      const err = await refusal({ reject: { status: 429, retryAfter: '7' } });
      expect([err.failure, err.retryAfterMs, err.retryable]).to.deep.equal(['throttled', 7000, true]);
      expect(err.message).to.equal('deepgram refused the stream: HTTP 429 (Too many requests. Please try again later.)');
    });

    it('is unavailable (5xx)', async () => {
      const err = await refusal({ reject: { status: 503 } });
      expect([err.failure, err.retryAfterMs, err.retryable]).to.deep.equal(['unavailable', null, true]);
    });

    it('is stalled when the handshake is never answered, within the bound', async () => {
      const err = await refusal({ handshakeDelayMs: Number.POSITIVE_INFINITY }, { openTimeoutMs: 150 });
      expect([err.failure, err.message]).to.deep.equal(['stalled', 'deepgram did not finish the handshake within 150 ms']);
    });

    it('is unavailable when nothing listens', async () => {
      fake = await FakeDeepgram.start();
      const url = fake.url;
      await fake.close();
      const err = await new DeepgramRecognizer({ apiKey: FAKE_DEEPGRAM_KEY, url }).open({ callId: 'c', language: 'en', logger: log.logger }, rec.listener).catch((e: unknown) => e);
      expect([(err as ProviderError).failure, (err as ProviderError).message]).to.deep.equal(['unavailable', 'deepgram could not be reached (ECONNREFUSED)']);
    });
  });

  describe('a socket lost mid-call', () => {
    it('is reopened once: the audio sent meanwhile goes first, and times carry on from where the call stood', async () => {
      const s = await start({
        connections: [
          {
            script: [
              { afterBytes: 8000, text: 'first turn' },
              { afterBytes: 1600, drop: 1011 },
            ],
          },
          { handshakeDelayMs: 100, script: [{ afterBytes: 4000, text: 'second turn' }] },
        ],
      });
      sendAudio(s, 9600);
      await fake.until(() => fake.handshakes.length === 2);
      // The reopen is under way: this audio is held, then sent to the new socket first.
      const meanwhile = Buffer.concat([sendAudio(s, 2400, 0x11), sendAudio(s, 1600, 0x22)]);
      await until('the second final', () => rec.heard.filter((h) => h[0] === 'final').length === 2);
      expect(fake.connections[0]!.closeCode).to.equal(1011);
      expect(Buffer.concat(fake.connections[1]!.audio).equals(meanwhile)).to.equal(true);
      const finals = rec.heard.filter((h) => h[0] === 'final');
      expect(finals).to.deep.equal([
        ['final', 'first turn', true, { startMs: 0, endMs: 1000 }],
        // The new socket's 0 s is the call's 1200 ms (9,600 bytes sent before it).
        ['final', 'second turn', true, { startMs: 1200, endMs: 1700 }],
      ]);
      expect(rec.heard.filter((h) => h[0] === 'speechStarted')).to.deep.equal([
        ['speechStarted', 0],
        ['speechStarted', 1200],
      ]);
      expect(rec.failures()).to.deep.equal([]);
      expect(log.lines.some((l) => l.includes('reopening it once'))).to.equal(true);
    });

    it('keeps only the newest audio while reopening, within its bound, and counts time from the oldest kept', async () => {
      const s = await start({ connections: [{ script: [{ afterBytes: 1600, drop: 'abnormal' }] }, { handshakeDelayMs: 100, script: [{ afterBytes: 800, text: 'kept' }] }] }, { reopenBufferMs: 100 });
      sendAudio(s, 1600);
      await fake.until(() => fake.handshakes.length === 2);
      sendAudio(s, 800, 0x33);
      const kept = sendAudio(s, 800, 0x44);
      await until('the final', () => rec.heard.some((h) => h[0] === 'final'));
      expect(Buffer.concat(fake.connections[1]!.audio).equals(kept)).to.equal(true);
      expect(rec.heard.at(-1)).to.deep.equal(['final', 'kept', true, { startMs: 300, endMs: 400 }]);
    });

    it('fails the stream (dropped) when it is lost a second time, and tries no third socket', async () => {
      const s = await start({ connections: [{ script: [{ afterBytes: 1600, drop: 1011 }] }, { script: [{ afterBytes: 1600, drop: 'abnormal' }] }] });
      sendAudio(s, 1600);
      await fake.until(() => fake.connections.length === 2);
      sendAudio(s, 1600);
      await until('the failure', () => rec.failures().length === 1);
      const [err] = rec.failures();
      expect([err!.provider, err!.failure]).to.deep.equal(['deepgram', 'dropped']);
      sendAudio(s, 1600);
      await s.close();
      expect(fake.handshakes).to.have.length(2);
      expect(rec.heard.filter((h) => h[0] === 'failed')).to.have.length(1);
    });

    it('fails the stream with the refusal when the reopen is refused', async () => {
      const s = await start({ connections: [{ script: [{ afterBytes: 1600, drop: 1011 }] }, { reject: { status: 503 } }] });
      sendAudio(s, 1600);
      await until('the failure', () => rec.failures().length === 1);
      expect([rec.failures()[0]!.failure, rec.failures()[0]!.message]).to.deep.equal(['unavailable', 'deepgram refused the stream: HTTP 503 (Internal server error.)']);
      expect(fake.handshakes.map((h) => h.status)).to.deep.equal([101, 503]);
    });

    it('takes a stream that answers nothing while audio flows as stalled: reopened once, then failed (stalled)', async () => {
      const s = await start(
        {
          connections: [
            { script: [{ afterBytes: 160, stall: true }] },
            {
              script: [
                { afterBytes: 4000, text: 'are you there' },
                { afterBytes: 160, stall: true },
              ],
            },
          ],
        },
        { stallMs: 400 },
      );
      sendAudio(s, 160);
      await fake.until(() => fake.connections.length === 2);
      sendAudio(s, 4000);
      await until('the final', () => rec.heard.some((h) => h[0] === 'final'));
      expect(rec.heard.at(-1)).to.deep.equal(['final', 'are you there', true, { startMs: 20, endMs: 520 }]);
      sendAudio(s, 160);
      await until('the failure', () => rec.failures().length === 1);
      expect(rec.failures()[0]!.failure).to.equal('stalled');
      expect(fake.handshakes).to.have.length(2);
    });

    it('fails at once (refused) when Deepgram closes for audio it cannot decode (DATA-0000)', async () => {
      const s = await start({ script: [{ afterBytes: 160, drop: 1008 }] });
      sendAudio(s, 160);
      await until('the failure', () => rec.failures().length === 1);
      expect([rec.failures()[0]!.failure, rec.failures()[0]!.message]).to.deep.equal(['refused', 'deepgram closed the stream: 1008 DATA-0000: The payload cannot be decoded as audio']);
      expect(fake.handshakes).to.have.length(1);
    });
  });

  it("logs Deepgram's Error message and carries on", async () => {
    const s = await start({
      script: [
        { afterBytes: 800, error: { description: 'Failed to process audio', message: 'decoder hiccup', variant: 'transient' } },
        { afterBytes: 4000, text: 'still here' },
      ],
    });
    sendAudio(s, 4800);
    await until('the final', () => rec.heard.some((h) => h[0] === 'final'));
    const line = log.lines.find((l) => l.includes('deepgram error message'));
    expect(JSON.parse(line!)).to.include({ description: 'Failed to process audio', variant: 'transient', message: 'decoder hiccup', provider: 'deepgram', callId: 'call_dg' });
    expect(rec.heard.at(-1)).to.deep.equal(['final', 'still here', true, { startMs: 100, endMs: 600 }] satisfies Heard);
    expect(rec.failures()).to.deep.equal([]);
  });
});
