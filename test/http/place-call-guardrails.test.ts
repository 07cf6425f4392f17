import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACCEPTED, BLOCKED, blockedMessage } from '../placement/destination-cases.js';
import { ACCEPTED_WEBHOOK_URLS, REJECTED_WEBHOOK_URLS } from '../placement/webhook-url-cases.js';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { refusedFor } from '../support/problems.js';

const objective = 'Ask whether the shop is open on Sunday and until what time.';
const ok = { to: '+14155550123', objective };

// One server per describe: every case places at most one call to its own number, so they cannot disturb each other.
function withServer(kind: Parameters<typeof startServer>[0], env: () => Record<string, string> = () => ({})) {
  const ctx = {} as { srv: TestServer; tenant: TestTenant };
  before(async () => {
    ctx.srv = await startServer(kind, env());
    ctx.tenant = await ctx.srv.tenant({ rateLimit: 100_000, planMinutes: 100_000 });
  });
  after(() => ctx.srv.close());
  return ctx;
}

async function callsTo(srv: TestServer, to: string): Promise<number> {
  const row = await srv.deps.store.db
    .selectFrom('calls')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('to_number', '=', to)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

forEachStore('placement guardrails', (kind) => {
  describe('destinations, with the shipped IRSF list', () => {
    const ctx = withServer(kind);

    for (const c of BLOCKED) {
      it(`rejects ${c.what} with 400 destination_blocked and creates nothing`, async () => {
        const res = await ctx.tenant.api.post('/v1/agent/calls', { body: { ...ok, to: c.to } });
        expect(res.status).to.equal(400);
        expect(res.body.error).to.equal('destination_blocked');
        expect(res.body.message).to.be.a('string').and.include(c.to);
        expect(await callsTo(ctx.srv, c.to)).to.equal(0);
      });
    }

    for (const c of ACCEPTED) {
      it(`accepts ${c.what} with 202 and queues the call to it`, async () => {
        const res = await ctx.tenant.api.post('/v1/agent/calls', { body: { ...ok, to: c.to } });
        expect(res.status).to.equal(202);
        expect(res.body.status).to.equal('queued');
        const row = await ctx.srv.deps.store.db.selectFrom('calls').selectAll().where('id', '=', res.body.callId).executeTakeFirstOrThrow();
        expect(row).to.include({ to_number: c.to, status: 'queued' });
      });
    }
  });

  describe('destinations, with a custom IRSF list (SVC_IRSF_PATH) that replaces the shipped one', () => {
    let dir: string;
    const ctx = withServer(kind, () => {
      dir = mkdtempSync(join(tmpdir(), 'svc-irsf-'));
      const path = join(dir, 'irsf.txt');
      writeFileSync(path, '# test list\n\n+1416555   # a Toronto range, inside an allowed country\n');
      return { SVC_IRSF_PATH: path };
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('rejects a Canada number in the listed prefix with 400 destination_blocked and creates nothing', async () => {
      const res = await ctx.tenant.api.post('/v1/agent/calls', { body: { ...ok, to: '+14165550123' } });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal(refusedFor({ error: 'destination_blocked', message: 'Calls to +14165550123 are blocked: the number is in a range listed for revenue-share fraud.', field: 'to' }));
      expect(await callsTo(ctx.srv, '+14165550123')).to.equal(0);
    });

    it('accepts a Canada number just outside the listed prefix with 202', async () => {
      const res = await ctx.tenant.api.post('/v1/agent/calls', { body: { ...ok, to: '+14165560123' } });
      expect(res.status).to.equal(202);
      expect(await callsTo(ctx.srv, '+14165560123')).to.equal(1);
    });

    // The custom list lists none of these, so each message names the rule that blocked it: the region for Jamaica,
    // which the shipped list would also have caught, and no country at all for +870..+883.
    for (const c of BLOCKED) {
      it(`rejects ${c.what} by its ${c.rule === 'region' ? `region ${c.region}` : c.rule === 'revenue_share' ? 'number type' : 'missing country'}`, async () => {
        const res = await ctx.tenant.api.post('/v1/agent/calls', { body: { ...ok, to: c.to } });
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal(refusedFor({ error: 'destination_blocked', message: blockedMessage(c), field: 'to' }));
      });
    }
  });

  describe('webhookUrl', () => {
    const ctx = withServer(kind);

    for (const [url, what, message] of REJECTED_WEBHOOK_URLS) {
      it(`rejects a webhookUrl with ${what} (${url}) with 400 invalid_webhook_url and creates nothing`, async () => {
        const to = '+12125550142';
        const res = await ctx.tenant.api.post('/v1/agent/calls', { body: { to, objective, webhookUrl: url } });
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal(refusedFor({ error: 'invalid_webhook_url', message, field: 'webhookUrl' }));
        expect(await callsTo(ctx.srv, to)).to.equal(0);
      });
    }

    for (const [url, what] of ACCEPTED_WEBHOOK_URLS) {
      it(`accepts a webhookUrl with ${what} (${url}) with 202 and stores it`, async () => {
        const res = await ctx.tenant.api.post('/v1/agent/calls', { body: { ...ok, webhookUrl: url } });
        expect(res.status).to.equal(202);
        const row = await ctx.srv.deps.store.db.selectFrom('calls').selectAll().where('id', '=', res.body.callId).executeTakeFirstOrThrow();
        expect(row.webhook_url).to.equal(url);
      });
    }

    it('rejects http://127.0.0.1:9999/h with 400 invalid_webhook_url when private webhooks are not allowed', async () => {
      const res = await ctx.tenant.api.post('/v1/agent/calls', { body: { ...ok, webhookUrl: 'http://127.0.0.1:9999/h' } });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('invalid_webhook_url');
    });
  });

  describe('webhookUrl with SVC_WEBHOOK_ALLOW_PRIVATE=1', () => {
    const ctx = withServer(kind, () => ({ SVC_WEBHOOK_ALLOW_PRIVATE: '1' }));

    for (const url of ['http://127.0.0.1:9999/h', 'https://localhost/h', 'http://10.0.0.1/h']) {
      it(`accepts ${url} with 202 and stores it`, async () => {
        const res = await ctx.tenant.api.post('/v1/agent/calls', { body: { ...ok, webhookUrl: url } });
        expect(res.status).to.equal(202);
        const row = await ctx.srv.deps.store.db.selectFrom('calls').selectAll().where('id', '=', res.body.callId).executeTakeFirstOrThrow();
        expect(row.webhook_url).to.equal(url);
      });
    }

    it('still rejects a webhookUrl with credentials with 400 invalid_webhook_url', async () => {
      const res = await ctx.tenant.api.post('/v1/agent/calls', { body: { ...ok, webhookUrl: 'http://user:pw@127.0.0.1:9999/h' } });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('invalid_webhook_url');
    });

    it('still rejects a webhookUrl that is not a URL with 400 invalid_webhook_url', async () => {
      const res = await ctx.tenant.api.post('/v1/agent/calls', { body: { ...ok, webhookUrl: 'not a url' } });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('invalid_webhook_url');
    });
  });
});
