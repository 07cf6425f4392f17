import { expect } from 'chai';
import { SvcClient, SvcTimeoutError, TERMINAL_STATUSES } from '../../sdk/src/index.js';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { startEngineServer } from '../support/engine.js';
import { apiError, recordingFetch, type Fault, type RecordingFetch } from './sdk-fetch.js';

const ok = { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday and until what time.', language: 'en-US' };

// The call engine is built separately; these tests move a call to its terminal status by writing the row.
forEachStore('waitForCall against a live server', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  let rec: RecordingFetch;
  let slept: number[];
  let onSleep: (n: number) => unknown;
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant();
    slept = [];
    onSleep = () => {};
  });
  afterEach(() => srv.close());

  /** A client on the server's clock: each sleep advances it and then runs the test's hook. */
  function client(tenant = alice, faults: Record<number, Fault> = {}): SvcClient {
    rec = recordingFetch(faults);
    const sleep = async (ms: number) => {
      slept.push(ms);
      srv.clock.advance(ms);
      await onSleep(slept.length);
    };
    return new SvcClient({ apiKey: tenant.key, baseUrl: srv.baseUrl, fetch: rec.fetch, sleep, now: srv.clock.now });
  }
  const finish = (id: string, status: string) =>
    srv.deps.store.db.updateTable('calls').set({ status, summary: 'Open until five.', ended_at: srv.clock.now(), duration_sec: 42 }).where('id', '=', id).execute();
  const polls = () => rec.sent.filter((r) => r.method === 'GET').length;

  it('polls every intervalMs until the call is completed, and resolves with the record', async () => {
    const svc = client();
    const { callId } = await svc.placeCall(ok);
    onSleep = (n) => (n === 2 ? finish(callId, 'completed') : undefined);
    const call = await svc.waitForCall(callId, { intervalMs: 1500 });
    expect(call).to.include({ id: callId, status: 'completed', summary: 'Open until five.', durationSec: 42 });
    expect(slept).to.deep.equal([1500, 1500]);
    expect(polls()).to.equal(3);
  });

  for (const status of TERMINAL_STATUSES) {
    it(`stops at the terminal status ${status}`, async () => {
      const svc = client();
      const { callId } = await svc.placeCall(ok);
      await finish(callId, status);
      expect((await svc.waitForCall(callId)).status).to.equal(status);
      expect(slept).to.deep.equal([]);
    });
  }

  it('keeps polling through dialing and in_progress', async () => {
    const svc = client();
    const { callId } = await svc.placeCall(ok);
    onSleep = (n) => finish(callId, ['dialing', 'in_progress', 'no_answer'][n - 1]);
    expect((await svc.waitForCall(callId)).status).to.equal('no_answer');
    expect(slept).to.deep.equal([2000, 2000, 2000]);
  });

  it('waits RateLimit-Reset seconds instead of intervalMs when the window is spent', async () => {
    const bob = await srv.tenant({ rateLimit: 1 });
    const svc = client(bob);
    const { callId } = await svc.placeCall(ok); // the only placement of the window: Remaining 0, Reset 30
    onSleep = (n) => (n === 2 ? finish(callId, 'completed') : undefined);
    await svc.waitForCall(callId, { intervalMs: 1000 });
    expect(slept).to.deep.equal([30_000, 1000]); // after the reset the window is fresh again
  });

  it('rejects with SvcTimeoutError after timeoutMs, polling a last time at the deadline', async () => {
    const svc = client();
    const { callId } = await svc.placeCall(ok);
    const e = await svc.waitForCall(callId, { timeoutMs: 5000, intervalMs: 2000 }).catch((err: unknown) => err);
    expect(e).to.be.instanceOf(SvcTimeoutError);
    expect(e).to.include({ callId, timeoutMs: 5000, lastStatus: 'queued' });
    expect((e as Error).message).to.equal(`Call ${callId} did not reach a terminal status within 5000 ms (last status: queued). Wait longer, or subscribe to webhooks instead of polling.`);
    expect(slept).to.deep.equal([2000, 2000, 1000]);
    expect(polls()).to.equal(4);
  });

  it('rejects with the signal’s reason when aborted between polls', async () => {
    const svc = client();
    const { callId } = await svc.placeCall(ok);
    const controller = new AbortController();
    onSleep = () => controller.abort(new Error('shutting down'));
    const e = await svc.waitForCall(callId, { signal: controller.signal }).catch((err: unknown) => err);
    expect((e as Error).message).to.equal('shutting down');
    expect(polls()).to.equal(1);
  });

  it('rejects at once with 404 not_found for a call of another key', async () => {
    const { callId } = await client().placeCall(ok);
    const bob = await srv.tenant();
    const e = await apiError(client(bob).waitForCall(callId));
    expect([e.status, e.token]).to.deep.equal([404, 'not_found']);
    expect(slept).to.deep.equal([]);
  });

  it('rides out a 503 while polling, waiting its Retry-After at least', async () => {
    const svc = client(alice, { 2: { kind: 'answer', status: 503, body: { error: 'store_error' }, headers: { 'retry-after': '5' } } });
    const { callId } = await svc.placeCall(ok);
    onSleep = () => finish(callId, 'voicemail');
    expect((await svc.waitForCall(callId, { intervalMs: 1000 })).status).to.equal('voicemail');
    expect(slept).to.deep.equal([5000]);
  });
});

describe('waitForCall with the call engine [sqlite]', () => {
  it('follows a sandbox call through the engine to completed, with its extracted fields', async () => {
    const srv = await startEngineServer('sqlite');
    try {
      const alice = await srv.tenant();
      let callId = '';
      const slept: number[] = [];
      // Each pause steps the engine on the test clock until the call has ended, as if the time had passed.
      const sleep = async (ms: number) => {
        slept.push(ms);
        await srv.drive(callId);
      };
      const svc = new SvcClient({ apiKey: alice.key, baseUrl: srv.baseUrl, fetch: recordingFetch().fetch, sleep, now: srv.clock.now });
      callId = (await svc.placeCall({ ...ok, fields: [{ name: 'open_sunday', type: 'boolean', description: 'whether the shop is open on Sunday' }] })).callId;
      const call = await svc.waitForCall(callId);
      expect(call).to.include({ id: callId, status: 'completed', error: null });
      expect(Object.keys(call.extracted!)).to.deep.equal(['open_sunday']);
      expect(call.summary).to.be.a('string').and.not.equal('');
      expect(slept).to.deep.equal([2000]);
    } finally {
      await srv.close();
    }
  });
});
