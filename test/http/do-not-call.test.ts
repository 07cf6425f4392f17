// The do-not-call list on both stores: add (201, then 200 keeping the entry), page through, remove (204, then
// 404); every body and query checked; the list is the account's (shared by its keys, never another account's);
// placement and preflight refuse a listed number (400 destination_opted_out) and a call not yet dialled whose
// number is listed meanwhile ends canceled, undialled. The CLI keeps the same list.
import { expect } from 'chai';
import { createKey } from '../../server/src/accounts/accounts-repo.js';
import { apiClient } from '../support/contract.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';
import { cliHarness } from '../cli/cli-harness.js';

const ok = { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' };

forEachStore('the do-not-call list', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  let bob: TestTenant;
  beforeEach(async () => {
    srv = await startEngineServer(kind);
    alice = await srv.tenant({ rateLimit: 100 });
    bob = await srv.tenant({ rateLimit: 100 });
  });
  afterEach(() => srv.close());

  const add = (body: unknown, tenant = alice) => tenant.api.post('/v1/agent/do-not-call', { body });
  const list = (query = '', tenant = alice) => tenant.api.get(`/v1/agent/do-not-call${query}`);
  const remove = (number: string, tenant = alice) => tenant.api.request('DELETE', `/v1/agent/do-not-call/${number}`);

  it('adds a number (201), keeps the first entry when it is added again (200), and removes it (204, then 404)', async () => {
    const first = await add({ number: '+14155550123', reason: 'Asked by email.' });
    expect(first.status).to.equal(201);
    expect(first.body).to.deep.equal({ number: '+14155550123', reason: 'Asked by email.', source: 'api', addedAt: new Date(srv.clock.now()).toISOString(), callId: null });
    srv.clock.advance(5000);
    const again = await add({ number: '+14155550123', reason: 'Another reason.' });
    expect([again.status, again.body]).to.deep.equal([200, first.body]);
    expect((await remove('%2B14155550123')).status).to.equal(204);
    const gone = await remove('+14155550123');
    expect([gone.status, gone.body.error]).to.deep.equal([404, 'not_found']);
    expect((await list()).body).to.deep.equal({ numbers: [], nextAfter: null });
  });

  for (const [what, body, token] of [
    ['no number', { reason: 'x' }, 'invalid_number'],
    ['a number not E.164', { number: '4155550123' }, 'invalid_number'],
    ['a number not valid for its country', { number: '+1415555' }, 'invalid_number'],
    ['a reason over 500 characters', { number: '+14155550123', reason: 'r'.repeat(501) }, 'invalid_reason'],
    ['an unknown field', { number: '+14155550123', why: 'x' }, 'unknown_field'],
    ['a body that is not an object', ['+14155550123'], 'invalid_body'],
  ] as const) {
    it(`refuses ${what} with 400 ${token}, adding nothing`, async () => {
      const res = await add(body);
      expect([res.status, res.body.error]).to.deep.equal([400, token]);
      expect((await list()).body.numbers).to.have.length(0);
    });
  }

  it('pages through the list in E.164 order, and checks limit and after', async () => {
    const numbers = ['+14155550125', '+14155550121', '+447911123456', '+14155550123', '+61412345678'];
    for (const number of numbers) expect((await add({ number })).status).to.equal(201);
    const pages: string[][] = [];
    let query = '?limit=2';
    for (;;) {
      const page = await list(query);
      expect(page.status).to.equal(200);
      pages.push(page.body.numbers.map((n: { number: string }) => n.number));
      if (page.body.nextAfter === null) break;
      query = `?limit=2&after=${encodeURIComponent(page.body.nextAfter)}`;
    }
    expect(pages).to.deep.equal([['+14155550121', '+14155550123'], ['+14155550125', '+447911123456'], ['+61412345678']]);
    expect((await list()).body.numbers).to.have.length(5); // 50 by default
    expect((await list('?limit=0')).body.error).to.equal('invalid_limit');
    expect((await list('?limit=101')).body.error).to.equal('invalid_limit');
    expect((await list('?after=banana')).body.error).to.equal('invalid_after');
  });

  it("is the account's: shared by its keys, never shown to, removable by or applied to another account", async () => {
    await add({ number: '+14155550123' });
    const { key: secondKey } = await createKey(srv.deps.store.db, { accountId: alice.accountId, name: 'second' }, srv.clock.now());
    const aliceAgain = apiClient(srv.baseUrl, secondKey);
    expect((await aliceAgain.get('/v1/agent/do-not-call')).body.numbers.map((n: { number: string }) => n.number)).to.deep.equal(['+14155550123']);
    expect((await aliceAgain.post('/v1/agent/calls', { body: ok })).body.error).to.equal('destination_opted_out');
    expect((await list('', bob)).body).to.deep.equal({ numbers: [], nextAfter: null });
    expect((await remove('+14155550123', bob)).status).to.equal(404);
    expect((await list()).body.numbers).to.have.length(1);
    expect((await bob.api.post('/v1/agent/calls', { body: ok })).status).to.equal(202);
  });

  it('refuses a placement and a preflight to a listed number with 400 destination_opted_out, spending nothing', async () => {
    await add({ number: '+14155550123' });
    const placed = await alice.api.post('/v1/agent/calls', { body: ok });
    expect([placed.status, placed.body.error]).to.deep.equal([400, 'destination_opted_out']);
    expect(placed.body.message).to.equal("+14155550123 is on this account's do-not-call list; remove it from the list to call it.");
    expect(placed.headers.get('ratelimit-remaining')).to.equal('100');
    const pre = await alice.api.post('/v1/agent/calls/preflight', { body: ok });
    expect([pre.status, pre.body.error, pre.body.message]).to.deep.equal([400, 'destination_opted_out', placed.body.message]);
    expect(await srv.deps.store.db.selectFrom('calls').select('id').execute()).to.have.length(0);
    await remove('+14155550123');
    expect((await alice.api.post('/v1/agent/calls', { body: ok })).status).to.equal(202);
  });

  it('ends a scheduled call whose number was listed meanwhile canceled, destination_opted_out, never dialled', async () => {
    const at = srv.clock.now() + 3600 * 1000;
    const res = await alice.api.post('/v1/agent/calls', { body: { ...ok, startAt: new Date(at).toISOString(), webhookUrl: 'http://127.0.0.1:9/hooks' } });
    expect(res.status).to.equal(202);
    await add({ number: '+14155550123', reason: 'Called us to opt out.' });
    srv.clock.ms = at;
    const row = await srv.drive(res.body.callId);
    expect(row).to.deep.include({ status: 'canceled', error: 'destination_opted_out', billed_minutes: 0 });
    expect(await srv.dials(res.body.callId)).to.equal(0);
    const events = await srv.deps.store.db.selectFrom('webhook_events').select('event').where('call_id', '=', res.body.callId).execute();
    expect(events.map((e) => e.event)).to.deep.equal(['call.canceled']);
  });
});

