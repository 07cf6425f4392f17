// Every call ends, even one whose steps fail every time: after a bounded number of failed steps in a row it ends
// failed (engine_error), with its terminal event, its connected time billed and its reserved minute released.
import { expect } from 'chai';
import type { LeasedUpdate, Store } from '../../server/src/store/store.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';
import { insertTestCall } from '../support/calls.js';

/** Postgres' answer to a text holding U+0000, the fault that makes every step of such a call fail. */
const nulFault = () => Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });

/** Makes every step's write of the call fail (a step writes the line's state, or the transcript): not the end's. */
function failStepsOf(store: Store, callId: string): { restore(): void; failed: number } {
  const real = store.updateLeased.bind(store);
  const fault = { failed: 0, restore: () => void (store.updateLeased = real) };
  store.updateLeased = (async (ex: unknown, table: never, owner: string, updates: readonly LeasedUpdate[]) => {
    if (updates.some((u) => u.key === callId && ('engine_state' in u.set || 'transcript' in u.set))) {
      fault.failed++;
      throw nulFault();
    }
    return real(ex as never, table, owner, updates);
  }) as Store['updateLeased'];
  return fault;
}

forEachStore('a call whose steps keep failing', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startEngineServer(kind, {});
    alice = await srv.tenant({ planMinutes: 100 });
  });
  afterEach(() => srv.close());

  const eventsOf = async (id: string) => (await srv.deps.store.db.selectFrom('webhook_events').select('event').where('call_id', '=', id).execute()).map((e) => e.event);
  const inFlight = async () =>
    Number((await srv.deps.store.db.selectFrom('account_usage').select('calls_in_flight').where('account_id', '=', alice.accountId).executeTakeFirstOrThrow()).calls_in_flight);

  /** Steps the call until it is terminal, moving the clock to each time it is due; returns how many steps it took. */
  async function stepUntilEnded(id: string): Promise<number> {
    for (let steps = 1; steps <= 30; steps++) {
      await srv.engine.tick();
      const r = await srv.row(id);
      if (r.next_run_at === null) return steps;
      if (r.next_run_at > srv.clock.now()) srv.clock.ms = r.next_run_at;
    }
    throw new Error('the call did not end');
  }

  it('ends a live call failed, engine_error, once its steps have failed eight times in a row, with one terminal event', async () => {
    const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.', webhookUrl: 'https://hooks.example.com/h' } });
    const id: string = res.body.callId;
    for (let i = 0; i < 10 && (await srv.row(id)).status !== 'in_progress'; i++) {
      await srv.engine.tick();
      srv.clock.ms = Math.max(srv.clock.ms, (await srv.row(id)).next_run_at ?? srv.clock.ms);
    }
    const live = await srv.row(id);
    expect(live.status).to.equal('in_progress');
    expect(await inFlight()).to.equal(1);
    const fault = failStepsOf(srv.deps.store, id);
    await stepUntilEnded(id);
    fault.restore();
    const row = await srv.row(id);
    expect(fault.failed, 'steps tried and failed').to.equal(8);
    expect(row).to.include({ status: 'failed', error: 'engine_error', transcript: null, next_run_at: null, lease_owner: null, failed_steps: 8 });
    // Connected from the answer to the end, as a call cut short is billed; the reserved minute is released.
    expect(row.duration_sec).to.equal((row.ended_at! - live.started_at!) / 1000);
    expect(row.billed_minutes).to.equal(Math.ceil(row.duration_sec! / 60));
    expect(await inFlight()).to.equal(0);
    expect(await eventsOf(id)).to.deep.equal(['call.in_progress', 'call.failed']);
    const call = (await alice.api.get(`/v1/agent/calls/${id}`)).body;
    expect(call).to.include({ status: 'failed', error: 'engine_error', answeredBy: 'human' });
  });

  it('takes about a minute and a half of failing, on a back-off, before it gives a call up', async () => {
    const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' } });
    const id: string = res.body.callId;
    await srv.engine.tick();
    const fault = failStepsOf(srv.deps.store, id);
    const firstFailure = srv.clock.now();
    await stepUntilEnded(id);
    fault.restore();
    const row = await srv.row(id);
    expect(row).to.include({ status: 'failed', error: 'engine_error', duration_sec: 0, billed_minutes: 0, answered_by: null });
    // Waits of 1, 2, 4, 8, 16, 30 and 30 s between the eight tries, each ±20%.
    expect(row.ended_at! - firstFailure).to.be.within(0.8 * 91_000, 1.2 * 91_000);
  });

  it('clears the count once a step gets through, so a call that recovers completes', async () => {
    const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' } });
    const id: string = res.body.callId;
    await srv.engine.tick();
    const fault = failStepsOf(srv.deps.store, id);
    for (let i = 0; i < 3; i++) {
      await srv.engine.tick();
      srv.clock.ms = Math.max(srv.clock.ms, (await srv.row(id)).next_run_at!);
    }
    expect((await srv.row(id)).failed_steps).to.equal(3);
    fault.restore();
    await srv.engine.tick();
    expect((await srv.row(id)).failed_steps).to.equal(0);
    expect(await srv.drive(id)).to.include({ status: 'completed', error: null });
  });

  it(`steps a call whose field description holds U+0000 to its end (${kind === 'postgres' ? 'engine_error: Postgres cannot store the transcript' : 'SQLite stores it'})`, async () => {
    // A row from before text was checked at the door: the scripted agent reads the description out.
    const fields = JSON.stringify([{ name: 'open_sunday', type: 'boolean', description: 'open on\u0000 Sunday' }]);
    const row = await insertTestCall(srv.deps.store, alice, {
      status: 'queued',
      fields_json: fields,
      next_run_at: srv.clock.now(),
      summary: null,
      transcript: null,
      extracted_json: null,
      started_at: null,
      ended_at: null,
      duration_sec: null,
      billed_minutes: null,
      webhook_url: 'https://hooks.example.com/h',
    });
    await stepUntilEnded(row.id);
    const ended = await srv.row(row.id);
    if (kind === 'postgres') expect(ended).to.include({ status: 'failed', error: 'engine_error', transcript: null });
    else expect(ended).to.include({ status: 'completed', error: null });
    expect((await eventsOf(row.id)).filter((e) => e !== 'call.in_progress')).to.have.length(1);
  });
});
