// hold: how long the agent waits on hold, { maxWaitSec }. Checked at placement (400 invalid_hold, with the spec's
// body, in its place in the order), stored on the call and shown on its record to the key that placed it alone,
// carried by a redial and by a batch's call; without it the record says null and the agent waits up to 600 s.
import { expect } from 'chai';
import { pino } from 'pino';
import { BatchRunner } from '../../server/src/batches/batch-runner.js';
import { DEFAULT_HOLD_MAX_WAIT_SEC, lineBriefOf } from '../../server/src/conversation/conversation.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';
import { fieldNamedIn, refusedFor } from '../support/problems.js';

const ok = { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' };
const NO_ANSWER = '+14155550111';
const MEANING = '`hold` is not `{ "maxWaitSec": an integer from 1 to 86400 }`.';
const refused = (why: string) => refusedFor({ error: 'invalid_hold', message: `${MEANING} (${why})`, field: fieldNamedIn(why) });

forEachStore('placement hold', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startEngineServer(kind);
    alice = await srv.tenant({ rateLimit: 100 });
  });
  afterEach(() => srv.close());

  const place = (body: Record<string, unknown>, tenant = alice) => tenant.api.post('/v1/agent/calls', { body: { ...ok, ...body } });
  const record = async (id: string, tenant = alice) => (await tenant.api.get(`/v1/agent/calls/${id}`)).body;

  it('stores the budget as placed, shows it on the record and gives it to the agent; without it, or with null, the record says null and the agent waits 600 s', async () => {
    for (const maxWaitSec of [1, 90, 86_400]) {
      const res = await place({ hold: { maxWaitSec } });
      expect(res.status, String(maxWaitSec)).to.equal(202);
      const row = await srv.row(res.body.callId);
      expect(row.hold_max_wait_sec).to.equal(maxWaitSec);
      expect((await record(res.body.callId)).hold).to.deep.equal({ maxWaitSec });
      expect(lineBriefOf(row).holdMaxWaitMs).to.equal(maxWaitSec * 1000);
    }
    for (const body of [{}, { hold: null }]) {
      const res = await place(body);
      expect(res.status).to.equal(202);
      const row = await srv.row(res.body.callId);
      expect(row.hold_max_wait_sec).to.equal(null);
      expect(await record(res.body.callId)).to.deep.include({ hold: null, holdSec: null, endReason: null });
      expect(lineBriefOf(row).holdMaxWaitMs).to.equal(DEFAULT_HOLD_MAX_WAIT_SEC * 1000);
    }
    expect(DEFAULT_HOLD_MAX_WAIT_SEC).to.equal(600);
  });

  const invalid: [string, unknown][] = [
    ['no maxWaitSec', {}],
    ['a maxWaitSec of 0', { maxWaitSec: 0 }],
    ['a negative maxWaitSec', { maxWaitSec: -5 }],
    ['a maxWaitSec over a day', { maxWaitSec: 86_401 }],
    ['a maxWaitSec that is not whole', { maxWaitSec: 1.5 }],
    ['a maxWaitSec in a string', { maxWaitSec: '60' }],
    ['another property beside it', { maxWaitSec: 60, music: true }],
    ['a number', 60],
    ['a string', '60'],
    ['an array', [60]],
  ];
  for (const [what, hold] of invalid) {
    it(`refuses a hold with ${what} with 400 invalid_hold, placing nothing`, async () => {
      const res = await place({ hold });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('invalid_hold');
      expect(res.body.message.startsWith(`${MEANING} (`)).to.equal(true);
      expect((await alice.api.get('/v1/agent/calls')).body.calls).to.have.length(0);
    });
  }

  it("words the refusal as the spec's meaning, then what is wrong", async () => {
    expect((await place({ hold: { maxWaitSec: 0 } })).body).to.deep.equal(refused('`hold.maxWaitSec` must be >= 1.'));
    expect((await place({ hold: {} })).body).to.deep.equal(refused("`hold` must have required property 'maxWaitSec'."));
  });

  it('reports it after invalid_tools and before an unknown field', async () => {
    expect((await place({ tools: 'none', hold: 5 })).body.error).to.equal('invalid_tools');
    expect((await place({ hold: 5, holdd: 1 })).body.error).to.equal('invalid_hold');
    expect((await place({ hold: { maxWaitSec: 5 }, holdd: 1 })).body.error).to.equal('unknown_field');
  });

  it("shows the budget to the key that placed the call, and another tenant's key finds no such call", async () => {
    const bob = await srv.tenant();
    const res = await place({ hold: { maxWaitSec: 4321 } });
    const asBob = await bob.api.get(`/v1/agent/calls/${res.body.callId}`);
    expect(asBob.status).to.equal(404);
    expect(JSON.stringify(asBob.body)).not.to.include('4321');
    expect((await bob.api.get('/v1/agent/calls')).body.calls).to.deep.equal([]);
  });

  it('keeps the budget through a call nobody answers and on its redial', async () => {
    const res = await place({ to: NO_ANSWER, hold: { maxWaitSec: 120 }, redial: { onNoAnswer: 1, afterMinutes: 5 } });
    const first = await srv.drive(res.body.callId);
    expect(first.status).to.equal('no_answer');
    expect(await record(first.id)).to.deep.include({ status: 'no_answer', hold: { maxWaitSec: 120 }, holdSec: null, endReason: null });
    expect((await srv.row(first.next_call_id!)).hold_max_wait_sec).to.equal(120);
  });

  it("refuses a batch's call with a bad hold by its index, and gives a good one to the call it releases", async () => {
    const bad = await alice.api.post('/v1/agent/batches', { body: { defaults: { objective: ok.objective }, calls: [{ to: '+14155552000' }, { to: '+14155552001', hold: { maxWaitSec: 0 } }] } });
    expect([bad.status, bad.body.error]).to.deep.equal([400, 'invalid_batch']);
    expect(bad.body.errors.map((e: { index: number; error: string }) => [e.index, e.error])).to.deep.equal([[1, 'invalid_hold']]);
    const good = await alice.api.post('/v1/agent/batches', { body: { defaults: { objective: ok.objective, hold: { maxWaitSec: 45 } }, calls: [{ to: '+14155552000' }] } });
    expect(good.status).to.equal(202);
    await new BatchRunner({ store: srv.deps.store, clock: srv.clock, logger: pino({ level: 'silent' }), leaseMs: 30_000, concurrency: 1, idlePollMs: 1000 }).tick();
    const released = await srv.deps.store.db.selectFrom('calls').select(['hold_max_wait_sec', 'batch_id']).executeTakeFirstOrThrow();
    expect(released).to.deep.equal({ hold_max_wait_sec: 45, batch_id: good.body.batchId });
  });
});
