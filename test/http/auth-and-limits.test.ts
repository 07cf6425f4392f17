import { expect } from 'chai';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { consumeWindow } from '../../server/src/accounts/rate-limit.js';
import { executorFor } from '../../server/src/store/prepared-query.js';

forEachStore('authentication and rate-limit headers', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startServer(kind, { SVC_UNAUTH_RATE_LIMIT: '3' });
    alice = await srv.tenant();
  });
  afterEach(() => srv.close());

  const cases: [string, Record<string, string>, string][] = [
    ['no Authorization header', {}, 'Bearer realm="svc"'],
    ['a key of the wrong form', { authorization: 'Bearer sk_live_abcdefghijklmnopqrstuvwxyz' }, 'Bearer realm="svc", error="invalid_token"'],
    ['a Basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }, 'Bearer realm="svc", error="invalid_token"'],
    ['an unknown key', { authorization: 'Bearer svc_ak_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, 'Bearer realm="svc", error="invalid_token"'],
  ];
  for (const [what, headers, challenge] of cases) {
    it(`answers ${what} with 401 unauthorized and the address's rate-limit headers`, async () => {
      const res = await srv.anon.get('/v1/agent/calls', { headers });
      expect(res.status).to.equal(401);
      expect(res.body.error).to.equal('unauthorized');
      expect(res.headers.get('www-authenticate')).to.equal(challenge);
      expect(res.headers.get('ratelimit-limit')).to.equal('3');
      expect(res.headers.get('ratelimit-remaining')).to.equal('2');
      expect(res.headers.get('ratelimit-policy')).to.equal('3;w=60');
    });
  }

  it('refuses a revoked key with 401 unauthorized', async () => {
    await srv.deps.store.db.updateTable('api_keys').set({ revoked_at: srv.clock.now() }).where('id', '=', alice.keyId).execute();
    const res = await alice.api.get('/v1/agent/calls');
    expect(res.status).to.equal(401);
    expect(res.body.error).to.equal('unauthorized');
  });

  it('throttles unauthenticated requests per address with 429 rate_limited once the window is spent', async () => {
    for (let i = 0; i < 3; i++) expect((await srv.anon.get('/v1/agent/calls')).status).to.equal(401);
    const res = await srv.anon.get('/v1/agent/calls');
    expect(res.status).to.equal(429);
    expect(res.body.error).to.equal('rate_limited');
    expect(res.headers.get('ratelimit-remaining')).to.equal('0');
    expect(res.headers.get('retry-after')).to.equal(res.headers.get('ratelimit-reset'));
  });

  it('stores only a hash of each key', async () => {
    const rows = await srv.deps.store.db.selectFrom('api_keys').selectAll().execute();
    expect(JSON.stringify(rows)).to.not.include(alice.key);
    expect(JSON.stringify(rows)).to.not.include(alice.key.slice(12));
  });

  it("reports the key's window on reads: 10;w=60 with integer Remaining and Reset", async () => {
    const res = await alice.api.get('/v1/agent/calls');
    expect(res.headers.get('ratelimit-limit')).to.equal('10');
    expect(res.headers.get('ratelimit-remaining')).to.equal('10');
    expect(res.headers.get('ratelimit-policy')).to.equal('10;w=60');
    // The test clock stands 30 s into a minute.
    expect(res.headers.get('ratelimit-reset')).to.equal('30');
  });

  it('shows placements spent in the window without spending any itself', async () => {
    for (let i = 0; i < 3; i++) await consumeWindow(executorFor(srv.deps.store.db), { bucket: `key:${alice.keyId}`, limit: 10, windowSec: 60 }, srv.clock.now());
    const first = await alice.api.get('/v1/agent/calls');
    const second = await alice.api.get('/v1/agent/calls/00000000-0000-4000-8000-000000000000');
    expect(first.headers.get('ratelimit-remaining')).to.equal('7');
    expect(second.status).to.equal(404);
    expect(second.headers.get('ratelimit-remaining')).to.equal('7');
    srv.clock.advance(30_000);
    const next = await alice.api.get('/v1/agent/calls');
    expect(next.headers.get('ratelimit-remaining')).to.equal('10');
    expect(next.headers.get('ratelimit-reset')).to.equal('60');
  });

  it("uses the key's own rate limit", async () => {
    const carol = await srv.tenant({ rateLimit: 25 });
    const res = await carol.api.get('/v1/agent/calls');
    expect(res.headers.get('ratelimit-policy')).to.equal('25;w=60');
  });

  it('carries the rate-limit headers on an unknown /v1/agent route, answered 404 not_found', async () => {
    const res = await alice.api.get('/v1/agent/nothing-here');
    expect(res.status).to.equal(404);
    expect(res.body.error).to.equal('not_found');
    expect(res.headers.get('ratelimit-policy')).to.equal('10;w=60');
  });

  it('answers an unknown route outside /v1/agent with 404 not_found', async () => {
    const res = await srv.anon.get('/nowhere');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ error: 'not_found', message: 'No route GET /nowhere.' });
    expect(res.headers.get('ratelimit-limit')).to.equal(null);
  });

  it('answers a wrong method with 405 method_not_allowed and an Allow header', async () => {
    const res = await alice.api.request('DELETE', '/v1/agent/calls');
    expect(res.status).to.equal(405);
    expect(res.body.error).to.equal('method_not_allowed');
    expect(res.headers.get('allow')).to.equal('HEAD, GET, POST');
    expect(res.headers.get('ratelimit-limit')).to.equal('10');
  });

  it('serves openapi.json without a key, with the deployment URL, the policy link and the rate-limit header names', async () => {
    const res = await fetch(`${srv.baseUrl}/openapi.json`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    const doc = await res.json();
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc.info.version).to.equal('1.0.0');
    expect(doc.servers).to.deep.equal([{ url: srv.baseUrl, description: 'This deployment.' }]);
    expect(doc.info['x-versioning-policy']).to.equal(`${srv.baseUrl}/docs/versioning`);
    expect(doc.info['x-rate-limit-headers']).to.deep.equal(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'Retry-After']);
    expect(Object.keys(doc.webhooks)).to.deep.equal([
      'call.in_progress',
      'call.completed',
      'call.no_answer',
      'call.voicemail',
      'call.declined',
      'call.failed',
      'call.canceled',
      'batch.completed',
      'batch.canceled',
      'batch.stopped',
    ]);
  });

  it('serves the versioning policy page it links as text/html', async () => {
    const doc = await (await fetch(`${srv.baseUrl}/openapi.json`)).json();
    const res = await fetch(doc.info['x-versioning-policy']);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(await res.text()).to.include('at least 90 days');
  });

  it('carries no deprecation headers on v1 routes, none of which is deprecated', async () => {
    const res = await alice.api.get('/v1/agent/calls');
    expect(res.headers.get('deprecation')).to.equal(null);
    expect(res.headers.get('sunset')).to.equal(null);
    expect(res.headers.get('link')).to.equal(null);
  });
});
