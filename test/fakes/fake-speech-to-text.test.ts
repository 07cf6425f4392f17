// The fake Deepgram and the fake OpenAI transcription server refuse what the real services refuse, driven here by a
// raw WebSocket client so what is checked is the fakes' wire behaviour and nothing of svc: the adapters' tests lean
// on these refusals (an adapter that sent a BCP-47 language to OpenAI, or raw audio without its rate to Deepgram,
// would be refused by the fake as by the vendor).
import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { type RawData, WebSocket } from 'ws';
import { FAKE_DEEPGRAM_KEY, FakeDeepgram } from '../support/fake-deepgram.js';
import { FAKE_OPENAI_KEY, FakeOpenAiTranscription } from '../support/fake-openai-transcription.js';
import { until } from '../support/until.js';

type Json = Record<string, any>;

/** Opens a socket; resolves with it once open, or with the refusal's status, headers and body. */
function connect(
  url: string,
  headers: Record<string, string>,
): Promise<{ ws: WebSocket; got: Json[]; closed: { code: number; reason: string } | null } | { status: number; headers: IncomingMessage['headers']; body: string }> {
  const ws = new WebSocket(url, { headers });
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      const out = { ws, got: [] as Json[], closed: null as { code: number; reason: string } | null };
      ws.on('message', (data: RawData) => out.got.push(JSON.parse(data.toString())));
      ws.on('close', (code: number, reason: Buffer) => (out.closed = { code, reason: reason.toString() }));
      resolve(out);
    });
    ws.once('unexpected-response', (_req, res: IncomingMessage) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    ws.once('error', reject);
  });
}

describe('fake Deepgram', () => {
  let fake: FakeDeepgram;
  afterEach(() => fake?.close());
  const query = 'encoding=mulaw&sample_rate=8000&channels=1&model=nova-3&interim_results=true&utterance_end_ms=1000';

  it('refuses a wrong key 401 with dg-error, dg-request-id and the JSON error body', async () => {
    fake = await FakeDeepgram.start();
    const refused = (await connect(`${fake.url}?${query}`, { Authorization: 'Token nope' })) as { status: number; headers: Json; body: string };
    expect(refused.status).to.equal(401);
    expect(refused.headers['dg-error']).to.equal('Invalid credentials.');
    const body = JSON.parse(refused.body);
    expect([body.err_code, body.err_msg, body.request_id]).to.deep.equal(['INVALID_AUTH', 'Invalid credentials.', refused.headers['dg-request-id']]);
  });

  it('refuses raw audio without its sample rate, and utterance_end_ms without interim results (400)', async () => {
    fake = await FakeDeepgram.start();
    const auth = { Authorization: `Token ${FAKE_DEEPGRAM_KEY}` };
    const noRate = (await connect(`${fake.url}?encoding=mulaw&model=nova-3`, auth)) as { status: number; headers: Json };
    expect([noRate.status, noRate.headers['dg-error']]).to.deep.equal([400, 'Bad Request: sample_rate is required when encoding is set.']);
    const noInterims = (await connect(`${fake.url}?encoding=mulaw&sample_rate=8000&utterance_end_ms=1000`, auth)) as { status: number };
    expect(noInterims.status).to.equal(400);
  });

  it('closes a stream that gets neither audio nor KeepAlive within its idle bound (1011, NET-0001)', async () => {
    fake = await FakeDeepgram.start({ idleMs: 100 });
    const c = (await connect(`${fake.url}?${query}`, { Authorization: `Token ${FAKE_DEEPGRAM_KEY}` })) as { closed: { code: number; reason: string } | null };
    await until('the idle close', () => c.closed !== null);
    expect(c.closed!.code).to.equal(1011);
    expect(c.closed!.reason.startsWith('NET-0001')).to.equal(true);
  });

  it('answers CloseStream with the words left, Metadata, then a 1000 close', async () => {
    fake = await FakeDeepgram.start({ script: [{ afterBytes: 800, text: 'bye now', end: 'held' }] });
    const c = (await connect(`${fake.url}?${query}`, { Authorization: `Token ${FAKE_DEEPGRAM_KEY}` })) as { ws: WebSocket; got: Json[]; closed: { code: number } | null };
    c.ws.send(Buffer.alloc(800, 0xff));
    c.ws.send(JSON.stringify({ type: 'CloseStream' }));
    await until('the close', () => c.closed !== null);
    const last = c.got.slice(-2);
    expect([last[0]!.type, last[0]!.is_final, last[0]!.channel.alternatives[0].transcript, last[1]!.type, last[1]!.duration, c.closed!.code]).to.deep.equal([
      'Results',
      true,
      'bye now',
      'Metadata',
      0.1,
      1000,
    ]);
  });
});

