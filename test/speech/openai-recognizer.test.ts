// The OpenAI transcription adapter against the fake transcription server (test/support/fake-openai-transcription.ts),
// which answers as the Realtime API's transcription sessions do on good days and bad: the session asked for, what
// the adapter tells the session (speech started, interims of one turn's text, finals with their spans in call ms),
// flush and close, a failed transcription, error events that leave the session open, completions out of order, and
// each failure: a refused, throttled or failing handshake, one that never finishes, a session.update refused or never
// confirmed, a socket that drops once (reopened, session.update again, the audio sent meanwhile first, times
// carried on) or twice (failed).
import { expect } from 'chai';
import { OpenAiRecognizer, type OpenAiTranscriptionConfig } from '../../server/src/speech/openai/openai-recognizer.js';
import { ProviderError } from '../../server/src/speech/provider-error.js';
import type { RecognitionStream } from '../../server/src/speech/recognizer.js';
import { FAKE_OPENAI_KEY, FakeOpenAiTranscription, type FakeOpenAiTranscriptionOptions } from '../support/fake-openai-transcription.js';
import { until } from '../support/until.js';
import { capturedLogger, recorder, sendAudio } from './support/listener.js';

const SESSION = {
  type: 'transcription',
  audio: {
    input: {
      format: { type: 'audio/pcmu' },
      transcription: { model: 'gpt-4o-transcribe', language: 'en' },
      turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500 },
      noise_reduction: { type: 'near_field' },
    },
  },
};

