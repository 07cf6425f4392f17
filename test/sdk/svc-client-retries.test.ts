import { expect } from 'chai';
import { SvcApiError, SvcClient, SvcNetworkError, type RetryOptions } from '../../sdk/src/index.js';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { realSleep } from '../../sdk/src/retry-policy.js';
import { apiError, recordingFetch, type Fault, type RecordingFetch } from './sdk-fetch.js';

const ok = { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday and until what time.', language: 'en-US' };
const storeError = { status: 503, body: { error: 'store_error', message: 'The store is busy.' }, headers: { 'retry-after': '1' } };

forEachStore('SDK retries against a live server', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  let rec: RecordingFetch;
  let slept: number[];
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant();
    slept = [];
  });
  afterEach(() => srv.close());

  /** A client whose sleeps are recorded and move the server's clock instead of waiting. */
  function client(faults: Record<number, Fault>, retries: RetryOptions | false = { maxAttempts: 3 }, tenant = alice): SvcClient {
    rec = recordingFetch(faults);
    const sleep = async (ms: number) => {
      slept.push(ms);
      srv.clock.advance(ms);
    };
    return new SvcClient({ apiKey: tenant.key, baseUrl: srv.baseUrl, fetch: rec.fetch, retries, sleep, random: () => 1 });
  }
  const callIds = async () => (await srv.deps.store.db.selectFrom('calls').select('id').execute()).map((r) => r.id);
  const keysSent = () => rec.sent.map((r) => r.headers.get('idempotency-key'));

  it('places exactly one call when a 503 comes before a 202, waiting Retry-After and resending the same Idempotency-Key', async () => {
    const svc = client({ 1: { kind: 'answer', ...storeError } });
    const placed = await svc.placeCall(ok);
    expect(await callIds()).to.deep.equal([placed.callId]);
    expect(slept).to.deep.equal([1000]);
    expect(rec.sent).to.have.length(2);
    expect(keysSent()[0]).to.be.a('string').and.equal(keysSent()[1]);
  });

  it('places exactly one call when the server placed it but the client saw a 503: the retry is replayed', async () => {
    const svc = client({ 1: { kind: 'lose-answer', ...storeError } });
    const placed = await svc.placeCall(ok);
    expect(await callIds()).to.deep.equal([placed.callId]);
    expect(rec.sent).to.have.length(2);
    expect(keysSent()[0]).to.equal(keysSent()[1]);
  });

  it('places exactly one call when the connection broke after the server placed it', async () => {
    const svc = client({ 1: { kind: 'network-after' } });
    const placed = await svc.placeCall(ok, { idempotencyKey: 'job-7' });
    expect(await callIds()).to.deep.equal([placed.callId]);
    expect(keysSent()).to.deep.equal(['job-7', 'job-7']);
    expect(slept).to.deep.equal([500]); // no Retry-After: baseDelayMs, the random half at its maximum
  });

  it('backs off exponentially without Retry-After: 502, then a refused connection, then success', async () => {
    const svc = client({ 1: { kind: 'answer', status: 502, body: { error: 'placement_failed' } }, 2: { kind: 'network-before' } });
    await svc.placeCall(ok);
    expect(slept).to.deep.equal([500, 1000]);
    expect(await callIds()).to.have.length(1);
  });

  it('uses equal jitter: half the backoff fixed, half random', async () => {
    rec = recordingFetch({ 1: { kind: 'answer', status: 502, body: { error: 'placement_failed' } } });
    const svc = new SvcClient({ apiKey: alice.key, baseUrl: srv.baseUrl, fetch: rec.fetch, retries: { baseDelayMs: 800 }, random: () => 0, sleep: async (ms) => void slept.push(ms) });
    await svc.listCalls();
    expect(slept).to.deep.equal([400]);
  });

  it('waits out 429 rate_limited for Retry-After seconds, then places the call', async () => {
    const bob = await srv.tenant({ rateLimit: 1 });
    const svc = client({}, { maxAttempts: 2 }, bob);
    await svc.placeCall(ok);
    await svc.placeCall(ok);
    expect(slept).to.deep.equal([30_000]);
    expect(rec.sent.map((r) => r.method)).to.deep.equal(['POST', 'POST', 'POST']);
    expect(await callIds()).to.have.length(2);
  });

  it('throws 429 rate_limited at once when Retry-After is longer than maxDelayMs', async () => {
    const bob = await srv.tenant({ rateLimit: 1 });
    const svc = client({}, { maxAttempts: 5, maxDelayMs: 10_000 }, bob);
    await svc.placeCall(ok);
    const e = await apiError(svc.placeCall(ok));
    expect([e.status, e.token, e.rateLimit.retryAfterSec]).to.deep.equal([429, 'rate_limited', 30]);
    expect(slept).to.deep.equal([]);
  });

  it('never retries 429 over_minute_cap', async () => {
    const bob = await srv.tenant({ planMinutes: 0 });
    const e = await apiError(client({}, { maxAttempts: 3 }, bob).placeCall(ok));
    expect(e.token).to.equal('over_minute_cap');
    expect(rec.sent).to.have.length(1);
  });

  it('never retries a 400', async () => {
    const e = await apiError(client({}).placeCall({ ...ok, to: '+441534123456' }));
    expect(e.token).to.equal('destination_blocked');
    expect(rec.sent).to.have.length(1);
  });

  it('retries a placement answered 409 idempotency_key_in_use, but not a read', async () => {
    const inUse = { kind: 'answer' as const, status: 409, body: { error: 'idempotency_key_in_use' } };
    await client({ 1: inUse }).placeCall(ok);
    expect(rec.sent).to.have.length(2);
    const e = await apiError(client({ 1: inUse }).listCalls());
    expect([e.status, e.token]).to.deep.equal([409, 'idempotency_key_in_use']);
  });

  it('gives up after maxAttempts and throws the last error', async () => {
    const svc = client({ 1: { kind: 'answer', ...storeError }, 2: { kind: 'answer', ...storeError }, 3: { kind: 'answer', ...storeError } });
    const e = await apiError(svc.placeCall(ok));
    expect([e.status, e.token, e.message]).to.deep.equal([503, 'store_error', 'The store is busy.']);
    expect(slept).to.deep.equal([1000, 1000]);
    expect(rec.sent).to.have.length(3);
    expect(await callIds()).to.deep.equal([]);
  });

  it('throws SvcNetworkError after the last network failure', async () => {
    const e = await client({ 1: { kind: 'network-before' }, 2: { kind: 'network-before' } }, { maxAttempts: 2 })
      .getCall(crypto.randomUUID())
      .catch((err: unknown) => err);
    expect(e).to.be.instanceOf(SvcNetworkError);
    expect(rec.sent).to.have.length(2);
  });

  it('does not retry at all unless retries are given', async () => {
    const e = await apiError(client({ 1: { kind: 'answer', ...storeError } }, false).placeCall(ok));
    expect(e).to.be.instanceOf(SvcApiError);
    expect([e.status, rec.sent.length, slept.length]).to.deep.equal([503, 1, 0]);
  });

  it('stops waiting between retries when the signal aborts', async () => {
    const controller = new AbortController();
    rec = recordingFetch({ 1: { kind: 'answer', ...storeError } });
    // The real sleep, with the abort arriving while it waits out the 1 s Retry-After.
    const sleep = (ms: number, signal?: AbortSignal) => {
      slept.push(ms);
      const waiting = realSleep(ms, signal);
      controller.abort();
      return waiting;
    };
    const svc = new SvcClient({ apiKey: alice.key, baseUrl: srv.baseUrl, fetch: rec.fetch, retries: { maxAttempts: 3 }, sleep });
    const e = await svc.placeCall(ok, { signal: controller.signal }).catch((err: unknown) => err);
    expect(slept).to.deep.equal([1000]);
    expect((e as Error).name).to.equal('AbortError');
    expect(rec.sent).to.have.length(1);
    expect(await callIds()).to.deep.equal([]);
  });
});
