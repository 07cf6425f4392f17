// startAt on both stores, driven by the clock: a call placed to start later stays queued (and undialled) until
// its time, then runs; it can be canceled while it waits; a past time means now; the shape and the 30-day limit
// are checked (400 invalid_start_at), the same by preflight.
import { expect } from 'chai';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';

const DAY = 24 * 3600 * 1000;

forEachStore('scheduled start', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startEngineServer(kind);
    alice = await srv.tenant({ rateLimit: 100 });
  });
  afterEach(() => srv.close());

  const body = (startAt: unknown) => ({ to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.', startAt });
  const place = (startAt: unknown) => alice.api.post('/v1/agent/calls', { body: body(startAt) });
  const iso = (ms: number) => new Date(ms).toISOString();

  it('stays queued and undialled until startAt, then is dialled and completes; the record and the 202 show scheduledAt', async () => {
    const now = srv.clock.now();
    const at = now + 2 * 3600 * 1000;
    // Given with an offset: 2 h ahead in +05:30.
    const local = new Date(at + 5.5 * 3600 * 1000).toISOString().replace('Z', '+05:30');
    const res = await place(local);
    expect(res.status).to.equal(202);
    expect(res.body).to.deep.include({ status: 'queued', scheduledAt: iso(at) });
    const id = res.body.callId as string;
    expect((await srv.row(id)).next_run_at).to.equal(at);
    for (let i = 0; i < 3; i++) {
      srv.clock.advance(30 * 60 * 1000);
      await srv.engine.tick();
    }
    expect((await srv.row(id)).status).to.equal('queued');
    expect(await srv.dials(id)).to.equal(0);
    expect((await alice.api.get(`/v1/agent/calls/${id}`)).body).to.deep.include({ status: 'queued', scheduledAt: iso(at) });
    srv.clock.ms = at;
    const row = await srv.drive(id);
    expect(row.status).to.equal('completed');
    expect(row.dial_attempted_at).to.equal(at);
    expect(row.started_at).to.equal(at + 4000);
    expect(await srv.dials(id)).to.equal(1);
  });

  it('can be canceled while it waits, and is never dialled', async () => {
    const res = await place(iso(srv.clock.now() + DAY));
    const cancel = await alice.api.post(`/v1/agent/calls/${res.body.callId}/cancel`);
    expect([cancel.status, cancel.body.status]).to.deep.equal([200, 'canceled']);
    srv.clock.advance(2 * DAY);
    await srv.engine.tick();
    expect(await srv.dials(res.body.callId)).to.equal(0);
  });

  it('takes a time already past as now: dialled at once, scheduledAt the placement time', async () => {
    const now = srv.clock.now();
    const res = await place(iso(now - 3600 * 1000));
    expect(res.body.scheduledAt).to.equal(iso(now));
    await srv.engine.tick();
    expect(await srv.dials(res.body.callId)).to.equal(1);
  });

  it('answers a call placed without startAt as a v1 client expects: no scheduledAt in the 202, null on the record', async () => {
    const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask.' } });
    expect(Object.keys(res.body).sort()).to.deep.equal(['callId', 'language', 'languageSource', 'status', 'voice']);
    expect((await alice.api.get(`/v1/agent/calls/${res.body.callId}`)).body.scheduledAt).to.equal(null);
  });

  it('accepts exactly 30 days ahead and refuses a moment more', async () => {
    const now = srv.clock.now();
    expect((await place(iso(now + 30 * DAY))).status).to.equal(202);
    const over = await place(iso(now + 30 * DAY + 1000));
    expect([over.status, over.body.error]).to.deep.equal([400, 'invalid_start_at']);
    expect(over.body.message).to.equal('`startAt` may be at most 30 days ahead.');
  });

  for (const [what, value] of [
    ['a date-time without an offset', '2026-12-01T09:30:00'],
    ['a date alone', '2026-12-01'],
    ['words', 'tomorrow morning'],
    ['a number', 1795348830000],
    ['an impossible date', '2026-02-30T09:00:00Z'],
  ] as const) {
    it(`refuses ${what} with 400 invalid_start_at, placing nothing; preflight the same`, async () => {
      const res = await place(value);
      expect([res.status, res.body.error]).to.deep.equal([400, 'invalid_start_at']);
      const pre = await alice.api.post('/v1/agent/calls/preflight', { body: body(value) });
      expect([pre.status, pre.body.error]).to.deep.equal([400, 'invalid_start_at']);
      expect(await srv.deps.store.db.selectFrom('calls').select('id').execute()).to.have.length(0);
    });
  }

  it('preflight says when the call would be dialled', async () => {
    const at = srv.clock.now() + 3 * DAY;
    const pre = await alice.api.post('/v1/agent/calls/preflight', { body: body(iso(at)) });
    expect(pre.body.scheduledAt).to.equal(iso(at));
    expect((await alice.api.post('/v1/agent/calls/preflight', { body: body(null) })).body.scheduledAt).to.equal(null);
  });
});
