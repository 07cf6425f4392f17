// Redials on both stores, driven by the clock: a chain of new calls, each created queued as the previous one
// ends, linked both ways, due afterMinutes later, with its own events; the budgets per ending; declined and
// non-transient failures never redialled; a chain stopped by a cancel, by the do-not-call list and by a plan used
// up; the policy checked at placement (400 invalid_redial), and no rate window spent by a redial.
import { expect } from 'chai';
import type { CallRow } from '../../server/src/store/calls-repo.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';
import { insertTestCall } from '../support/calls.js';

const NO_ANSWER = '+14155550111';
const VOICEMAIL = '+14155550112';
const DECLINED = '+14155550113';
const UNREACHABLE = '+14155550114';

forEachStore('redials', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startEngineServer(kind);
    alice = await srv.tenant({ rateLimit: 3 });
  });
  afterEach(() => srv.close());

  const place = async (to: string, redial: unknown, tenant = alice) => {
    const res = await tenant.api.post('/v1/agent/calls', {
      body: { to, objective: 'Ask whether the shop is open on Sunday.', webhookUrl: 'http://127.0.0.1:9/hooks', metadata: { lead: 'L-7' }, redial },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    return res.body.callId as string;
  };
  const record = async (id: string) => (await alice.api.get(`/v1/agent/calls/${id}`)).body;
  const events = async (id: string) =>
    (await srv.deps.store.db.selectFrom('webhook_events').select(['event', 'body']).where('call_id', '=', id).orderBy('created_at').execute()).map((e) => ({
      event: e.event,
      payload: JSON.parse(e.body),
    }));

  /** Drives the chain from `first` to its end; returns each call's row in order. */
  async function chain(first: string): Promise<CallRow[]> {
    const rows: CallRow[] = [];
    let id: string | null = first;
    while (id) {
      const row = await srv.drive(id);
      rows.push(row);
      id = row.next_call_id;
    }
    return rows;
  }

  it('redials a call nobody answers onNoAnswer times, afterMinutes apart, each a new linked call with its own events', async () => {
    const first = await place(NO_ANSWER, { onNoAnswer: 2, afterMinutes: 30 });
    const rows = await chain(first);
    expect(rows.map((r) => r.status)).to.deep.equal(['no_answer', 'no_answer', 'no_answer']);
    expect(rows.map((r) => r.previous_call_id)).to.deep.equal([null, rows[0].id, rows[1].id]);
    expect(rows.map((r) => r.next_call_id)).to.deep.equal([rows[1].id, rows[2].id, null]);
    for (const i of [1, 2]) {
      // Created queued the moment the previous one ended, due 30 minutes later, dialled then.
      expect(rows[i].created_at).to.equal(rows[i - 1].ended_at);
      expect(rows[i].scheduled_at).to.equal(rows[i - 1].ended_at! + 30 * 60_000);
      expect(rows[i].dial_attempted_at).to.equal(rows[i].scheduled_at);
      expect(await srv.dials(rows[i].id)).to.equal(1);
    }
    const second = await record(rows[1].id);
    expect(second).to.deep.include({ previousCallId: rows[0].id, nextCallId: rows[2].id, metadata: { lead: 'L-7' } });
    const firstEvents = await events(rows[0].id);
    expect(firstEvents.map((e) => e.event)).to.deep.equal(['call.no_answer']);
    expect(firstEvents[0].payload.nextCallId).to.equal(rows[1].id);
    expect((await events(rows[2].id))[0].payload.nextCallId).to.equal(null);
    // Redials spend no rate window: the key's window of 3 has the one placement in it.
    const window = await srv.deps.store.db.selectFrom('rate_windows').selectAll().where('bucket', '=', `key:${alice.keyId}`).executeTakeFirstOrThrow();
    expect(Number(window.count)).to.equal(1);
  });

  it('shows the coming redial at once on the ended call, so it can be canceled before it dials, which ends the chain', async () => {
    const first = await place(NO_ANSWER, { onNoAnswer: 3, afterMinutes: 60 });
    const ended = await srv.drive(first);
    const next = ended.next_call_id!;
    expect(await record(next)).to.deep.include({ status: 'queued', previousCallId: first, scheduledAt: new Date(ended.ended_at! + 3600_000).toISOString() });
    const canceled = await alice.api.post(`/v1/agent/calls/${next}/cancel`);
    expect([canceled.status, canceled.body.status]).to.deep.equal([200, 'canceled']);
    srv.clock.advance(2 * 3600_000);
    await srv.engine.tick();
    expect(await srv.dials(next)).to.equal(0);
    expect((await srv.row(next)).next_call_id).to.equal(null);
  });

  it('draws voicemail endings from onVoicemail and transient failures from onNoAnswer; never redials declined or other failures', async () => {
    const vm = await chain(await place(VOICEMAIL, { onVoicemail: 1, afterMinutes: 5 }));
    expect(vm.map((r) => r.status)).to.deep.equal(['voicemail', 'voicemail']);
    const noVoicemailBudget = await chain(await place(VOICEMAIL, { onNoAnswer: 5, afterMinutes: 5 }));
    expect(noVoicemailBudget).to.have.length(1);
    const unreachable = await chain(await place(UNREACHABLE, { onNoAnswer: 1, afterMinutes: 5 }));
    expect(unreachable.map((r) => [r.status, r.error])).to.deep.equal([
      ['failed', 'carrier_unreachable'],
      ['failed', 'carrier_unreachable'],
    ]);
    const bob = await srv.tenant({ rateLimit: 10 });
    expect(await chain(await place(DECLINED, { onNoAnswer: 5, onVoicemail: 5, afterMinutes: 5 }, bob))).to.have.length(1);
    const answered = await chain(await place('+14155550123', { onNoAnswer: 5, afterMinutes: 5 }, bob));
    expect(answered.map((r) => r.status)).to.deep.equal(['completed']);
    // A dial whose fate is unknown is never redialled.
    const id = await place('+14155550123', { onNoAnswer: 5, afterMinutes: 5 }, bob);
    await srv.deps.store.db.updateTable('calls').set({ status: 'dialing', dial_attempted_at: srv.clock.now() }).where('id', '=', id).execute();
    const interrupted = await srv.drive(id);
    expect([interrupted.error, interrupted.next_call_id]).to.deep.equal(['engine_interrupted', null]);
  });

  it('stops the chain when the number goes on the do-not-call list: the redial ends canceled, undialled', async () => {
    const first = await place(NO_ANSWER, { onNoAnswer: 2, afterMinutes: 10 });
    const ended = await srv.drive(first);
    await alice.api.post('/v1/agent/do-not-call', { body: { number: NO_ANSWER } });
    const next = await srv.drive(ended.next_call_id!);
    expect([next.status, next.error, next.next_call_id]).to.deep.equal(['canceled', 'destination_opted_out', null]);
    expect(await srv.dials(next.id)).to.equal(0);
  });

  it('checks the plan when a redial dials: with the minutes used up meanwhile, it ends canceled over_minute_cap, undialled', async () => {
    const carol = await srv.tenant({ planMinutes: 2 });
    const first = await place(NO_ANSWER, { onNoAnswer: 1, afterMinutes: 10 }, carol);
    const ended = await srv.drive(first);
    await insertTestCall(srv.deps.store, carol, { ended_at: srv.clock.now(), duration_sec: 120, billed_minutes: 2 });
    const next = await srv.drive(ended.next_call_id!);
    expect([next.status, next.error]).to.deep.equal(['canceled', 'over_minute_cap']);
    expect(await srv.dials(next.id)).to.equal(0);
  });

  for (const [what, redial] of [
    ['without afterMinutes', { onNoAnswer: 1 }],
    ['afterMinutes under 5', { onNoAnswer: 1, afterMinutes: 4 }],
    ['afterMinutes over 1440', { onNoAnswer: 1, afterMinutes: 1441 }],
    ['onNoAnswer over 5', { onNoAnswer: 6, afterMinutes: 10 }],
    ['a negative onVoicemail', { onVoicemail: -1, afterMinutes: 10 }],
    ['a fractional count', { onNoAnswer: 1.5, afterMinutes: 10 }],
    ['an unknown property', { onBusy: 1, afterMinutes: 10 }],
    ['a number', 3],
  ] as const) {
    it(`refuses a redial policy ${what} with 400 invalid_redial`, async () => {
      const res = await alice.api.post('/v1/agent/calls', { body: { to: NO_ANSWER, objective: 'Ask.', redial } });
      expect([res.status, res.body.error]).to.deep.equal([400, 'invalid_redial']);
    });
  }
});
