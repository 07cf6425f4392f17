// Calling windows on both stores, driven by the clock: a call placed outside its window waits queued (undialled)
// for the next opening in the callee's own zone, across a DST change; the engine asks again before the dial, so a
// call whose window shut while it waited is moved, not dialled; a redial is moved into the window; a key's default
// window applies and the request's replaces it; the record and preflight show the window and its zones; invalid
// windows are 400 invalid_calling_window, placing nothing. The sandbox numbers here are Los Angeles numbers.
import { expect } from 'chai';
import type { CallingWindow } from '../../server/src/generated/types.gen.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';

const COMPLETES = '+14155550123';
const NO_ANSWER = '+14155550111';
const OFFICE: CallingWindow = { start: '09:00', end: '17:00' };
const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const at = (s: string) => Date.parse(s);

forEachStore('calling windows', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startEngineServer(kind);
    alice = await srv.tenant({ rateLimit: 100 });
  });
  afterEach(() => srv.close());

  const body = (extra: Record<string, unknown>, to = COMPLETES) => ({ to, objective: 'Ask whether the shop is open on Sunday.', ...extra });
  const place = (extra: Record<string, unknown>, to = COMPLETES, tenant = alice) => tenant.api.post('/v1/agent/calls', { body: body(extra, to) });
  const record = async (id: string) => (await alice.api.get(`/v1/agent/calls/${id}`)).body;
  const callCount = async () => (await srv.deps.store.db.selectFrom('calls').select('id').execute()).length;

  it("waits queued and undialled for 09:00 in the callee's zone, across the spring-forward (Sunday 09:00 PDT is 16:00 UTC)", async () => {
    srv.clock.ms = at('2026-03-08T04:00:00Z'); // Saturday 20:00 PST
    const res = await place({ callingWindow: OFFICE });
    expect(res.status).to.equal(202);
    expect(res.body).to.deep.include({ status: 'queued', scheduledAt: '2026-03-08T16:00:00.000Z' });
    const id = res.body.callId as string;
    expect(await record(id)).to.deep.include({
      status: 'queued',
      scheduledAt: '2026-03-08T16:00:00.000Z',
      callingWindow: { start: '09:00', end: '17:00', days: EVERY_DAY },
      timeZone: 'America/Los_Angeles',
      timeZones: ['America/Los_Angeles'],
    });
    // 08:59 PDT: still shut.
    srv.clock.ms = at('2026-03-08T15:59:00Z');
    await srv.engine.tick();
    expect([(await srv.row(id)).status, await srv.dials(id)]).to.deep.equal(['queued', 0]);
    const row = await srv.drive(id);
    expect(row.status).to.equal('completed');
    expect(row.dial_attempted_at).to.equal(at('2026-03-08T16:00:00Z'));
  });

  it('dials at once inside the window; scheduledAt is the placement time', async () => {
    srv.clock.ms = at('2026-11-24T20:00:00Z'); // Tuesday 12:00 PST
    const res = await place({ callingWindow: OFFICE });
    expect(res.body.scheduledAt).to.equal('2026-11-24T20:00:00.000Z');
    await srv.engine.tick();
    expect(await srv.dials(res.body.callId)).to.equal(1);
  });

  it('asks again before the dial: a call whose window shut while it waited is moved to the next opening, not dialled', async () => {
    srv.clock.ms = at('2026-11-24T00:59:00Z'); // Monday 16:59 PST, open
    const res = await place({ callingWindow: OFFICE });
    const id = res.body.callId as string;
    expect(res.body.scheduledAt).to.equal('2026-11-24T00:59:00.000Z');
    // The engine reaches it at 17:01, after the close (a queue running late, a restart).
    srv.clock.ms = at('2026-11-24T01:01:00Z');
    await srv.engine.tick();
    const moved = await srv.row(id);
    expect([moved.status, moved.dial_attempted_at, moved.scheduled_at, moved.next_run_at]).to.deep.equal(['queued', null, at('2026-11-24T17:00:00Z'), at('2026-11-24T17:00:00Z')]);
    expect(await srv.dials(id)).to.equal(0);
    expect((await record(id)).scheduledAt).to.equal('2026-11-24T17:00:00.000Z');
    // No event was sent for the move: the call is still queued.
    expect(await srv.deps.store.db.selectFrom('webhook_events').select('event').where('call_id', '=', id).execute()).to.have.length(0);
    const row = await srv.drive(id);
    expect([row.status, row.dial_attempted_at]).to.deep.equal(['completed', at('2026-11-24T17:00:00Z')]);
  });

  it('combines with startAt: a start inside the window stays, one outside it moves to the next opening', async () => {
    srv.clock.ms = at('2026-11-24T20:00:00Z');
    const inside = await place({ callingWindow: OFFICE, startAt: '2026-11-25T10:30:00-08:00' });
    expect(inside.body.scheduledAt).to.equal('2026-11-25T18:30:00.000Z');
    const outside = await place({ callingWindow: { ...OFFICE, days: ['mon', 'tue', 'wed', 'thu', 'fri'] }, startAt: '2026-11-28T10:30:00-08:00' }); // a Saturday
    expect(outside.body.scheduledAt).to.equal('2026-11-30T17:00:00.000Z'); // Monday 09:00 PST
  });

  it('moves a redial into the window: due afterMinutes after the ending, then to the next opening', async () => {
    srv.clock.ms = at('2026-11-24T00:30:00Z'); // Monday 16:30 PST
    const res = await place({ callingWindow: OFFICE, redial: { onNoAnswer: 1, afterMinutes: 60 } }, NO_ANSWER);
    const first = await srv.drive(res.body.callId);
    expect(first.status).to.equal('no_answer');
    const next = await srv.row(first.next_call_id!);
    // 60 minutes after the ending is past 17:00: the redial is due at Tuesday 09:00 PST, and carries the window.
    expect(next.scheduled_at).to.equal(at('2026-11-24T17:00:00Z'));
    expect(await record(next.id)).to.deep.include({ scheduledAt: '2026-11-24T17:00:00.000Z', timeZone: 'America/Los_Angeles', previousCallId: first.id });
    const second = await srv.drive(next.id);
    expect([second.status, second.dial_attempted_at]).to.deep.equal(['no_answer', at('2026-11-24T17:00:00Z')]);
  });

  it("applies the key's default window, and a request's own window replaces it", async () => {
    const bob = await srv.tenant({ rateLimit: 100, callingWindow: { start: '10:00', end: '18:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] } });
    srv.clock.ms = at('2026-11-28T20:00:00Z'); // Saturday 12:00 PST
    const byKey = await place({}, COMPLETES, bob);
    expect(byKey.body.scheduledAt).to.equal('2026-11-30T18:00:00.000Z'); // Monday 10:00 PST
    const got = (await bob.api.get(`/v1/agent/calls/${byKey.body.callId}`)).body;
    expect(got.callingWindow).to.deep.equal({ start: '10:00', end: '18:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] });
    const own = await place({ callingWindow: { start: '11:00', end: '13:00' } }, COMPLETES, bob);
    expect(own.body.scheduledAt).to.equal('2026-11-28T20:00:00.000Z');
  });

  it('reads a number spanning zones in all of them: the record has no single timeZone and lists timeZones', async () => {
    srv.clock.ms = at('2026-12-01T16:30:00Z'); // 08:30 in Los Angeles, 09:30 in Boise
    const res = await place({ callingWindow: OFFICE }, '+12085550123');
    expect(res.body.scheduledAt).to.equal('2026-12-01T17:00:00.000Z');
    expect(await record(res.body.callId)).to.deep.include({ timeZone: null, timeZones: ['America/Boise', 'America/Los_Angeles'] });
  });

  it('shows no window on a call placed without one', async () => {
    const res = await place({});
    expect(await record(res.body.callId)).to.deep.include({ callingWindow: null, timeZone: null, timeZones: null, scheduledAt: null });
  });

  it('ends a call undialled, canceled outside_calling_window, when its window no longer opens in all its zones', async () => {
    srv.clock.ms = at('2026-11-24T20:00:00Z');
    const res = await place({ callingWindow: OFFICE, startAt: '2026-11-25T18:00:00Z' });
    const id = res.body.callId as string;
    // As a DST change can leave a narrow window across zones: Monday 09:00-10:00 in Guam and in Pago Pago never meet.
    const never = { start: '09:00', end: '10:00', days: ['mon'], zones: ['Pacific/Guam', 'Pacific/Pago_Pago'] };
    await srv.deps.store.db
      .updateTable('calls')
      .set({ calling_window_json: JSON.stringify(never) })
      .where('id', '=', id)
      .execute();
    const row = await srv.drive(id);
    expect([row.status, row.error, row.dial_attempted_at]).to.deep.equal(['canceled', 'outside_calling_window', null]);
    expect(await srv.dials(id)).to.equal(0);
  });

  it('preflight reports the zone, the zones and the next opening, and writes nothing', async () => {
    srv.clock.ms = at('2026-11-24T04:00:00Z'); // Monday 20:00 PST
    const pre = await alice.api.post('/v1/agent/calls/preflight', { body: body({ callingWindow: { ...OFFICE, days: ['tue'] } }) });
    expect(pre.status).to.equal(200);
    expect(pre.body).to.deep.include({
      scheduledAt: '2026-11-24T17:00:00.000Z',
      callingWindow: { start: '09:00', end: '17:00', days: ['tue'] },
      timeZone: 'America/Los_Angeles',
      timeZones: ['America/Los_Angeles'],
    });
    const plain = await alice.api.post('/v1/agent/calls/preflight', { body: body({}) });
    expect(plain.body).to.deep.include({ scheduledAt: null, callingWindow: null, timeZone: null, timeZones: null });
    expect(await callCount()).to.equal(0);
  });

  for (const [what, callingWindow] of [
    ['a start without its leading zero', { start: '9:00', end: '17:00' }],
    ['a missing end', { start: '09:00' }],
    ['an hour past 24:00', { start: '09:00', end: '24:01' }],
    ['a day not in the week', { ...OFFICE, days: ['monday'] }],
    ['no days', { ...OFFICE, days: [] }],
    ['a day twice', { ...OFFICE, days: ['mon', 'mon'] }],
    ['an unknown property', { ...OFFICE, zone: 'America/New_York' }],
    ['a string', '09:00-17:00'],
    ['an end before the start', { start: '17:00', end: '09:00' }],
    ['an unknown zone', { ...OFFICE, timeZone: 'America/Atlantis' }],
  ] as const) {
    it(`refuses ${what} with 400 invalid_calling_window, placing nothing; preflight the same`, async () => {
      const res = await place({ callingWindow });
      expect([res.status, res.body.error]).to.deep.equal([400, 'invalid_calling_window']);
      const pre = await alice.api.post('/v1/agent/calls/preflight', { body: body({ callingWindow }) });
      expect([pre.status, pre.body.error]).to.deep.equal([400, 'invalid_calling_window']);
      expect(await callCount()).to.equal(0);
    });
  }

  it("refuses a window never open in all of a number's zones, and reports an invalid number first", async () => {
    const res = await place({ callingWindow: { start: '09:00', end: '10:00' } }, '+18005550123');
    expect([res.status, res.body.error]).to.deep.equal([400, 'invalid_calling_window']);
    expect(res.body.message).to.contain('is never open in all of +18005550123');
    const bad = await place({ callingWindow: { start: '17:00', end: '09:00' } }, '+1415');
    expect([bad.status, bad.body.error]).to.deep.equal([400, 'invalid_number']);
  });
});
