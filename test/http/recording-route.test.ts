// GET /v1/agent/calls/{id}/recording over HTTP: a rendered WAV, whole or by byte range, tenant-scoped; a sandbox
// call's rendered at the first request for it.
import { expect } from 'chai';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timeTurns } from '../../server/src/conversation/conversation.js';
import { SpeechRecorder } from '../../server/src/recording/speech-recorder.js';
import { writeRecording } from '../../server/src/recording/write-recording.js';
import { recordingRequestJson, type RecordingRequest } from '../../server/src/recording/recorder.js';
import { insertTestCall } from '../support/calls.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const TURNS = timeTurns([
  { speaker: 'agent', text: 'Hello, I am calling to ask whether the shop is open on Sunday.' },
  { speaker: 'callee', text: 'Yes, it is open on Sunday.' },
]);
const REQUEST: RecordingRequest = { turns: TURNS, totalMs: TURNS.at(-1)!.endMs + 400, language: 'en-US' };
let rendered: Promise<Buffer> | undefined;
/** One conversation rendered by the real recorder, shared by every test. */
function renderedWav(): Promise<Buffer> {
  rendered ??= new SpeechRecorder().render(REQUEST);
  return rendered;
}

forEachStore('recording route', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  let bob: TestTenant;
  let dataDir: string;
  let path: string;
  let wav: Buffer;
  let size: number;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-recording-route-'));
    srv = await startServer(kind, { SVC_DATA_DIR: dataDir });
    alice = await srv.tenant();
    bob = await srv.tenant();
    wav = await renderedWav();
    size = wav.length;
  });
  afterEach(async () => {
    await srv.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function recordedCall(recordingsDir = srv.deps.config.recordingsDir): Promise<string> {
    const row = await insertTestCall(srv.deps.store, alice, { recording_path: null });
    const stored = await writeRecording({ dataDir: srv.deps.config.dataDir, recordingsDir }, row.id, wav);
    await srv.deps.store.db.updateTable('calls').set({ recording_path: stored }).where('id', '=', row.id).execute();
    path = `/v1/agent/calls/${row.id}/recording`;
    return stored;
  }

  it('serves the whole file: 200 audio/wav, Accept-Ranges: bytes, its length and every byte', async () => {
    expect(await recordedCall()).to.match(/^recordings\/[0-9a-f-]{36}\.wav$/);
    const res = await alice.api.get(path);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('audio/wav');
    expect(res.headers.get('accept-ranges')).to.equal('bytes');
    expect(res.headers.get('content-length')).to.equal(String(size));
    expect(res.headers.get('content-range')).to.equal(null);
    expect((res.body as Buffer).equals(wav)).to.equal(true);
  });

  it('serves the recording for the call id in capitals too', async () => {
    await recordedCall();
    const shouted = path.replace(/[0-9a-f-]{36}/, (id) => id.toUpperCase());
    expect(shouted).to.not.equal(path);
    const res = await alice.api.get(shouted);
    expect(res.status).to.equal(200);
    expect((res.body as Buffer).equals(wav)).to.equal(true);
    expect((await bob.api.get(shouted)).status).to.equal(404);
  });

  it('answers Range bytes=0-43 with 206 and exactly the 44-byte RIFF header', async () => {
    await recordedCall();
    const res = await alice.api.get(path, { headers: { range: 'bytes=0-43' } });
    expect(res.status).to.equal(206);
    expect(res.headers.get('content-type')).to.equal('audio/wav');
    expect(res.headers.get('content-range')).to.equal(`bytes 0-43/${size}`);
    expect(res.headers.get('content-length')).to.equal('44');
    const header = res.body as Buffer;
    expect(header.equals(wav.subarray(0, 44))).to.equal(true);
    expect([header.toString('ascii', 0, 4), header.toString('ascii', 8, 16), header.toString('ascii', 36, 40)]).to.deep.equal(['RIFF', 'WAVEfmt ', 'data']);
    expect(header.readUInt32LE(24)).to.equal(22050);
    expect(header.readUInt32LE(40)).to.equal(size - 44);
  });

  it('answers Range bytes=-100 with the last 100 bytes', async () => {
    await recordedCall();
    const res = await alice.api.get(path, { headers: { range: 'bytes=-100' } });
    expect(res.status).to.equal(206);
    expect(res.headers.get('content-range')).to.equal(`bytes ${size - 100}-${size - 1}/${size}`);
    expect(res.headers.get('content-length')).to.equal('100');
    expect((res.body as Buffer).equals(wav.subarray(size - 100))).to.equal(true);
  });

  it('answers an open range bytes=1000- with the rest of the file', async () => {
    await recordedCall();
    const res = await alice.api.get(path, { headers: { range: 'bytes=1000-' } });
    expect(res.status).to.equal(206);
    expect(res.headers.get('content-range')).to.equal(`bytes 1000-${size - 1}/${size}`);
    expect((res.body as Buffer).equals(wav.subarray(1000))).to.equal(true);
  });

  it('answers a range that starts past the end with 416 range_not_satisfiable and Content-Range bytes */size', async () => {
    await recordedCall();
    for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=-0']) {
      const res = await alice.api.get(path, { headers: { range } });
      expect(res.status, range).to.equal(416);
      expect(res.body.error, range).to.equal('range_not_satisfiable');
      expect(res.headers.get('content-range'), range).to.equal(`bytes */${size}`);
    }
  });

  it('serves a recording kept outside the data folder by the absolute path the row stores', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'svc-recordings-outside-'));
    try {
      expect(await recordedCall(outside)).to.match(new RegExp(`^${outside}/[0-9a-f-]{36}\\.wav$`));
      const res = await alice.api.get(path, { headers: { range: 'bytes=0-3' } });
      expect(res.status).to.equal(206);
      expect((res.body as Buffer).toString('ascii')).to.equal('RIFF');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("answers another key's call with 404 not_found, exactly like a call that does not exist", async () => {
    await recordedCall();
    const theirs = await bob.api.get(path);
    const missing = await bob.api.get(`/v1/agent/calls/${MISSING_ID}/recording`);
    expect(theirs.status).to.equal(404);
    expect(theirs.body.error).to.equal('not_found');
    expect(missing.status).to.equal(404);
    const id = path.split('/')[4]!;
    expect(theirs.body.message.replace(id, 'ID')).to.equal(missing.body.message.replace(MISSING_ID, 'ID'));
  });

  it('answers a call that was never answered, so has no recording, with 404 not_found', async () => {
    const row = await insertTestCall(srv.deps.store, alice, { status: 'no_answer', recording_path: null, started_at: null, duration_sec: 0, summary: null, transcript: null, extracted_json: null });
    const res = await alice.api.get(`/v1/agent/calls/${row.id}/recording`, { headers: { range: 'bytes=0-43' } });
    expect(res.status).to.equal(404);
    expect(res.body.error).to.equal('not_found');
    expect(res.headers.get('accept-ranges')).to.equal(null);
  });

  it('answers 404 not_found when the row names a file that is gone', async () => {
    const row = await insertTestCall(srv.deps.store, alice, { recording_path: 'recordings/gone.wav' });
    const res = await alice.api.get(`/v1/agent/calls/${row.id}/recording`);
    expect(res.status).to.equal(404);
    expect(res.body.error).to.equal('not_found');
  });

  /** A sandbox call as the engine ends it: no file yet, what its recording is rendered from kept. */
  const sandboxCall = async () => (await insertTestCall(srv.deps.store, alice, { recording_request_json: recordingRequestJson(REQUEST) })).id;

  it("renders a sandbox call's recording at the first request, the same bytes as rendered at once, and keeps it", async () => {
    const id = await sandboxCall();
    expect((await alice.api.get(`/v1/agent/calls/${id}`)).body.recordingUrl).to.equal(`${srv.baseUrl}/v1/agent/calls/${id}/recording`);
    expect(await readdir(dataDir)).to.deep.equal([]);
    const res = await alice.api.get(`/v1/agent/calls/${id}/recording`);
    expect(res.status).to.equal(200);
    expect([res.headers.get('content-type'), res.headers.get('content-length')]).to.deep.equal(['audio/wav', String(size)]);
    expect((res.body as Buffer).equals(wav)).to.equal(true);
    expect(await readdir(join(dataDir, 'recordings'))).to.deep.equal([`${id}.wav`]);
    expect(((await alice.api.get(`/v1/agent/calls/${id}/recording`)).body as Buffer).equals(wav)).to.equal(true);
    expect((await bob.api.get(`/v1/agent/calls/${id}/recording`)).status).to.equal(404);
  });

  it('answers a byte range asked for first, before anything was rendered, from the rendered recording', async () => {
    const res = await alice.api.get(`/v1/agent/calls/${await sandboxCall()}/recording`, { headers: { range: 'bytes=-100' } });
    expect(res.status).to.equal(206);
    expect(res.headers.get('content-range')).to.equal(`bytes ${size - 100}-${size - 1}/${size}`);
    expect((res.body as Buffer).equals(wav.subarray(size - 100))).to.equal(true);
  });

  it('answers 503 recording_unavailable with Retry-After when the recording cannot be written, and serves it once it can', async () => {
    await srv.close();
    const blocked = join(dataDir, 'blocked');
    await writeFile(blocked, 'a file where the recordings folder should be');
    srv = await startServer(kind, { SVC_DATA_DIR: dataDir, SVC_RECORDINGS_DIR: join(blocked, 'recordings') });
    alice = await srv.tenant();
    const id = await sandboxCall();
    const res = await alice.api.get(`/v1/agent/calls/${id}/recording`);
    expect(res.status).to.equal(503);
    expect(res.body).to.deep.equal({ error: 'recording_unavailable', message: `The recording of call ${id} could not be made ready just now; retry in a few seconds.` });
    expect(res.headers.get('retry-after')).to.equal('5');
    expect(res.headers.get('ratelimit-limit')).to.equal('10');
    await rm(blocked);
    const again = await alice.api.get(`/v1/agent/calls/${id}/recording`);
    expect(again.status).to.equal(200);
    expect((again.body as Buffer).equals(wav)).to.equal(true);
  });

  it('serves the two-channel rendition stored beside a carrier recording at ?channels=2, whole or by range; channels=1 and none serve the v1 file', async () => {
    const stored = await recordedCall();
    const dual = Buffer.concat([wav.subarray(0, 44), Buffer.from('two channels')]);
    expect(await writeRecording(srv.deps.config, path.split('/')[4]!, dual, 2)).to.equal(stored.replace(/\.wav$/, '.2ch.wav'));
    for (const query of ['', '?channels=1']) {
      const res = await alice.api.get(path + query);
      expect(res.status, query).to.equal(200);
      expect((res.body as Buffer).equals(wav), query).to.equal(true);
    }
    const res = await alice.api.get(`${path}?channels=2`);
    expect([res.status, res.headers.get('content-type'), res.headers.get('content-length')]).to.deep.equal([200, 'audio/wav', String(dual.length)]);
    expect((res.body as Buffer).equals(dual)).to.equal(true);
    const part = await alice.api.get(`${path}?channels=2`, { headers: { range: 'bytes=44-' } });
    expect([part.status, part.headers.get('content-range'), (part.body as Buffer).toString()]).to.deep.equal([206, `bytes 44-${dual.length - 1}/${dual.length}`, 'two channels']);
  });

  it('answers ?channels=2 with 404 not_found for a sandbox call, whose recording has one channel', async () => {
    const id = await sandboxCall();
    const res = await alice.api.get(`/v1/agent/calls/${id}/recording?channels=2`);
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ error: 'not_found', message: `Call ${id} has no two-channel recording.` });
    expect((await alice.api.get(`/v1/agent/calls/${id}/recording`)).status).to.equal(200);
  });

  it('answers a channels other than 1 or 2, or given twice, with 400 invalid_channels', async () => {
    await recordedCall();
    for (const query of ['channels=3', 'channels=0', 'channels=two', 'channels=1.5', 'channels=']) {
      const res = await alice.api.get(`${path}?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.body, query).to.deep.equal({ error: 'invalid_channels', message: "getCallRecording's `channels` is not 1 or 2 given once." });
    }
    const twice = await alice.api.get(`${path}?channels=1&channels=2`);
    expect([twice.status, twice.body.error]).to.deep.equal([400, 'invalid_channels']);
  });

  it('answers without a key with 401 unauthorized', async () => {
    await recordedCall();
    const res = await srv.anon.get(path, { headers: { range: 'bytes=0-43' } });
    expect(res.status).to.equal(401);
    expect(res.body.error).to.equal('unauthorized');
  });
});
