// Every problem of a placement at once: placeCall's and preflightCall's 400 carry `errors`, each problem with its
// token, message and field, the first being the body's `error` and `message` (which are what they were before
// `errors`): the schema's problems, one per top-level property, then the guardrails whose inputs the schema passed,
// then the account's checks (do-not-call list, caller id) of the values that passed theirs.
import { expect } from 'chai';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';

const objective = 'Ask whether the shop is open on Sunday and until what time.';
const ok = { to: '+14155550123', objective };

const VOICES = 'alloy, ash, ballad, coral, echo, sage, shimmer, verse, marin, cedar';

forEachStore('placeCall answers every problem at once', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant({ rateLimit: 1000, planMinutes: 100 });
  });
  afterEach(() => srv.close());

  const place = (body: unknown, headers: Record<string, string> = {}) => alice.api.post('/v1/agent/calls', { body, headers });
  const preflight = (body: unknown) => alice.api.post('/v1/agent/calls/preflight', { body });
  const written = async () => ({
    calls: (await srv.deps.store.db.selectFrom('calls').select('id').execute()).length,
    windows: (await srv.deps.store.db.selectFrom('rate_windows').selectAll().where('bucket', 'like', 'key:%').execute()).map((w) => Number(w.count)),
  });

  it('lists a schema problem, a guardrail and the caller id, in order, the first being error and message; preflight alike; nothing written', async () => {
    const body = { to: '+14155550123', objective: '  ', voice: 'nobody', callerId: '+14155550188' };
    const expected = {
      error: 'objective_required',
      message: '`objective` is required and must not be blank.',
      errors: [
        { error: 'objective_required', message: '`objective` is required and must not be blank.', field: 'objective' },
        { error: 'invalid_voice', message: `Unknown voice "nobody"; valid voices: ${VOICES}.`, field: 'voice' },
        { error: 'caller_id_not_owned', message: '+14155550188 is not a number on this account.', field: 'callerId' },
      ],
    };
    const before = await written();
    const placed = await place(body);
    expect([placed.status, placed.body]).to.deep.equal([400, expected]);
    const pre = await preflight(body);
    expect([pre.status, pre.body]).to.deep.equal([400, expected]);
    expect(await written()).to.deep.equal(before);
  });

  it('names each bad property of the schema once, at its path, in the schema’s order', async () => {
    const res = await place({ to: '+1415', objective, fields: [{ name: 'ok' }, { name: '1bad' }], metadata: { k: 1 }, webhook_url: 'https://example.com/h' });
    expect(res.status).to.equal(400);
    expect(res.body.errors.map((e: { error: string; field: string }) => [e.error, e.field])).to.deep.equal([
      ['invalid_number', 'to'],
      ['invalid_fields', 'fields.1.name'],
      ['invalid_metadata', 'metadata.k'],
      ['unknown_field', 'webhook_url'],
    ]);
    expect([res.body.error, res.body.message]).to.deep.equal([res.body.errors[0].error, res.body.errors[0].message]);
  });

  it('lists the do-not-call list for the number called and the transfer’s, and a caller id not owned, at their fields', async () => {
    for (const number of ['+14155550123', '+14155550124']) expect((await alice.api.post('/v1/agent/do-not-call', { body: { number } })).status).to.equal(201);
    const res = await place({ ...ok, transfer: { to: '+14155550124' }, callerId: '+14155550188' });
    expect([res.status, res.body]).to.deep.equal([
      400,
      {
        error: 'destination_opted_out',
        message: "+14155550123 is on this account's do-not-call list; remove it from the list to call it.",
        errors: [
          { error: 'destination_opted_out', message: "+14155550123 is on this account's do-not-call list; remove it from the list to call it.", field: 'to' },
          { error: 'destination_opted_out', message: "`transfer.to`: +14155550124 is on this account's do-not-call list; remove it from the list to call it.", field: 'transfer.to' },
          { error: 'caller_id_not_owned', message: '+14155550188 is not a number on this account.', field: 'callerId' },
        ],
      },
    ]);
  });

  it('does not run a check on a value that failed an earlier one: a blocked number is not looked up, nor its window', async () => {
    await alice.api.post('/v1/agent/do-not-call', { body: { number: '+19005550100' } });
    const res = await place({ to: '+19005550100', objective, callingWindow: { start: '09:00', end: '17:00' }, callerId: 'not a number' });
    expect([res.status, res.body.errors]).to.deep.equal([
      400,
      [
        { error: 'invalid_caller_id', message: res.body.errors[0].message, field: 'callerId' },
        { error: 'destination_blocked', message: 'Calls to +19005550100 are blocked: premium-rate and shared-cost numbers are never called.', field: 'to' },
      ],
    ]);
  });

  it('checks the number called beside an unknown field whose name begins with it', async () => {
    const res = await place({ ...ok, to: '+19005550100', 'to.x': 1 });
    expect(res.body.errors.map((e: { error: string; field: string }) => [e.error, e.field])).to.deep.equal([
      ['unknown_field', 'to.x'],
      ['destination_blocked', 'to'],
    ]);
  });

  const single: [string, unknown, string, string][] = [
    ['a missing to', { objective }, 'to_required', 'to'],
    ['an unknown field', { ...ok, sneaky: 1 }, 'unknown_field', 'sneaky'],
    ['a voice the agent lacks', { ...ok, voice: 'nobody' }, 'invalid_voice', 'voice'],
    ['a premium-rate number', { ...ok, to: '+19005550100' }, 'destination_blocked', 'to'],
    ['a transfer to the number called', { ...ok, transfer: { to: ok.to } }, 'invalid_transfer', 'transfer.to'],
    ['a caller id not on the account', { ...ok, callerId: '+14155550188' }, 'caller_id_not_owned', 'callerId'],
    ['a body that is not an object', [ok], 'invalid_body', ''],
  ];
  for (const [what, body, token, field] of single) {
    it(`answers ${what} with errors holding that one problem (${token} at "${field}"), on placeCall and preflightCall`, async () => {
      for (const res of [await place(body), await preflight(body)]) {
        expect([res.status, res.body.error]).to.deep.equal([400, token]);
        expect(res.body.errors).to.deep.equal([{ error: token, message: res.body.message, field }]);
        expect(Object.keys(res.body)).to.deep.equal(['error', 'message', 'errors']);
      }
    });
  }

  it('replays a refusal under its Idempotency-Key with the same errors', async () => {
    const body = { ...ok, voice: 'nobody', callerId: '+14155550188' };
    const first = await place(body, { 'idempotency-key': 'order-7' });
    expect(first.body.errors.map((e: { error: string }) => e.error)).to.deep.equal(['invalid_voice', 'caller_id_not_owned']);
    const again = await place(body, { 'idempotency-key': 'order-7' });
    expect([again.status, again.headers.get('idempotent-replayed'), again.body]).to.deep.equal([400, 'true', first.body]);
  });

  it('leaves the happy path as it was: 202 with the queued call and no errors', async () => {
    const res = await place(ok);
    expect(res.status).to.equal(202);
    expect(Object.keys(res.body).sort()).to.deep.equal(['callId', 'language', 'languageSource', 'status', 'voice']);
    const pre = await preflight(ok);
    expect([pre.status, 'errors' in pre.body]).to.deep.equal([200, false]);
  });

  it('refuses a body nesting too deep before checking it: one error and no errors list', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = { a: deep };
    const res = await place({ ...ok, metadata: deep });
    expect([res.status, res.body.error, 'errors' in res.body]).to.deep.equal([400, 'invalid_metadata', false]);
  });
});
