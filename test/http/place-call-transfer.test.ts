// A placement's `transfer`: a bad shape is 400 invalid_transfer with the spec's body (in its place in the order),
// a destination a guardrail refuses is that guardrail's own token (destination_blocked, destination_opted_out) with
// a message naming `transfer.to`, and nothing is placed; a good one is stored with its defaults filled in and shown
// on the record (with transferredTo and transferredAt null until a handover) to the key that placed it alone;
// preflight answers as placeCall; a batch's calls take it; a redial keeps it.
import { expect } from 'chai';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';
import { fieldNamedIn, refusedFor } from '../support/problems.js';

const ok = { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' };
const PERSON = '+14155550142';
/** invalid_transfer's meaning, from the spec's ErrorToken descriptions: every shape message starts with it. */
const MEANING =
  '`transfer` is not `{ "to": <an E.164 number valid for its country, not the number called>, "mode"?: "cold" or "warm", "when"?: 1 to 500 characters, not blank }`. A destination that is valid but blocked (its country, premium rate, IRSF, satellite) is `destination_blocked`, and one on the do-not-call list `destination_opted_out`, as for `to`.';
const refused = (detail: string) => refusedFor({ error: 'invalid_transfer', message: `${MEANING} (${detail}.)`, field: fieldNamedIn(detail) });

forEachStore('placement transfer', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startEngineServer(kind);
    alice = await srv.tenant({ rateLimit: 1000 });
  });
  afterEach(() => srv.close());

  const place = (body: Record<string, unknown>, tenant = alice) => tenant.api.post('/v1/agent/calls', { body: { ...ok, ...body } });
  const record = async (id: string, tenant = alice) => (await tenant.api.get(`/v1/agent/calls/${id}`)).body;
  const calls = async () => (await srv.deps.store.db.selectFrom('calls').select('id').execute()).length;

  it('stores the transfer with its defaults filled in and shows it on the record, not yet transferred', async () => {
    const cold = await place({ transfer: { to: PERSON } });
    expect(cold.status).to.equal(202);
    const stored = { to: PERSON, mode: 'cold', when: 'the callee asks to speak to a person' };
    expect(JSON.parse((await srv.row(cold.body.callId)).transfer_json!)).to.deep.equal(stored);
    expect(await record(cold.body.callId)).to.deep.include({ transfer: stored, transferredTo: null, transferredAt: null });
    const warm = await place({ transfer: { to: PERSON, mode: 'warm', when: 'the callee agrees to the offer' } });
    expect(await record(warm.body.callId)).to.deep.include({ transfer: { to: PERSON, mode: 'warm', when: 'the callee agrees to the offer' } });
    for (const body of [{}, { transfer: null }]) {
      const res = await place(body);
      expect(res.status).to.equal(202);
      expect((await srv.row(res.body.callId)).transfer_json).to.equal(null);
      expect(await record(res.body.callId)).to.deep.include({ transfer: null, transferredTo: null, transferredAt: null });
    }
  });

  const shapes: Array<[string, unknown, ReturnType<typeof refused>]> = [
    ['a string', PERSON, refused('`transfer` must be object')],
    ['without a number', { mode: 'warm' }, refused("`transfer` must have required property 'to'")],
    [
      'a number without its +',
      { to: '14155550142' },
      refusedFor({ error: 'invalid_transfer', message: '`transfer.to` must start with + and the country code (E.164), such as +14155550123; "14155550142" has no +.', field: 'transfer.to' }),
    ],
    [
      'a number not valid for its country',
      { to: '+1415555014' },
      refusedFor({ error: 'invalid_transfer', message: '`transfer.to` is not a valid US number: +1415555014 has 9 digits after +1, and numbers there have 10 digits.', field: 'transfer.to' }),
    ],
    ['a mode of its own', { to: PERSON, mode: 'hot' }, refused('`transfer.mode` must be equal to one of the allowed values: cold, warm')],
    ['a blank condition', { to: PERSON, when: '   ' }, refused('`transfer.when` must match pattern "\\S"')],
    ['a condition of 501 characters', { to: PERSON, when: 'a'.repeat(501) }, refused('`transfer.when` must NOT have more than 500 characters')],
    ['a field of its own', { to: PERSON, whenever: 'asked' }, refused('`transfer` must NOT have additional properties')],
  ];
  for (const [what, transfer, body] of shapes) {
    it(`refuses a transfer that is ${what} with 400 invalid_transfer and the spec's body, placing nothing`, async () => {
      const res = await place({ transfer });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal(body);
      expect(await calls()).to.equal(0);
    });
  }

  it('refuses a transfer to the number called itself', async () => {
    const res = await place({ transfer: { to: ok.to } });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal(refusedFor({ error: 'invalid_transfer', message: '`transfer.to` is the number called (+14155550123); a transfer goes to another number.', field: 'transfer.to' }));
    expect(await calls()).to.equal(0);
  });

  it('reports it after invalid_tools and before an unknown field', async () => {
    expect((await place({ tools: 'x', transfer: 'x' })).body.error).to.equal('invalid_tools');
    expect((await place({ transfer: 'x', transferTo: PERSON })).body.error).to.equal('invalid_transfer');
    expect((await place({ transfer: { to: PERSON }, transferTo: PERSON })).body.error).to.equal('unknown_field');
  });

  const blocked: Array<[string, string, string]> = [
    ['a country outside the allowed ones', '+33142685300', 'Calls to FR (+33142685300) are not allowed; allowed countries: US, CA, GB, AU, NZ, IL.'],
    ['a premium-rate number', '+19002345678', 'Calls to +19002345678 are blocked: premium-rate and shared-cost numbers are never called.'],
    ['a satellite number in a range listed for revenue-share fraud', '+881612345678', 'Calls to +881612345678 are blocked: the number is in a range listed for revenue-share fraud.'],
  ];
  for (const [what, to, message] of blocked) {
    it(`refuses a transfer to ${what} as the number called would be: destination_blocked, naming transfer.to`, async () => {
      const res = await place({ transfer: { to } });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal(refusedFor({ error: 'destination_blocked', message: `\`transfer.to\` cannot be called: ${message}`, field: 'transfer.to' }));
      expect(await calls()).to.equal(0);
    });
  }

  it("refuses a transfer to a number on the account's do-not-call list, after the number called's own", async () => {
    expect((await alice.api.post('/v1/agent/do-not-call', { body: { number: PERSON } })).status).to.equal(201);
    const res = await place({ transfer: { to: PERSON } });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal(
      refusedFor({ error: 'destination_opted_out', message: "`transfer.to`: +14155550142 is on this account's do-not-call list; remove it from the list to call it.", field: 'transfer.to' }),
    );
    expect((await alice.api.post('/v1/agent/do-not-call', { body: { number: ok.to } })).status).to.equal(201);
    expect((await place({ transfer: { to: PERSON } })).body.message).to.equal("+14155550123 is on this account's do-not-call list; remove it from the list to call it.");
    expect(await calls()).to.equal(0);
    // Another account's list is not this one's.
    const bob = await srv.tenant();
    expect((await place({ transfer: { to: PERSON } }, bob)).status).to.equal(202);
  });

  it('preflight answers a bad or blocked transfer as placeCall would', async () => {
    const pre = (transfer: unknown) => alice.api.post('/v1/agent/calls/preflight', { body: { ...ok, transfer } });
    expect((await pre({ to: PERSON, mode: 'hot' })).body.error).to.equal('invalid_transfer');
    expect((await pre({ to: '+33142685300' })).body.error).to.equal('destination_blocked');
    expect((await pre({ to: PERSON })).status).to.equal(200);
  });

  it("shows the transfer to the key that placed the call, and another tenant's key finds no such call", async () => {
    const bob = await srv.tenant();
    const res = await place({ transfer: { to: PERSON, mode: 'warm' } });
    const asBob = await bob.api.get(`/v1/agent/calls/${res.body.callId}`);
    expect(asBob.status).to.equal(404);
    expect(JSON.stringify(asBob.body)).not.to.include(PERSON);
    expect((await bob.api.get('/v1/agent/calls')).body.calls).to.deep.equal([]);
  });

  it('keeps the transfer on the redial of a call nobody answered', async () => {
    const res = await place({ to: '+14155550111', transfer: { to: PERSON, mode: 'warm' }, redial: { onNoAnswer: 1, afterMinutes: 5 } });
    const first = await srv.drive(res.body.callId);
    expect(first.status).to.equal('no_answer');
    expect(await record(first.id)).to.deep.include({ transferredTo: null, transferredAt: null });
    expect(JSON.parse((await srv.row(first.next_call_id!)).transfer_json!)).to.deep.equal({ to: PERSON, mode: 'warm', when: 'the callee asks to speak to a person' });
  });

  it("refuses a batch's call with a bad or listed transfer by its index, and keeps a good one with the call it releases", async () => {
    expect((await alice.api.post('/v1/agent/do-not-call', { body: { number: '+14155550199' } })).status).to.equal(201);
    const bad = await alice.api.post('/v1/agent/batches', {
      body: {
        defaults: { objective: ok.objective },
        calls: [{ to: '+14155552000' }, { to: '+14155552001', transfer: { to: PERSON, mode: 'hot' } }, { to: '+14155552002', transfer: { to: '+14155550199' } }],
      },
    });
    expect([bad.status, bad.body.error]).to.deep.equal([400, 'invalid_batch']);
    expect(bad.body.errors.map((e: { index: number; error: string }) => [e.index, e.error])).to.deep.equal([
      [1, 'invalid_transfer'],
      [2, 'destination_opted_out'],
    ]);
    expect(bad.body.errors[1].message).to.equal("`transfer.to`: +14155550199 is on this account's do-not-call list; remove it from the list to call it.");
    const good = await alice.api.post('/v1/agent/batches', { body: { defaults: { objective: ok.objective, transfer: { to: PERSON, mode: 'warm' } }, calls: [{ to: '+14155552000' }] } });
    expect(good.status).to.equal(202);
    const item = await srv.deps.store.db.selectFrom('batch_items').select('call_json').executeTakeFirstOrThrow();
    expect(JSON.parse(item.call_json)).to.deep.include({ transfer: { to: PERSON, mode: 'warm', when: 'the callee asks to speak to a person' } });
  });
});
