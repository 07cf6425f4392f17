// sendDigits: the keys a call presses once answered (a known extension). Checked at placement (400
// invalid_send_digits, with the spec's body, in its place in the order), stored on the call and shown on its record
// to the key that placed it alone, accepted and kept on the sandbox, carried by a redial and by a batch's call.
import { expect } from 'chai';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';
import { refusedFor } from '../support/problems.js';

const ok = { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' };
const NO_ANSWER = '+14155550111';
const TOKEN = '`sendDigits` is not 1 to 32 characters of `0`-`9`, `*`, `#`, `w` and `W`.';
/** The spec's body for a string that is not keys, and for a value that is no string. */
const REFUSED = refusedFor({ error: 'invalid_send_digits', message: `${TOKEN} (\`sendDigits\` must match pattern "^[0-9*#wW]{1,32}$".)`, field: 'sendDigits' });
const NOT_TEXT = refusedFor({ error: 'invalid_send_digits', message: `${TOKEN} (\`sendDigits\` must be string,null.)`, field: 'sendDigits' });

forEachStore('placement sendDigits', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startEngineServer(kind);
    alice = await srv.tenant({ rateLimit: 100 });
  });
  afterEach(() => srv.close());

  const place = (body: Record<string, unknown>, tenant = alice) => tenant.api.post('/v1/agent/calls', { body: { ...ok, ...body } });
  const record = async (id: string, tenant = alice) => (await tenant.api.get(`/v1/agent/calls/${id}`)).body;

  it('stores the keys as placed and returns them on the call record; without them, or with null, the record says null', async () => {
    for (const digits of ['1234#', 'ww2', '*9W0', `${'0123456789'.repeat(3)}w#`]) {
      const res = await place({ sendDigits: digits });
      expect(res.status, digits).to.equal(202);
      expect((await srv.row(res.body.callId)).send_digits).to.equal(digits);
      expect((await record(res.body.callId)).sendDigits).to.equal(digits);
    }
    for (const body of [{}, { sendDigits: null }]) {
      const res = await place(body);
      expect(res.status).to.equal(202);
      expect((await srv.row(res.body.callId)).send_digits).to.equal(null);
      expect(await record(res.body.callId)).to.have.property('sendDigits', null);
    }
  });

  const invalid: [string, unknown, typeof REFUSED][] = [
    ['empty', '', REFUSED],
    ['33 characters', '0'.repeat(33), REFUSED],
    ['a letter key (A-D are not sent at dial time)', '12A', REFUSED],
    ['a dash', '12-34', REFUSED],
    ['a space', '12 34', REFUSED],
    ['a comma pause', '1,2', REFUSED],
    ['a number', 1234, NOT_TEXT],
    ['an array', ['1'], NOT_TEXT],
  ];
  for (const [what, sendDigits, body] of invalid) {
    it(`refuses a sendDigits that is ${what} with 400 and the spec's body, placing nothing`, async () => {
      const res = await place({ sendDigits });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal(body);
      expect((await alice.api.get('/v1/agent/calls')).body.calls).to.have.length(0);
    });
  }

  it('reports it after invalid_recording_notice and before an unknown field', async () => {
    expect((await place({ recordingNotice: 'no', sendDigits: 'x' })).body.error).to.equal('invalid_recording_notice');
    expect((await place({ sendDigits: 'x', sendDigit: '1' })).body).to.deep.equal({
      ...REFUSED,
      errors: [
        ...REFUSED.errors,
        { error: 'unknown_field', message: 'Unknown field `sendDigit`; did you mean `sendDigits`? See the request schema for the fields this version accepts.', field: 'sendDigit' },
      ],
    });
    expect((await place({ sendDigits: '1', sendDigit: '1' })).body.error).to.equal('unknown_field');
  });

  it("shows the keys to the key that placed the call, and another tenant's key finds no such call", async () => {
    const bob = await srv.tenant();
    const res = await place({ sendDigits: '1234#' });
    const asBob = await bob.api.get(`/v1/agent/calls/${res.body.callId}`);
    expect(asBob.status).to.equal(404);
    expect(JSON.stringify(asBob.body)).not.to.include('1234#');
    expect((await bob.api.get('/v1/agent/calls')).body.calls).to.deep.equal([]);
  });

  it('keeps the keys through a sandbox call nobody answers and on its redial, which presses them too', async () => {
    const res = await place({ to: NO_ANSWER, sendDigits: '5w12#', redial: { onNoAnswer: 1, afterMinutes: 5 } });
    const first = await srv.drive(res.body.callId);
    expect(first.status).to.equal('no_answer');
    expect(await record(first.id)).to.deep.include({ status: 'no_answer', sendDigits: '5w12#' });
    const redial = await srv.row(first.next_call_id!);
    expect(redial.send_digits).to.equal('5w12#');
  });

  it("refuses a batch's call with bad keys by its index, and keeps good ones with the call until it is released", async () => {
    const bad = await alice.api.post('/v1/agent/batches', { body: { defaults: { objective: ok.objective }, calls: [{ to: '+14155552000' }, { to: '+14155552001', sendDigits: '1-2' }] } });
    expect([bad.status, bad.body.error]).to.deep.equal([400, 'invalid_batch']);
    expect(JSON.stringify(bad.body.errors)).to.include('invalid_send_digits');
    const good = await alice.api.post('/v1/agent/batches', { body: { defaults: { objective: ok.objective, sendDigits: '9#' }, calls: [{ to: '+14155552000' }] } });
    expect(good.status).to.equal(202);
    const item = await srv.deps.store.db.selectFrom('batch_items').select('call_json').executeTakeFirstOrThrow();
    expect(JSON.parse(item.call_json)).to.deep.include({ sendDigits: '9#' });
  });
});