forEachStore('svc dnc', (kind) => {
  it('adds, lists and removes the same list the API keeps', async () => {
    const cli = await cliHarness(kind);
    try {
      const accountId = await cli.account();
      const added = await cli.run('dnc', 'add', '--account', 'acme', '+447911123456', '--reason', 'Wrote to us', '--json');
      expect(added.json).to.deep.include({ accountId, number: '+447911123456', reason: 'Wrote to us', source: 'cli', added: true });
      expect((await cli.run('dnc', 'add', '--account', 'acme', '+447911123456')).out).to.equal('+447911123456 was already on the list of account "acme".\n');
      expect((await cli.run('dnc', 'add', '--account', 'acme', '07911123456')).code).to.equal(2);
      const listed = await cli.run('dnc', 'list', '--account', 'acme', '--json');
      expect(listed.json.map((e: { number: string }) => e.number)).to.deep.equal(['+447911123456']);
      expect((await cli.run('dnc', 'remove', '--account', 'acme', '+447911123456', '--json')).json).to.deep.equal({ accountId, number: '+447911123456', removed: true });
      expect((await cli.run('dnc', 'remove', '--account', 'acme', '+447911123456')).code).to.equal(1);
      expect(await cli.store.db.selectFrom('do_not_call').selectAll().execute()).to.deep.equal([]);
    } finally {
      await cli.close();
    }
  });
});