describe('fake Deepgram with a late final', () => {
  let fake: FakeDeepgram;
  afterEach(() => fake?.close());
  const query = 'encoding=mulaw&sample_rate=8000&channels=1&model=nova-3&interim_results=true';
  const auth = { Authorization: `Token ${FAKE_DEEPGRAM_KEY}` };
  const finals = (got: Json[]) => got.filter((m) => m.type === 'Results' && m.is_final).map((m) => [m.channel.alternatives[0].transcript, m.start, m.duration, m.speech_final]);

  it('holds the words final while the stream goes on: the silence after them is answered first', async () => {
    fake = await FakeDeepgram.start({ script: [{ afterBytes: 800, text: 'hello there' }], finalDelayMs: 60_000 });
    const c = (await connect(`${fake.url}?${query}`, auth)) as { ws: WebSocket; got: Json[] };
    c.ws.send(Buffer.alloc(800, 0xff));
    c.ws.send(Buffer.alloc(16_000, 0xff));
    await until('the silence answered', () => finals(c.got).length > 0);
    expect(finals(c.got)).to.deep.equal([['', 0.1, 2, false]]);
  });

  it('sends the final once its delay has passed, timed to the words it ends', async () => {
    fake = await FakeDeepgram.start({ script: [{ afterBytes: 800, text: 'hello there' }], finalDelayMs: 50 });
    const c = (await connect(`${fake.url}?${query}`, auth)) as { ws: WebSocket; got: Json[] };
    c.ws.send(Buffer.alloc(800, 0xff));
    c.ws.send(Buffer.alloc(800, 0xff));
    await until('the final', () => finals(c.got).length > 0);
    expect(finals(c.got)).to.deep.equal([['hello there', 0, 0.1, true]]);
  });
});

describe('fake OpenAI transcription server', () => {
  let fake: FakeOpenAiTranscription;
  afterEach(() => fake?.close());
  const update = (input: Json) => JSON.stringify({ type: 'session.update', event_id: 'e1', session: { type: 'transcription', audio: { input } } });

  it("refuses a wrong key 401 with OpenAI's error body, which quotes the key it was given", async () => {
    fake = await FakeOpenAiTranscription.start();
    const refused = (await connect(fake.url, { Authorization: 'Bearer sk-wrong-key-123' })) as { status: number; body: string };
    expect(refused.status).to.equal(401);
    expect(JSON.parse(refused.body).error).to.deep.include({ code: 'invalid_api_key', type: 'invalid_request_error' });
    expect(refused.body).to.contain('sk-wrong-key-123');
  });

  it('refuses a language not in ISO-639-1 and an unknown field with an error event, leaving the session as it was and the socket open', async () => {
    fake = await FakeOpenAiTranscription.start();
    const c = (await connect(fake.url, { Authorization: `Bearer ${FAKE_OPENAI_KEY}` })) as { ws: WebSocket; got: Json[]; closed: unknown };
    c.ws.send(update({ format: { type: 'audio/pcmu' }, transcription: { model: 'gpt-4o-transcribe', language: 'en-US' } }));
    await until('the error', () => c.got.some((e) => e.type === 'error'));
    expect(c.got.find((e) => e.type === 'error')!.error).to.deep.include({ code: 'invalid_value', param: 'session.audio.input.transcription.language', event_id: 'e1' });
    c.ws.send(JSON.stringify({ type: 'session.update', event_id: 'e2', session: { type: 'transcription', instructions: 'hi' } }));
    await until('the second error', () => c.got.filter((e) => e.type === 'error').length === 2);
    expect(c.got.filter((e) => e.type === 'error')[1]!.error).to.deep.include({ code: 'unknown_parameter', param: 'session.instructions', event_id: 'e2' });
    expect(c.closed).to.equal(null);
    expect((fake.connections[0]!.session.audio as Json).input.format).to.deep.equal({ type: 'audio/pcm', rate: 24000 });
    c.ws.send(update({ format: { type: 'audio/pcmu' }, transcription: { model: 'gpt-4o-transcribe', language: 'en' } }));
    await until('session.updated', () => c.got.some((e) => e.type === 'session.updated'));
    expect(c.got.find((e) => e.type === 'session.updated')!.session.audio.input.format).to.deep.equal({ type: 'audio/pcmu' });
  });

  it('opens a conversation session without intent=transcription, which refuses a transcription session.update', async () => {
    fake = await FakeOpenAiTranscription.start();
    const c = (await connect(fake.url.replace('intent=transcription', 'model=gpt-realtime'), { Authorization: `Bearer ${FAKE_OPENAI_KEY}` })) as { ws: WebSocket; got: Json[] };
    c.ws.send(update({ format: { type: 'audio/pcmu' } }));
    await until('the error', () => c.got.some((e) => e.type === 'error'));
    expect(c.got[0]!.session.type).to.equal('realtime');
    expect(c.got.find((e) => e.type === 'error')!.error).to.deep.include({ code: 'invalid_value', param: 'session.type' });
  });

  it('answers a commit of under 100 ms of audio with input_audio_buffer_commit_empty', async () => {
    fake = await FakeOpenAiTranscription.start();
    const c = (await connect(fake.url, { Authorization: `Bearer ${FAKE_OPENAI_KEY}` })) as { ws: WebSocket; got: Json[] };
    c.ws.send(update({ format: { type: 'audio/pcmu' } }));
    c.ws.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: Buffer.alloc(400, 0xff).toString('base64') }));
    c.ws.send(JSON.stringify({ type: 'input_audio_buffer.commit', event_id: 'c1' }));
    await until('the error', () => c.got.some((e) => e.type === 'error'));
    const error = c.got.find((e) => e.type === 'error')!.error;
    expect([error.code, error.event_id, error.message]).to.deep.equal([
      'input_audio_buffer_commit_empty',
      'c1',
      'Error committing input audio buffer: buffer too small. Expected at least 100ms of audio, but buffer only has 50.00ms of audio.',
    ]);
  });
});
