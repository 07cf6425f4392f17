// preflightCall: placeCall's checks, in placeCall's order, with nothing written — no call, no window spent, no
// minute reserved, no Idempotency-Key claimed — and 200 with what placing the call would do.
import { expect } from 'chai';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { insertTestCall } from '../support/calls.js';

const ok = { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday and until what time.' };

forEachStore('preflightCall', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant({ planMinutes: 30 });
  });
  afterEach(() => srv.close());

  const preflight = (body: unknown, tenant = alice, headers: Record<string, string> = {}) => tenant.api.post('/v1/agent/calls/preflight', { body, headers });
  const place = (body: unknown, tenant = alice, headers: Record<string, string> = {}) => tenant.api.post('/v1/agent/calls', { body, headers });
  const written = async () => ({
    calls: (await srv.deps.store.db.selectFrom('calls').select('id').execute()).length,
    windows: (await srv.deps.store.db.selectFrom('rate_windows').selectAll().where('bucket', 'like', 'key:%').execute()).map((w) => Number(w.count)),
    keys: (await srv.deps.store.db.selectFrom('idempotency_keys').select('idem_key').execute()).length,
  });

  it('answers 200 with the number, caller id, voice, language and minutes left, and writes nothing', async () => {
    await insertTestCall(srv.deps.store, alice, { ended_at: srv.clock.now() - 1000, duration_sec: 61, billed_minutes: 2 });
    await insertTestCall(srv.deps.store, alice, { status: 'in_progress', ended_at: null, billed_minutes: null, duration_sec: null });
    const before = await written();
    const res = await preflight({ ...ok, voice: 'coral' }, alice, { 'idempotency-key': 'order-1' });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      number: { e164: '+14155550123', country: 'US', type: 'fixed_line_or_mobile' },
      callerId: '+14155550100',
      voice: 'coral',
      language: 'en-US',
      languageSource: 'inferred',
      scheduledAt: null,
      callingWindow: null,
      timeZone: null,
      timeZones: null,
      minutesRemaining: 30 - 2 - 1,
    });
    expect(res.headers.get('ratelimit-remaining')).to.equal('10');
    expect(res.operationId).to.equal('preflightCall');
    expect(await written()).to.deep.equal(before);
    // The Idempotency-Key it was sent is free for a placement with another body.
    expect((await place({ ...ok, objective: 'Something else entirely.' }, alice, { 'idempotency-key': 'order-1' })).status).to.equal(202);
  });

  it('names the country by the number’s region and the type by libphonenumber, and the explicit language and caller id', async () => {
    const bob = await srv.tenant({ callerId: '+447700900123' });
    await srv.deps.store.db.insertInto('numbers').values({ account_id: bob.accountId, e164: '+14155550199', created_at: 1 }).execute();
    const res = await preflight({ to: '+447400123456', objective: 'Ask about the opening hours.', language: 'en-gb', callerId: '+14155550199' }, bob);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({ number: { e164: '+447400123456', country: 'GB', type: 'mobile' }, callerId: '+14155550199', language: 'en-GB', languageSource: 'explicit' });
  });

  const refusals: [string, unknown, number, string][] = [
    ['a missing to', { objective: 'x' }, 400, 'to_required'],
    ['an invalid number', { ...ok, to: '+1415' }, 400, 'invalid_number'],
    ['an unknown field', { ...ok, webhook_url: 'https://example.com' }, 400, 'unknown_field'],
    ['a voice the agent lacks', { ...ok, voice: 'nobody' }, 400, 'invalid_voice'],
    ['a premium-rate number', { ...ok, to: '+19005550100' }, 400, 'destination_blocked'],
    ['a country not allowed', { ...ok, to: '+33612345678' }, 400, 'destination_blocked'],
    ['a caller id not on the account', { ...ok, callerId: '+14155550188' }, 400, 'caller_id_not_owned'],
    ['bad metadata', { ...ok, metadata: { k: 1 } }, 400, 'invalid_metadata'],
    ['a body that is not an object', [ok], 400, 'invalid_body'],
  ];
  for (const [what, body, status, token] of refusals) {
    it(`refuses ${what} exactly as placeCall does (${status} ${token}), writing nothing`, async () => {
      const before = await written();
      const pre = await preflight(body);
      expect([pre.status, pre.body.error]).to.deep.equal([status, token]);
      expect(await written()).to.deep.equal(before);
      const placed = await place(body);
      expect([placed.status, placed.body.error, placed.body.message]).to.deep.equal([pre.status, pre.body.error, pre.body.message]);
    });
  }

  it('answers 429 over_minute_cap with Retry-After when the plan is used up, as placeCall would', async () => {
    const bob = await srv.tenant({ planMinutes: 1 });
    await insertTestCall(srv.deps.store, bob, { ended_at: srv.clock.now() - 1000, duration_sec: 60, billed_minutes: 1 });
    const pre = await preflight(ok, bob);
    expect(pre.status).to.equal(429);
    expect(pre.body.error).to.equal('over_minute_cap');
    const placed = await place(ok, bob);
    expect(pre.headers.get('retry-after')).to.equal(placed.headers.get('retry-after'));
  });

  it('spends none of the window, and answers 429 rate_limited once placements have filled it', async () => {
    for (let i = 0; i < 25; i++) expect((await preflight(ok)).status).to.equal(200);
    for (let i = 0; i < 10; i++) expect((await place(ok)).status).to.equal(202);
    const pre = await preflight(ok);
    expect(pre.status).to.equal(429);
    expect(pre.body.error).to.equal('rate_limited');
    expect(pre.headers.get('ratelimit-remaining')).to.equal('0');
  });

  it('reserves no minute: with one minute left, any number of preflights leave it for the placement', async () => {
    const bob = await srv.tenant({ planMinutes: 1 });
    for (let i = 0; i < 3; i++) expect((await preflight(ok, bob)).body.minutesRemaining).to.equal(1);
    expect((await place(ok, bob)).status).to.equal(202);
    expect((await preflight(ok, bob)).body.error).to.equal('over_minute_cap');
  });

  it('is a POST only: a GET of /v1/agent/calls/preflight is getCall of a call that does not exist', async () => {
    const res = await alice.api.get('/v1/agent/calls/preflight');
    expect([res.status, res.body.error]).to.deep.equal([404, 'not_found']);
  });
});
