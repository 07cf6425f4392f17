import { expect } from 'chai';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SvcClient, SvcNetworkError } from '../../sdk/src/index.js';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { insertTestCall } from '../support/calls.js';
import { apiError, recordingFetch, type RecordingFetch } from './sdk-fetch.js';

const ok = { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday and until what time.', language: 'en-US' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

forEachStore('SDK client against a live server', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  let rec: RecordingFetch;
  let svc: SvcClient;
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-sdk-'));
  beforeEach(async () => {
    srv = await startServer(kind, { SVC_DATA_DIR: dataDir });
    alice = await srv.tenant();
    rec = recordingFetch();
    svc = new SvcClient({ apiKey: alice.key, baseUrl: srv.baseUrl, fetch: rec.fetch });
  });
  afterEach(() => srv.close());

  const callRows = () => srv.deps.store.db.selectFrom('calls').select(['id', 'api_key_id']).execute();

  describe('placeCall', () => {
    it('places a call and resolves with the queued placement', async () => {
      const placed = await svc.placeCall(ok);
      expect(placed).to.deep.equal({ callId: placed.callId, status: 'queued', language: 'en-US', languageSource: 'explicit', voice: 'alloy' });
      expect(await callRows()).to.deep.equal([{ id: placed.callId, api_key_id: alice.keyId }]);
      expect(rec.sent[0].headers.get('authorization')).to.equal(`Bearer ${alice.key}`);
      expect(JSON.parse(rec.sent[0].body)).to.deep.equal(ok);
    });

    it('places with metadata and reads it back, typed, from getCall and listCalls', async () => {
      const placed = await svc.placeCall({ ...ok, metadata: { order: 'A-17', team: 'ops' } });
      const call = await svc.getCall(placed.callId);
      const metadata: Record<string, string> | null | undefined = call.metadata;
      expect(metadata).to.deep.equal({ order: 'A-17', team: 'ops' });
      expect((await svc.listCalls()).calls[0].metadata).to.deep.equal({ order: 'A-17', team: 'ops' });
    });

    it('sends a random UUID as Idempotency-Key when the caller gives none, a new one per placement', async () => {
      await svc.placeCall(ok);
      await svc.placeCall(ok);
      const [first, second] = rec.sent.map((r) => r.headers.get('idempotency-key'));
      expect(first).to.match(UUID);
      expect(second).to.match(UUID);
      expect(first).to.not.equal(second);
      expect(await callRows()).to.have.length(2);
    });

    it("sends the caller's Idempotency-Key, so placing twice with it places one call", async () => {
      const a = await svc.placeCall(ok, { idempotencyKey: 'order-42' });
      const b = await svc.placeCall(ok, { idempotencyKey: 'order-42' });
      expect(b).to.deep.equal(a);
      expect(rec.sent.map((r) => r.headers.get('idempotency-key'))).to.deep.equal(['order-42', 'order-42']);
      expect(await callRows()).to.have.length(1);
    });

    it('preflights a call without placing it, and rejects a refused one at once, without retrying its 429', async () => {
      const pre = await svc.preflightCall(ok);
      expect(pre).to.deep.include({ callerId: alice.callerId, voice: 'alloy', language: 'en-US', languageSource: 'explicit', minutesRemaining: 1000 });
      expect(await callRows()).to.have.length(0);
      // With retries on and a window of one, a placement's 429 rate_limited would be waited out; a preflight's is its answer.
      const bob = await srv.tenant({ rateLimit: 1 });
      const slept: number[] = [];
      const bobSvc = new SvcClient({ apiKey: bob.key, baseUrl: srv.baseUrl, fetch: rec.fetch, retries: { maxAttempts: 3, maxDelayMs: 120_000 }, sleep: async (ms) => void slept.push(ms) });
      await bobSvc.placeCall(ok);
      const sentBefore = rec.sent.length;
      const e = await apiError(bobSvc.preflightCall(ok));
      expect([e.status, e.token]).to.deep.equal([429, 'rate_limited']);
      expect(rec.sent.length - sentBefore).to.equal(1);
      expect(slept).to.deep.equal([]);
      await apiError(bobSvc.placeCall(ok));
      expect(slept).to.have.length(2);
    });

    it('cancels a queued call, resolving with its canceled record; a second cancel resolves the same; another ended call rejects 409', async () => {
      const { callId } = await svc.placeCall(ok);
      const canceled = await svc.cancelCall(callId, { idempotencyKey: 'stop-7' });
      expect(canceled).to.deep.include({ id: callId, status: 'canceled', durationSec: 0 });
      expect(rec.sent.at(-1)!.headers.get('idempotency-key')).to.equal('stop-7');
      expect(await svc.cancelCall(callId)).to.deep.equal(canceled);
      expect(rec.sent.at(-1)!.headers.get('idempotency-key')).to.equal(null);
      const ended = await insertTestCall(srv.deps.store, alice, { status: 'no_answer' });
      const e = await apiError(svc.cancelCall(ended.id));
      expect([e.status, e.token]).to.deep.equal([409, 'call_already_ended']);
    });

    it('keeps the do-not-call list: add, list a page at a time, remove (a + in the path arrives intact), and a listed number refuses placement', async () => {
      expect(await svc.addDoNotCall('+14155550123', { reason: 'Asked not to be called.' })).to.deep.include({ number: '+14155550123', reason: 'Asked not to be called.', source: 'api' });
      await svc.addDoNotCall('+447911123456');
      const first = await svc.listDoNotCall({ limit: 1 });
      expect(first.numbers.map((n) => n.number)).to.deep.equal(['+14155550123']);
      const second = await svc.listDoNotCall({ limit: 1, after: first.nextAfter! });
      expect([second.numbers.map((n) => n.number), second.nextAfter]).to.deep.equal([['+447911123456'], null]);
      const e = await apiError(svc.placeCall(ok));
      expect([e.status, e.token]).to.deep.equal([400, 'destination_opted_out']);
      await svc.removeDoNotCall('+14155550123');
      expect((await apiError(svc.removeDoNotCall('+14155550123'))).status).to.equal(404);
      expect((await svc.placeCall(ok)).status).to.equal('queued');
    });

    it("passes the API's 400 invalid_idempotency_key through for a key with a space, placing nothing", async () => {
      const e = await apiError(svc.placeCall(ok, { idempotencyKey: 'order 42' }));
      expect([e.status, e.token]).to.deep.equal([400, 'invalid_idempotency_key']);
      expect(await callRows()).to.have.length(0);
    });

    it('rejects a Jersey number with SvcApiError 400 destination_blocked and the rate-limit info (a rejection spends none of the window)', async () => {
      const e = await apiError(svc.placeCall({ ...ok, to: '+441534123456' }));
      expect(e.status).to.equal(400);
      expect(e.token).to.equal('destination_blocked');
      expect(e.message).to.be.a('string').and.not.equal('');
      expect(e.rateLimit).to.deep.equal({ limit: 10, remaining: 10, resetSec: 30, retryAfterSec: null });
      expect(e.requestId).to.be.a('string');
      expect(await callRows()).to.have.length(0);
    });

    it('passes a validation token through: a body without `to` gives 400 to_required', async () => {
      const e = await apiError(svc.placeCall({ objective: ok.objective } as never));
      expect([e.status, e.token]).to.deep.equal([400, 'to_required']);
    });

    it('gives every problem of a refused placement in problems, the first being token and message; errors stays null', async () => {
      const e = await apiError(svc.placeCall({ to: '+441534123456', objective: ' ', sneaky: 1 } as never));
      expect([e.status, e.token, e.errors]).to.deep.equal([400, 'objective_required', null]);
      expect(e.problems).to.deep.equal([
        { error: 'objective_required', message: '`objective` is required and must not be blank.', field: 'objective' },
        { error: 'unknown_field', message: 'Unknown field `sneaky`; see the request schema for the fields this version accepts.', field: 'sneaky' },
        { error: 'destination_blocked', message: e.problems![2].message, field: 'to' },
      ]);
      expect(e.message).to.equal(e.problems![0].message);
      const pre = await apiError(svc.preflightCall({ to: '+441534123456', objective: ' ', sneaky: 1 } as never));
      expect(pre.problems).to.deep.equal(e.problems);
    });

    it('rejects the same Idempotency-Key with another body with 422 idempotency_key_reused', async () => {
      await svc.placeCall(ok, { idempotencyKey: 'k1' });
      const e = await apiError(svc.placeCall({ ...ok, objective: 'Something else entirely, please.' }, { idempotencyKey: 'k1' }));
      expect([e.status, e.token]).to.deep.equal([422, 'idempotency_key_reused']);
      expect(await callRows()).to.have.length(1);
    });

    it('reports 429 rate_limited with Retry-After, Remaining and Reset when the window is spent', async () => {
      const bob = await srv.tenant({ rateLimit: 1 });
      const bobSvc = new SvcClient({ apiKey: bob.key, baseUrl: srv.baseUrl, fetch: rec.fetch });
      await bobSvc.placeCall(ok);
      const e = await apiError(bobSvc.placeCall(ok));
      expect([e.status, e.token]).to.deep.equal([429, 'rate_limited']);
      expect(e.rateLimit).to.deep.equal({ limit: 1, remaining: 0, resetSec: 30, retryAfterSec: 30 });
    });

    it('reports 429 over_minute_cap when the plan is used up', async () => {
      const bob = await srv.tenant({ planMinutes: 0 });
      const e = await apiError(new SvcClient({ apiKey: bob.key, baseUrl: srv.baseUrl, fetch: rec.fetch }).placeCall(ok));
      expect([e.status, e.token]).to.deep.equal([429, 'over_minute_cap']);
      expect(e.rateLimit.retryAfterSec).to.equal(Math.ceil((Date.UTC(2026, 11, 1) - srv.clock.now()) / 1000));
    });
  });

  describe('getCall, listCalls, getCallRecording', () => {
    it('reads back a placed call', async () => {
      const { callId } = await svc.placeCall(ok);
      const call = await svc.getCall(callId);
      expect(call).to.include({ id: callId, status: 'queued', to: ok.to, objective: ok.objective, language: 'en-US', languageSource: 'explicit' });
    });

    it("answers another key's call with SvcApiError 404 not_found", async () => {
      const bob = await srv.tenant();
      const row = await insertTestCall(srv.deps.store, bob);
      const e = await apiError(svc.getCall(row.id));
      expect([e.status, e.token]).to.deep.equal([404, 'not_found']);
      expect(e.rateLimit).to.deep.equal({ limit: 10, remaining: 10, resetSec: 30, retryAfterSec: null });
    });

    it('lists the calls of the key, most recent first, honouring limit', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await insertTestCall(srv.deps.store, alice, { created_at: 1000 + i })).id);
      expect((await svc.listCalls()).calls.map((c) => c.id)).to.deep.equal([...ids].reverse());
      expect((await svc.listCalls({ limit: 2 })).calls.map((c) => c.id)).to.deep.equal([ids[2], ids[1]]);
      expect(rec.sent[1].path).to.equal('/v1/agent/calls?limit=2');
    });

    it('pages with the cursor and filters, and reads the statistics and settings', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await insertTestCall(srv.deps.store, alice, { created_at: 1000 + i, status: i === 1 ? 'failed' : 'completed' })).id);
      const first = await svc.listCalls({ limit: 1, status: 'completed' });
      expect(first.calls.map((c) => c.id)).to.deep.equal([ids[2]]);
      const next = await svc.listCalls({ limit: 1, status: 'completed', cursor: first.nextCursor! });
      expect([next.calls.map((c) => c.id), next.nextCursor]).to.deep.equal([[ids[0]], null]);
      expect(rec.sent.at(-1)!.path).to.equal(`/v1/agent/calls?limit=1&status=completed&cursor=${first.nextCursor}`);
      const stats = await svc.getStats({ createdFrom: '1970-01-01T00:00:00Z', createdTo: '1970-01-02T00:00:00Z' });
      expect([stats.calls, stats.byStatus.completed, stats.byStatus.failed]).to.deep.equal([3, 2, 1]);
      expect(rec.sent.at(-1)!.path).to.equal('/v1/agent/stats?createdFrom=1970-01-01T00%3A00%3A00Z&createdTo=1970-01-02T00%3A00%3A00Z');
      const settings = await svc.getSettings();
      expect(settings.defaultVoice).to.equal('alloy');
      expect(settings.webhookSecretFingerprint).to.match(/^[0-9a-f]{8}$/);
    });

    it('passes 400 invalid_limit through for a limit above 100', async () => {
      const e = await apiError(svc.listCalls({ limit: 101 }));
      expect([e.status, e.token]).to.deep.equal([400, 'invalid_limit']);
    });

    it('downloads a recording whole and by byte range', async () => {
      mkdirSync(join(dataDir, 'recordings'), { recursive: true });
      const bytes = Buffer.from('RIFF....WAVEfmt sixteen bytes of audio');
      writeFileSync(join(dataDir, 'recordings', 'sdk.wav'), bytes);
      const row = await insertTestCall(srv.deps.store, alice, { recording_path: 'recordings/sdk.wav' });
      const whole = await svc.getCallRecording(row.id);
      expect(whole.status).to.equal(200);
      expect(whole.audio.type).to.equal('audio/wav');
      expect(Buffer.from(await whole.audio.arrayBuffer())).to.deep.equal(bytes);
      const part = await svc.getCallRecording(row.id, { range: 'bytes=0-3' });
      expect([part.status, part.contentRange]).to.deep.equal([206, `bytes 0-3/${bytes.length}`]);
      expect(Buffer.from(await part.audio.arrayBuffer()).toString()).to.equal('RIFF');
    });

    it('downloads the two-channel rendition with channels: 2, sending ?channels=2', async () => {
      mkdirSync(join(dataDir, 'recordings'), { recursive: true });
      writeFileSync(join(dataDir, 'recordings', 'sdk.wav'), Buffer.from('RIFF one channel'));
      writeFileSync(join(dataDir, 'recordings', 'sdk.2ch.wav'), Buffer.from('RIFF two channels'));
      const row = await insertTestCall(srv.deps.store, alice, { recording_path: 'recordings/sdk.wav' });
      const two = await svc.getCallRecording(row.id, { channels: 2 });
      expect(rec.sent.at(-1)!.path).to.equal(`/v1/agent/calls/${row.id}/recording?channels=2`);
      expect(Buffer.from(await two.audio.arrayBuffer()).toString()).to.equal('RIFF two channels');
      const one = await svc.getCallRecording(row.id);
      expect(rec.sent.at(-1)!.path).to.equal(`/v1/agent/calls/${row.id}/recording`);
      expect(Buffer.from(await one.audio.arrayBuffer()).toString()).to.equal('RIFF one channel');
    });

    it('answers a call without a recording with 404 not_found', async () => {
      const row = await insertTestCall(srv.deps.store, alice);
      const e = await apiError(svc.getCallRecording(row.id));
      expect([e.status, e.token]).to.deep.equal([404, 'not_found']);
    });
  });

  describe('errors that are not about the call', () => {
    it('rejects an unknown key with SvcApiError 401 unauthorized, carrying the address window', async () => {
      const stranger = new SvcClient({ apiKey: 'svc_ak_notarealkeynotarealkey', baseUrl: srv.baseUrl, fetch: rec.fetch });
      for (const attempt of [() => stranger.getCall(crypto.randomUUID()), () => stranger.listCalls(), () => stranger.placeCall(ok)]) {
        const e = await apiError(attempt());
        expect([e.status, e.token]).to.deep.equal([401, 'unauthorized']);
        expect(e.rateLimit.limit).to.equal(60);
        expect(e.message).to.not.include('notarealkey');
      }
      expect(await callRows()).to.have.length(0);
    });

    it('turns a refused connection into SvcNetworkError with the fetch error as cause', async () => {
      const port = new URL(srv.baseUrl).port;
      await srv.close();
      srv = await startServer(kind); // afterEach closes this one
      const down = new SvcClient({ apiKey: alice.key, baseUrl: `http://127.0.0.1:${port}` });
      const e = await down.getCall(crypto.randomUUID()).catch((err: unknown) => err);
      expect(e).to.be.instanceOf(SvcNetworkError);
      expect((e as SvcNetworkError).message).to.match(/^The request to the service failed before any answer: fetch failed/);
      expect((e as SvcNetworkError).cause).to.be.instanceOf(TypeError);
      expect((e as SvcNetworkError).message).to.not.include(alice.key);
    });

    it('rejects with the AbortError of an aborted signal, not a SvcNetworkError', async () => {
      const controller = new AbortController();
      controller.abort();
      const e = await svc.listCalls({ signal: controller.signal }).catch((err: unknown) => err);
      expect((e as Error).name).to.equal('AbortError');
      expect(e).to.not.be.instanceOf(SvcNetworkError);
    });

    it('refuses to be built without an API key', () => {
      expect(() => new SvcClient({ apiKey: '' })).to.throw(TypeError, 'SvcClient needs an API key');
    });
  });
});
