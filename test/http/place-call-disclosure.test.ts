// onBehalfOf and recordingNotice: what the agent tells the callee of whom it calls for and of the recording.
// Checked at placement (400 invalid_on_behalf_of, invalid_recording_notice, in their place in the order), stored on
// the call (the key's default when the placement gives none), and carried by a batch's calls.
import { expect } from 'chai';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';

const ok = { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' };

forEachStore('placement onBehalfOf and recordingNotice', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant({ rateLimit: 100 });
  });
  afterEach(() => srv.close());

  const place = (body: Record<string, unknown>) => alice.api.post('/v1/agent/calls', { body: { ...ok, ...body } });
  const stored = (id: string) => srv.deps.store.db.selectFrom('calls').select(['on_behalf_of', 'recording_notice']).where('id', '=', id).executeTakeFirstOrThrow();

  it('stores them as placed, 200 characters accepted; without them, no one named and the notice on', async () => {
    const named = await place({ onBehalfOf: "Tony's Pizzeria", recordingNotice: false });
    expect(named.status).to.equal(202);
    expect(await stored(named.body.callId)).to.deep.equal({ on_behalf_of: "Tony's Pizzeria", recording_notice: 0 });
    const longest = await place({ onBehalfOf: 'x'.repeat(200), recordingNotice: true });
    expect(await stored(longest.body.callId)).to.deep.equal({ on_behalf_of: 'x'.repeat(200), recording_notice: 1 });
    for (const body of [{}, { onBehalfOf: null, recordingNotice: null }]) {
      const res = await place(body);
      expect(res.status).to.equal(202);
      expect(await stored(res.body.callId)).to.deep.equal({ on_behalf_of: null, recording_notice: 1 });
    }
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['an empty onBehalfOf', { onBehalfOf: '' }, 'invalid_on_behalf_of'],
    ['a blank onBehalfOf', { onBehalfOf: '   ' }, 'invalid_on_behalf_of'],
    ['an onBehalfOf of 201 characters', { onBehalfOf: 'x'.repeat(201) }, 'invalid_on_behalf_of'],
    ['an onBehalfOf that is a number', { onBehalfOf: 17 }, 'invalid_on_behalf_of'],
    ['a recordingNotice that is a string', { recordingNotice: 'off' }, 'invalid_recording_notice'],
    ['a recordingNotice that is 0', { recordingNotice: 0 }, 'invalid_recording_notice'],
    ['both bad: onBehalfOf first', { onBehalfOf: '', recordingNotice: 'no' }, 'invalid_on_behalf_of'],
    ['a bad calling window first', { callingWindow: { start: '9' }, onBehalfOf: '' }, 'invalid_calling_window'],
    ['a bad recordingNotice before an unknown field', { recordingNotice: 'no', onBehalf: 'x' }, 'invalid_recording_notice'],
  ];
  for (const [what, body, token] of invalid) {
    it(`refuses ${what} with 400 ${token}, placing nothing`, async () => {
      const res = await place(body);
      expect([res.status, res.body.error]).to.deep.equal([400, token]);
      expect((await alice.api.get('/v1/agent/calls')).body.calls).to.have.length(0);
    });
  }

  it("takes the key's defaults when the placement gives none, and the placement's own over them", async () => {
    await srv.deps.store.db.updateTable('api_keys').set({ on_behalf_of: 'Acme Dental', recording_notice: 0 }).where('id', '=', alice.keyId).execute();
    const byKey = await place({});
    expect(await stored(byKey.body.callId)).to.deep.equal({ on_behalf_of: 'Acme Dental', recording_notice: 0 });
    const own = await place({ onBehalfOf: "Tony's Pizzeria", recordingNotice: true });
    expect(await stored(own.body.callId)).to.deep.equal({ on_behalf_of: "Tony's Pizzeria", recording_notice: 1 });
  });

  it("refuses a batch call with a bad onBehalfOf by its index, and keeps a good one with the batch's call until it is released", async () => {
    const bad = await alice.api.post('/v1/agent/batches', { body: { defaults: { objective: ok.objective }, calls: [{ to: '+14155552000' }, { to: '+14155552001', onBehalfOf: '' }] } });
    expect([bad.status, bad.body.error]).to.deep.equal([400, 'invalid_batch']);
    expect(JSON.stringify(bad.body.errors)).to.include('invalid_on_behalf_of');
    const good = await alice.api.post('/v1/agent/batches', {
      body: { defaults: { objective: ok.objective, onBehalfOf: 'Acme Dental', recordingNotice: false }, calls: [{ to: '+14155552000' }] },
    });
    expect(good.status).to.equal(202);
    const item = await srv.deps.store.db.selectFrom('batch_items').select('call_json').executeTakeFirstOrThrow();
    expect(JSON.parse(item.call_json)).to.deep.include({ onBehalfOf: 'Acme Dental', recordingNotice: false });
  });
});
