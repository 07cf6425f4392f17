// A batch's calls checked all at once (all-or-nothing validation), on both stores: every bad call is
// named by its index with exactly the error and message placeCall answers the same call with (asked of the running
// service in the same test), the batch's defaults are overlaid by each call's own fields, and a call with startAt is
// refused. Nothing is written by the check.
import { expect } from 'chai';
import { checkBatch, type BatchCheckPorts } from '../../server/src/batches/check-batch.js';
import { DEFAULT_AGENT_CATALOGUE } from '../../server/src/placement/agent-catalogue.js';
import { loadDocument } from '../../server/src/contract/openapi-document.js';
import { compileBodyCheck } from '../../server/src/contract/request-validator.js';
import { ajvFor, formatReasons } from '../../server/src/contract/schema-ajv.js';
import type { ApiKeyRow } from '../../server/src/accounts/accounts-repo.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';

const doc = loadDocument();
const options = { allowPrivateWebhooks: false };
const checkCall = compileBodyCheck(doc, ajvFor(doc, options), ['components', 'schemas', 'PlaceCallRequest'], formatReasons(options));

forEachStore('checking a batch of calls', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  let key: ApiKeyRow;
  let ports: BatchCheckPorts;
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant({ rateLimit: 1000 });
    key = await srv.deps.store.db.selectFrom('api_keys').selectAll().where('id', '=', alice.keyId).executeTakeFirstOrThrow();
    ports = { catalogue: DEFAULT_AGENT_CATALOGUE, irsf: srv.deps.irsf, checkCall };
  });
  afterEach(() => srv.close());

  const objective = 'Ask whether the shop is open on Sunday.';
  const check = (calls: unknown[], defaults?: Record<string, unknown>) => checkBatch(ports, srv.deps.store.db, key, calls, defaults, srv.clock.now());

  it('passes good calls in order, each the defaults overlaid by its own fields, with the caller id it dials from', async () => {
    const result = await check([{ to: '+14155550123' }, { to: '+14155550124', voice: 'sage', objective: 'Ask for the manager.' }], { objective, voice: 'coral' });
    expect(result.ok).to.equal(true);
    if (!result.ok) return;
    expect(result.calls.map((c) => [c.index, c.call.to, c.call.objective, c.call.voice, c.call.callerId])).to.deep.equal([
      [0, '+14155550123', objective, 'coral', alice.callerId],
      [1, '+14155550124', 'Ask for the manager.', 'sage', alice.callerId],
    ]);
  });

  it("names every bad call by index with exactly placeCall's error for it, and only the bad ones", async () => {
    await alice.api.post('/v1/agent/do-not-call', { body: { number: '+14155550199' } });
    const bad: [number, Record<string, unknown>][] = [
      [1, { to: '+1415' }],
      [2, { to: '+19005550123' }],
      [4, { to: '+14155550123', webhook_url: 'https://example.com/h' }],
      [5, { to: '+14155550123', voice: 'robot' }],
      [6, { to: '+14155550199' }],
      [7, { to: '+14155550123', callerId: '+14155550177' }],
      [8, { to: '+14155550123', fields: [{ name: 'a' }, { name: 'a' }] }],
      [9, { to: '+14155550123', callingWindow: { start: '17:00', end: '09:00' } }],
    ];
    const calls: unknown[] = Array.from({ length: 10 }, () => ({ to: '+14155550123' }));
    for (const [i, call] of bad) calls[i] = call;
    const result = await check(calls, { objective });
    expect(result.ok).to.equal(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.index)).to.deep.equal(bad.map(([i]) => i));
    for (const [i, call] of bad) {
      const res = await alice.api.post('/v1/agent/calls', { body: { objective, ...call } });
      expect(res.status, JSON.stringify(call)).to.equal(400);
      expect(
        result.errors.find((e) => e.index === i),
        JSON.stringify(call),
      ).to.deep.equal({ index: i, error: res.body.error, message: res.body.message });
    }
    expect(await srv.deps.store.db.selectFrom('calls').select('id').execute()).to.have.length(0);
  });

  it('refuses a call that is not an object, and a call or defaults with startAt (a batch starts as one)', async () => {
    const result = await check(['+14155550123', { to: '+14155550123', startAt: '2026-12-01T09:00:00Z' }, { to: '+14155550123' }], { objective });
    expect(result).to.deep.equal({
      ok: false,
      errors: [
        { index: 0, error: 'invalid_body', message: 'Each call must be a JSON object, as placeCall takes.' },
        { index: 1, error: 'invalid_start_at', message: "A batch's calls start with the batch: give `startAt` on the batch, not on its calls." },
      ],
    });
    const viaDefaults = await check([{ to: '+14155550123' }], { objective, startAt: '2026-12-01T09:00:00Z' });
    expect(viaDefaults.ok).to.equal(false);
  });

  it("reads only this account's do-not-call list and numbers", async () => {
    const bob = await srv.tenant({ callerId: '+14155550166' });
    await bob.api.post('/v1/agent/do-not-call', { body: { number: '+14155550123' } });
    const result = await check([{ to: '+14155550123' }, { to: '+14155550124', callerId: '+14155550166' }], { objective });
    expect(result).to.deep.equal({
      ok: false,
      errors: [{ index: 1, error: 'caller_id_not_owned', message: '+14155550166 is not a number on this account.' }],
    });
  });

  it('checks ten thousand calls, reading the store in chunks', async () => {
    const calls = Array.from({ length: 10_000 }, (_, i) => ({ to: `+1415${String(2000000 + i).padStart(7, '0')}` }));
    await alice.api.post('/v1/agent/do-not-call', { body: { number: calls[9_999].to } });
    const result = await check(calls, { objective, language: 'en-US' });
    expect(result.ok).to.equal(false);
    if (result.ok) return;
    expect(result.errors.map((e) => [e.index, e.error])).to.deep.equal([[9_999, 'destination_opted_out']]);
  });
});
