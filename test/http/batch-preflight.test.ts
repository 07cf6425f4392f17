// preflightBatch (POST /v1/agent/batches/preflight) over HTTP, on both stores: createBatch's checks with nothing
// created. Calls createBatch would refuse are answered 200 with exactly the `errors` of its 400 invalid_batch (the
// account's list merged in by index); a batch it would create is valid; a batch whose own fields are bad gets the
// 400 createBatch gives; and a preflight counts once against the key's calls window, as a batch does.
import { expect } from 'chai';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';

const objective = 'Ask whether the shop is open on Sunday.';
const numbers = (n: number, from = 2000) => Array.from({ length: n }, (_, i) => ({ to: `+1415555${String(from + i).padStart(4, '0')}` }));

forEachStore('preflightBatch over HTTP', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant({ rateLimit: 10 });
  });
  afterEach(() => srv.close());

  const preflight = (body: unknown, tenant = alice) => tenant.api.post('/v1/agent/batches/preflight', { body });
  const create = (body: unknown, tenant = alice) => tenant.api.post('/v1/agent/batches', { body });
  const created = async () => [
    (await srv.deps.store.db.selectFrom('batches').selectAll().execute()).length,
    (await srv.deps.store.db.selectFrom('batch_items').selectAll().execute()).length,
    (await srv.deps.store.db.selectFrom('calls').selectAll().execute()).length,
  ];

  it("answers 200 with every bad call's error by index, exactly as createBatch's invalid_batch names them, and creates nothing", async () => {
    const calls: unknown[] = numbers(5);
    calls[1] = { to: '+1415' };
    calls[3] = { to: '+14155550123', voice: 'robot' };
    const checked = await preflight({ defaults: { objective }, calls });
    expect(checked.status).to.equal(200);
    expect(await created()).to.deep.equal([0, 0, 0]);
    const refused = await create({ defaults: { objective }, calls });
    expect(refused.status).to.equal(400);
    expect(refused.body.errors.map((e: { index: number }) => e.index)).to.deep.equal([1, 3]);
    expect(checked.body).to.deep.equal({ valid: false, total: 5, errors: refused.body.errors });
  });

  it("merges the account's do-not-call list and caller ids in by index, as createBatch does", async () => {
    await alice.api.post('/v1/agent/do-not-call', { body: { number: '+14155552001' } });
    const calls: unknown[] = numbers(4);
    calls[2] = { to: '+1415' };
    calls[3] = { to: '+14155552003', callerId: '+14155559999' };
    const checked = await preflight({ defaults: { objective }, calls });
    const refused = await create({ defaults: { objective }, calls });
    expect(checked.status).to.equal(200);
    expect(checked.body.errors.map((e: { index: number; error: string }) => [e.index, e.error])).to.deep.equal([
      [1, 'destination_opted_out'],
      [2, 'invalid_number'],
      [3, 'caller_id_not_owned'],
    ]);
    expect(checked.body).to.deep.equal({ valid: false, total: 4, errors: refused.body.errors });
  });

  it('answers a batch createBatch would create with valid and no errors, and creates nothing', async () => {
    const body = { defaults: { objective }, calls: numbers(3) };
    const checked = await preflight(body);
    expect([checked.status, checked.body]).to.deep.equal([200, { valid: true, total: 3, errors: [] }]);
    expect(await created()).to.deep.equal([0, 0, 0]);
    expect((await create(body)).status).to.equal(202);
  });

  for (const [what, body, token] of [
    ['no calls', { calls: [] }, 'invalid_calls'],
    ['maxConcurrency 0', { calls: numbers(1), maxConcurrency: 0 }, 'invalid_max_concurrency'],
    ['an unknown field', { calls: numbers(1), concurrency: 3 }, 'unknown_field'],
    ['a stopWhen without count', { calls: numbers(1), stopWhen: { field: 'open_sunday', equals: true } }, 'invalid_stop_when'],
    ['a stopWhen on a field no call requests', { calls: numbers(1), stopWhen: { field: 'open_sunday', equals: true, count: 1 } }, 'invalid_stop_when'],
  ] as const) {
    it(`refuses ${what} with the 400 ${token} createBatch gives`, async () => {
      const checked = await preflight({ defaults: { objective }, ...body });
      const refused = await create({ defaults: { objective }, ...body });
      expect([checked.status, checked.body]).to.deep.equal([400, refused.body]);
      expect(checked.body.error).to.equal(token);
    });
  }

  it('refuses a body that is not JSON with 400 invalid_json', async () => {
    const res = await fetch(`${srv.baseUrl}/v1/agent/batches/preflight`, { method: 'POST', headers: { authorization: `Bearer ${alice.key}`, 'content-type': 'application/json' }, body: '{' });
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: string }).error).to.equal('invalid_json');
  });

  it("counts once against the key's calls window, valid or not, and is refused 429 when the window is full", async () => {
    const bob = await srv.tenant({ rateLimit: 2 });
    expect((await preflight({ defaults: { objective }, calls: numbers(2) }, bob)).status).to.equal(200);
    expect((await preflight({ defaults: { objective }, calls: [{ to: '+1415' }] }, bob)).status).to.equal(200);
    const full = await preflight({ defaults: { objective }, calls: numbers(1) }, bob);
    expect([full.status, full.body.error]).to.deep.equal([429, 'rate_limited']);
  });

  it('needs a key: 401 without one', async () => {
    const res = await fetch(`${srv.baseUrl}/v1/agent/batches/preflight`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ calls: numbers(1) }) });
    expect(res.status).to.equal(401);
  });
});
