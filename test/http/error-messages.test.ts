// The words of the errors a newcomer meets first, exactly: a bad number says what is wrong with it once and
// without a regular expression, in whichever field holds it (`to`, `callerId`, the do-not-call list's `number`, a
// batch's call); a misspelt required field is named as the field it was meant to be; and a request whose key is
// missing says "missing", however the key was left out. Nothing is placed or listed by a refused request.
import { expect } from 'chai';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';
import { refusedFor } from '../support/problems.js';

const ok = { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' };

forEachStore('error messages that say what is wrong', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant({ rateLimit: 1000 });
  });
  afterEach(() => srv.close());

  const place = (body: unknown) => alice.api.post('/v1/agent/calls', { body });
  const calls = async () => (await srv.deps.store.db.selectFrom('calls').select('id').execute()).length;

  const numbers: [string, unknown, string][] = [
    ['+11234567890, an area code starting with 1', '+11234567890', '`to` is not a valid US number: +11234567890 has area code 123, and area codes start with 2 to 9.'],
    [
      '+14151234567, an exchange starting with 1',
      '+14151234567',
      '`to` is not a valid US number: +14151234567 has exchange 123 (the three digits after the area code), and exchanges start with 2 to 9.',
    ],
    ['+19995550123, an area code not in use', '+19995550123', '`to` is not a valid US number: no number in use in the US, Canada or the Caribbean (which share +1) begins +1 999 555.'],
    ['+1415555, too short', '+1415555', '`to` is not a valid US number: +1415555 has 6 digits after +1, and numbers there have 10 digits.'],
    ['+4420, too short for the UK', '+4420', '`to` is not a valid UK number: +4420 has 2 digits after +44, and numbers there have 7, 9 or 10 digits.'],
    ['+972501234567, in no range in use', '+972501234567', '`to` is not a valid number in Israel: +972501234567 is in no range of numbers in use there.'],
    ['a number with spaces and dashes', '+1 415-555-0123', '`to` must be + and digits only, without spaces or punctuation: write "+1 415-555-0123" as +14155550123.'],
    ['a number without +', '4155550123', '`to` must start with + and the country code (E.164), such as +14155550123; "4155550123" has no +.'],
    ['a number with 00 for +', '0014155550123', '`to` must start with + in place of the international prefix 00: write "0014155550123" as +14155550123.'],
    ['letters', 'call me', '`to` must be + and the digits of the number, such as +14155550123; got "call me".'],
    ['+0 first', '+0123456789', '`to` cannot start with +0: country codes start with 1 to 9.'],
    ['a code of no country', '+999123456789', "`to` does not start with a country code: no country's code begins +999."],
    ['a JSON number', 14155550123, '`to` must be a phone number written as a string in E.164 format, such as "+14155550123".'],
  ];
  for (const [what, to, message] of numbers) {
    it(`refuses ${what} with 400 invalid_number and says why in one sentence`, async () => {
      const res = await place({ ...ok, to });
      expect([res.status, res.body]).to.deep.equal([400, refusedFor({ error: 'invalid_number', message, field: 'to' })]);
      expect(await calls()).to.equal(0);
    });
  }

  it('explains a bad callerId the same way, naming callerId', async () => {
    const res = await place({ ...ok, callerId: '+11234567890' });
    expect([res.status, res.body]).to.deep.equal([
      400,
      refusedFor({ error: 'invalid_caller_id', message: '`callerId` is not a valid US number: +11234567890 has area code 123, and area codes start with 2 to 9.', field: 'callerId' }),
    ]);
  });

  it("names the do-not-call list's `number`, not `to`", async () => {
    const bad = await alice.api.post('/v1/agent/do-not-call', { body: { number: '+11234567890' } });
    expect([bad.status, bad.body]).to.deep.equal([400, { error: 'invalid_number', message: '`number` is not a valid US number: +11234567890 has area code 123, and area codes start with 2 to 9.' }]);
    const shape = await alice.api.post('/v1/agent/do-not-call', { body: { number: '4155550123' } });
    expect(shape.body).to.deep.equal({ error: 'invalid_number', message: '`number` must start with + and the country code (E.164), such as +14155550123; "4155550123" has no +.' });
    expect((await alice.api.get('/v1/agent/do-not-call')).body.numbers).to.deep.equal([]);
  });

  it("names each bad call of a batch by its index with the number's reason", async () => {
    const res = await alice.api.post('/v1/agent/batches', { body: { defaults: { objective: ok.objective }, calls: [{ to: ok.to }, { to: '+11234567890' }] } });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal('invalid_batch');
    expect(res.body.errors).to.deep.equal([{ index: 1, error: 'invalid_number', message: '`to` is not a valid US number: +11234567890 has area code 123, and area codes start with 2 to 9.' }]);
  });

  it('answers a misspelt objective with objective_required and the field it was meant to be', async () => {
    const res = await place({ to: ok.to, objetive: ok.objective });
    expect([res.status, res.body]).to.deep.equal([
      400,
      refusedFor({ error: 'objective_required', message: '`objective` is required, and the body has an unknown field `objetive`: did you mean `objective`?', field: 'objective' }),
    ]);
    expect(await calls()).to.equal(0);
  });

  it('answers a to written in another case with to_required and the field it was meant to be', async () => {
    const res = await place({ To: ok.to, objective: ok.objective });
    expect(res.body).to.deep.equal(refusedFor({ error: 'to_required', message: '`to` is required, and the body has an unknown field `To`: did you mean `to`?', field: 'to' }));
  });

  it('still says only "is required" when no sent field is near the missing one', async () => {
    const res = await place({ to: ok.to, goal: ok.objective });
    expect(res.body).to.deep.equal({
      error: 'objective_required',
      message: '`objective` is required.',
      errors: [
        { error: 'objective_required', message: '`objective` is required.', field: 'objective' },
        { error: 'unknown_field', message: 'Unknown field `goal`; see the request schema for the fields this version accepts.', field: 'goal' },
      ],
    });
  });

  const send = 'Send Authorization: Bearer svc_ak_<secret>.';
  const keys: [string, Record<string, string>, string][] = [
    ['no Authorization header', {}, `Missing API key. ${send}`],
    [
      'a Bearer with nothing after it (an empty $SVC_API_KEY)',
      { authorization: 'Bearer ' },
      `Missing API key: the Authorization header is "Bearer" with no key after it (an empty SVC_API_KEY?). ${send}`,
    ],
    ['a bare Bearer', { authorization: 'Bearer' }, `Missing API key: the Authorization header is "Bearer" with no key after it (an empty SVC_API_KEY?). ${send}`],
    ['a key of the wrong form', { authorization: 'Bearer sk_live_abcdefghijklmnopqrstuvwxyz' }, `The API key is malformed: an API key is svc_ak_ and at least 16 letters, digits, - or _. ${send}`],
    ['an unknown key', { authorization: 'Bearer svc_ak_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, `The API key is unknown or revoked. ${send}`],
  ];
  for (const [what, headers, message] of keys) {
    it(`answers ${what} with 401 unauthorized: "${message.split(/[.:]/)[0]}"`, async () => {
      const res = await srv.anon.get('/v1/agent/calls', { headers });
      expect([res.status, res.body]).to.deep.equal([401, { error: 'unauthorized', message }]);
    });
  }
});