describe('the OpenAI speech-to-text adapter (Realtime transcription session)', () => {
  let fake: FakeOpenAiTranscription;
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
    expect(log.lines.join('\n')).not.to.contain(FAKE_OPENAI_KEY);
  });

  async function start(options: FakeOpenAiTranscriptionOptions, config: Partial<OpenAiTranscriptionConfig> = {}, language = 'en-US'): Promise<RecognitionStream> {
    fake = await FakeOpenAiTranscription.start(options);
    stream = await new OpenAiRecognizer({ apiKey: FAKE_OPENAI_KEY, url: fake.url, ...config }).open({ callId: 'call_oa', language, logger: log.logger }, rec.listener);
    return stream;
  }

  async function refusal(options: FakeOpenAiTranscriptionOptions, config: Partial<OpenAiTranscriptionConfig> = {}): Promise<ProviderError> {
    fake = await FakeOpenAiTranscription.start(options);
    const err = await new OpenAiRecognizer({ apiKey: FAKE_OPENAI_KEY, url: fake.url, ...config }).open({ callId: 'call_oa', language: 'en-US', logger: log.logger }, rec.listener).then(
      () => expect.fail('open resolved'),
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ProviderError);
    return err as ProviderError;
  }

  const finals = () => rec.heard.filter((h) => h[0] === 'final');

  it('opens a transcription session: the key as a Bearer header, then session.update for mu-law, the model, the ISO-639-1 language, server VAD and noise reduction', async () => {
    await start({});
    const [seen] = fake.connections;
    expect(seen!.url).to.equal('/v1/realtime?intent=transcription');
    expect(seen!.headers.authorization).to.equal(`Bearer ${FAKE_OPENAI_KEY}`);
    expect(seen!.received).to.deep.equal([{ type: 'session.update', event_id: 'svc_session_update', session: SESSION }]);
    // The server took it: the session is mu-law now.
    expect((seen!.session.audio as any).input.format).to.deep.equal({ type: 'audio/pcmu' });
  });

  it('adds intent=transcription to an endpoint given without it (SVC_STT_URL as the realtime endpoint)', async () => {
    fake = await FakeOpenAiTranscription.start();
    const url = fake.url.replace('?intent=transcription', '');
    stream = await new OpenAiRecognizer({ apiKey: FAKE_OPENAI_KEY, url }).open({ callId: 'c', language: 'en', logger: log.logger }, rec.listener);
    expect(fake.connections[0]!.url).to.equal('/v1/realtime?intent=transcription');
    expect((fake.connections[0]!.session.audio as any).input.format).to.deep.equal({ type: 'audio/pcmu' });
  });

  it('asks for the model it is given, maps pt-BR to pt, and leaves a language with no ISO-639-1 form to the model', async () => {
    await start({}, { model: 'gpt-4o-mini-transcribe', silenceMs: 700 }, 'pt-BR');
    const input = (fake.connections[0]!.received[0]!.session as any).audio.input;
    expect(input.transcription).to.deep.equal({ model: 'gpt-4o-mini-transcribe', language: 'pt' });
    expect(input.turn_detection.silence_duration_ms).to.equal(700);
    await stream!.close(200);
    stream = undefined;
    await fake.close();
    await start({}, {}, 'yue-HK');
    expect((fake.connections[0]!.received[0]!.session as any).audio.input.transcription).to.deep.equal({ model: 'gpt-4o-transcribe' });
  });

  it("tells speech started, the turn's text as it grows, and each turn's final with its span in call ms", async () => {
    const s = await start({
      script: [
        { afterBytes: 8000, text: 'Hello is this the bakery' },
        { afterBytes: 4000, silence: true },
        { afterBytes: 8000, text: 'I would like a cake', deltas: 3 },
      ],
    });
    const sent = sendAudio(s, 20_000);
    await until('two finals', () => finals().length === 2);
    expect(rec.heard).to.deep.equal([
      ['speechStarted', 0],
      ['interim', 'Hello is'],
      ['interim', 'Hello is this the bakery'],
      ['final', 'Hello is this the bakery', true, { startMs: 0, endMs: 1000 }],
      ['speechStarted', 1500],
      ['interim', 'I'],
      ['interim', 'I would like'],
      ['interim', 'I would like a cake'],
      ['final', 'I would like a cake', true, { startMs: 1500, endMs: 2500 }],
    ]);
    // The audio went as appended base64, byte for byte.
    expect(Buffer.concat(fake.connections[0]!.audio).equals(sent)).to.equal(true);
  });

  it("keeps each turn's text apart when an earlier turn's completion comes after a later turn's delta", async () => {
    const s = await start({
      script: [
        { afterBytes: 8000, text: 'first thing', completeAfterNext: true },
        { afterBytes: 8000, text: 'second thing here' },
      ],
    });
    sendAudio(s, 16_000);
    await until('two finals', () => finals().length === 2);
    const order = fake.connections[0]!.sent.filter((e) => e.type.startsWith('conversation.item.input_audio_transcription')).map((e) => [e.type.split('.').at(-1), e.item_id]);
    expect(order).to.deep.equal([
      ['delta', 'item_0_1'],
      ['delta', 'item_0_1'],
      ['delta', 'item_0_2'],
      ['completed', 'item_0_1'],
      ['delta', 'item_0_2'],
      ['completed', 'item_0_2'],
    ]);
    expect(rec.heard).to.deep.equal([
      ['speechStarted', 0],
      ['interim', 'first'],
      ['interim', 'first thing'],
      ['speechStarted', 1000],
      ['interim', 'second'],
      ['final', 'first thing', true, { startMs: 0, endMs: 1000 }],
      // The later turn is still being heard: its text so far is told again after the earlier turn's final.
      ['interim', 'second'],
      ['interim', 'second thing here'],
      ['final', 'second thing here', true, { startMs: 1000, endMs: 2000 }],
    ]);
  });

  it('loses a turn whose transcription failed (logged, no final), and carries on', async () => {
    const s = await start({
      script: [
        { afterBytes: 8000, text: 'lost words', fail: true },
        { afterBytes: 8000, text: 'kept words' },
      ],
    });
    sendAudio(s, 16_000);
    await until('the final', () => finals().length === 1);
    expect(finals()).to.deep.equal([['final', 'kept words', true, { startMs: 1000, endMs: 2000 }]]);
    const line = JSON.parse(log.lines.find((l) => l.includes('the turn is lost'))!);
    expect([line.itemId, line.code]).to.deep.equal(['item_0_1', 'transcription_failed']);
    expect(rec.failures()).to.deep.equal([]);
  });

  it('flush() commits the open turn: its final ends where the call stood; a flush with too little audio is answered with an error that changes nothing', async () => {
    const s = await start({
      script: [
        { afterBytes: 8000, text: 'my card number is', midTurn: true },
        { afterBytes: 4000, text: 'four four' },
      ],
    });
    sendAudio(s, 9600);
    await until('speech started', () => rec.heard.length === 1);
    s.flush();
    await until('the final', () => finals().length === 1);
    expect(finals()[0]).to.deep.equal(['final', 'my card number is', true, { startMs: 0, endMs: 1200 }]);
    s.flush();
    await fake.until(() => fake.connections[0]!.sent.some((e) => e.type === 'error'));
    const error = fake.connections[0]!.sent.find((e) => e.type === 'error')!.error as Record<string, unknown>;
    expect([error.code, error.event_id]).to.deep.equal(['input_audio_buffer_commit_empty', 'svc_commit_2']);
    expect(fake.events('input_audio_buffer.commit')).to.deep.equal([
      { type: 'input_audio_buffer.commit', event_id: 'svc_commit_1' },
      { type: 'input_audio_buffer.commit', event_id: 'svc_commit_2' },
    ]);
    sendAudio(s, 4000);
    await until('the second final', () => finals().length === 2);
    expect(finals()[1]).to.deep.equal(['final', 'four four', true, { startMs: 1200, endMs: 1700 }]);
    expect(log.lines.some((l) => l.includes('"level":40') && l.includes('input_audio_buffer_commit_empty'))).to.equal(false);
    expect(rec.failures()).to.deep.equal([]);
  });

  it('close() commits what is left, waits for its transcription, then closes the socket', async () => {
    const s = await start({ script: [{ afterBytes: 4000, text: 'goodbye then', midTurn: true }] });
    sendAudio(s, 4000);
    await until('speech started', () => rec.heard.length === 1);
    await s.close();
    stream = undefined;
    expect(rec.heard.at(-1)).to.deep.equal(['final', 'goodbye then', true, { startMs: 0, endMs: 500 }]);
    const seen = fake.connections[0]!;
    expect(seen.received.at(-1)).to.deep.equal({ type: 'input_audio_buffer.commit', event_id: 'svc_commit_1' });
    await fake.until(() => seen.closeCode !== null);
    expect(seen.closeCode).to.equal(1000);
    s.send(Buffer.alloc(160));
    await s.close();
    expect(seen.audioBytes).to.equal(4000);
  });

  it('close() waits for a turn server VAD committed whose transcription is still to come', async () => {
    const s = await start({
      script: [
        { afterBytes: 4000, text: 'one', completeAfterNext: true },
        { afterBytes: 4000, text: 'two three', midTurn: true },
      ],
    });
    sendAudio(s, 4800);
    await until('the first turn heard', () => rec.heard.some((h) => h[0] === 'interim' && h[1] === 'one'));
    expect(finals()).to.deep.equal([]);
    await s.close();
    stream = undefined;
    // The open turn is committed with the words heard of it so far; the earlier turn's completion comes with it.
    expect(finals()).to.deep.equal([
      ['final', 'one', true, { startMs: 0, endMs: 500 }],
      ['final', 'two', true, { startMs: 500, endMs: 600 }],
    ]);
    expect(fake.connections[0]!.closeCode).to.equal(1000);
  });

  it('close() with nothing left to transcribe closes at once', async () => {
    const s = await start({});
    await s.close();
    stream = undefined;
    await fake.until(() => fake.connections[0]!.closeCode !== null);
    expect(fake.connections[0]!.closeCode).to.equal(1000);
  });

  it('close() gives up after its grace when the session never answers', async () => {
    const s = await start({ script: [{ afterBytes: 160, stall: true }] });
    sendAudio(s, 1600);
    await fake.until(() => fake.connections[0]!.audioBytes === 1600);
    await s.close(100);
    stream = undefined;
    expect(log.lines.some((l) => l.includes('did not finish within the grace'))).to.equal(true);
    expect(rec.failures()).to.deep.equal([]);
  });

  it('logs an error event that leaves the session open, and carries on', async () => {
    const s = await start({
      script: [
        { afterBytes: 800, error: { type: 'server_error', code: 'server_error', message: 'The server had an error while processing your request.' } },
        { afterBytes: 8000, text: 'still fine' },
      ],
    });
    sendAudio(s, 8800);
    await until('the final', () => finals().length === 1);
    const line = JSON.parse(log.lines.find((l) => l.includes('openai transcription error'))!);
    expect([line.type, line.code, line.provider, line.callId]).to.deep.equal(['server_error', 'server_error', 'openai-stt', 'call_oa']);
    expect(finals()).to.deep.equal([['final', 'still fine', true, { startMs: 100, endMs: 1100 }]]);
    expect(fake.connections).to.have.length(1);
    expect(rec.failures()).to.deep.equal([]);
  });

  describe('a refused handshake or session', () => {
    it('is refused (401) without a retry, and neither the key nor the message quoting it reaches the error or the logs', async () => {
      const err = await refusal({ apiKey: 'sk-the-right-key-000000000000' });
      expect([err.provider, err.failure, err.retryable]).to.deep.equal(['openai-stt', 'refused', false]);
      expect(err.message).to.equal('openai-stt refused the stream: HTTP 401 (invalid_api_key)');
      expect(fake.handshakes.map((h) => h.status)).to.deep.equal([401]);
      expect(log.lines.join('\n')).not.to.contain('Incorrect API key');
    });

    it('is throttled (429) with the wait Retry-After asks for', async () => {
      const err = await refusal({ reject: { status: 429, retryAfter: '3' } });
      expect([err.failure, err.retryAfterMs, err.message]).to.deep.equal(['throttled', 3000, 'openai-stt refused the stream: HTTP 429 (rate_limit_exceeded)']);
    });

    it('is unavailable (5xx)', async () => {
      const err = await refusal({ reject: { status: 500 } });
      expect([err.failure, err.message]).to.deep.equal(['unavailable', 'openai-stt refused the stream: HTTP 500 (server_error)']);
    });

    it('is stalled when the handshake is never answered, within the bound', async () => {
      const err = await refusal({ handshakeDelayMs: Number.POSITIVE_INFINITY }, { openTimeoutMs: 150 });
      expect([err.failure, err.message]).to.deep.equal(['stalled', 'openai-stt did not finish the handshake within 150 ms']);
    });

    it('is stalled when session.update is never confirmed, within the bound', async () => {
      const err = await refusal({ confirmDelayMs: Number.POSITIVE_INFINITY }, { openTimeoutMs: 150 });
      expect([err.failure, err.message]).to.deep.equal(['stalled', 'openai-stt did not confirm the session within 150 ms']);
      await fake.until(() => fake.connections[0]!.closeCode !== null);
    });

    it('is refused when the server will not take the session (a model it does not have), the socket left open by the server', async () => {
      const err = await refusal({}, { model: 'gpt-9-transcribe' });
      expect([err.failure, err.message]).to.deep.equal(['refused', 'openai-stt refused the session: invalid_value session.audio.input.transcription.model']);
      const error = fake.connections[0]!.sent.at(-1)!;
      expect([error.type, (error.error as any).event_id]).to.deep.equal(['error', 'svc_session_update']);
    });

    it('is throttled when the session.update is answered with a rate limit', async () => {
      const err = await refusal({ sessionUpdateError: { type: 'tokens', code: 'rate_limit_exceeded', message: 'Rate limit reached.' } });
      expect(err.failure).to.equal('throttled');
    });
  });

  describe('a socket lost mid-call', () => {
    it('is reopened once with the same session: the audio sent meanwhile goes first, and times carry on from where the call stood', async () => {
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
      const meanwhile = Buffer.concat([sendAudio(s, 2400, 0x11), sendAudio(s, 1600, 0x22)]);
      await until('the second final', () => finals().length === 2);
      const [first, second] = fake.connections;
      expect(first!.closeCode).to.equal(1011);
      expect(second!.received[0]).to.deep.equal({ type: 'session.update', event_id: 'svc_session_update', session: SESSION });
      expect(Buffer.concat(second!.audio).equals(meanwhile)).to.equal(true);
      expect(finals()).to.deep.equal([
        ['final', 'first turn', true, { startMs: 0, endMs: 1000 }],
        ['final', 'second turn', true, { startMs: 1200, endMs: 1700 }],
      ]);
      expect(rec.heard.filter((h) => h[0] === 'speechStarted')).to.deep.equal([
        ['speechStarted', 0],
        ['speechStarted', 1200],
      ]);
      expect(rec.failures()).to.deep.equal([]);
    });

    it('is reopened when the session reaches its maximum duration (session_expired, then the close)', async () => {
      const s = await start({ connections: [{ maxSessionMs: 100 }, { script: [{ afterBytes: 800, text: 'after expiry' }] }] });
      sendAudio(s, 800);
      await fake.until(() => fake.connections.length === 2);
      expect(fake.connections[0]!.sent.at(-1)).to.deep.include({ type: 'error' });
      sendAudio(s, 800);
      await until('the final', () => finals().length === 1);
      expect(finals()[0]).to.deep.equal(['final', 'after expiry', true, { startMs: 100, endMs: 200 }]);
    });

    it('fails the stream (dropped) when it is lost a second time, and tries no third socket', async () => {
      const s = await start({ connections: [{ script: [{ afterBytes: 1600, drop: 'abnormal' }] }, { script: [{ afterBytes: 1600, drop: 1011 }] }] });
      sendAudio(s, 1600);
      await fake.until(() => fake.connections.length === 2);
      sendAudio(s, 1600);
      await until('the failure', () => rec.failures().length === 1);
      expect([rec.failures()[0]!.provider, rec.failures()[0]!.failure]).to.deep.equal(['openai-stt', 'dropped']);
      await s.close();
      expect(fake.handshakes).to.have.length(2);
    });

    it('fails the stream with the refusal when the reopen is refused', async () => {
      const s = await start({ connections: [{ script: [{ afterBytes: 1600, drop: 1011 }] }, { reject: { status: 429, retryAfter: '2' } }] });
      sendAudio(s, 1600);
      await until('the failure', () => rec.failures().length === 1);
      expect([rec.failures()[0]!.failure, rec.failures()[0]!.retryAfterMs]).to.deep.equal(['throttled', 2000]);
    });
  });
});
