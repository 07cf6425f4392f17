import { expect } from 'chai';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { loadDocument } from '../../server/src/contract/openapi-document.js';
import { createApp } from '../../server/src/compose.js';
import { migrate, type Store } from '../../server/src/store/store.js';
import { openStore } from '../../server/src/store/open-store.js';
import SQLite from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiClient } from '../support/contract.js';

forEachStore('malformed requests and faults', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startServer(
      kind,
      {},
      {
        handlers: {
          getCall: async () => {
            throw new Error('boom at /srv/secret/path with password hunter2');
          },
        },
      },
    );
    alice = await srv.tenant();
  });
  afterEach(() => srv.close());

  it('answers malformed JSON with 400 invalid_json', async () => {
    const res = await alice.api.post('/v1/agent/calls', { rawBody: '{"to": "+1415', headers: { 'content-type': 'application/json' } });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ error: 'invalid_json', message: 'The request body is not valid JSON: it ends before the JSON value is complete.' });
    expect(res.headers.get('ratelimit-policy')).to.equal('10;w=60');
    const quoted = await alice.api.post('/v1/agent/calls', { rawBody: "{\n  'to': '+14155550123'\n}", headers: { 'content-type': 'application/json' } });
    expect(quoted.body).to.deep.equal({ error: 'invalid_json', message: 'The request body is not valid JSON: unexpected "\'" at line 2, column 3.' });
  });

  it('answers a body over 64 KiB with 413 payload_too_large', async () => {
    const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'x'.repeat(70_000) } });
    expect(res.status).to.equal(413);
    expect(res.body).to.deep.equal({ error: 'payload_too_large', message: 'The request body is larger than 64 KiB.' });
  });

  it('answers a body that is not JSON with 415 unsupported_media_type', async () => {
    const res = await alice.api.post('/v1/agent/calls', { rawBody: 'to=+14155550123', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).to.equal(415);
    expect(res.body.error).to.equal('unsupported_media_type');
  });

  it('answers an unexpected fault with 500 internal_error and no internals in the message', async () => {
    const res = await alice.api.get('/v1/agent/calls/00000000-0000-4000-8000-000000000000');
    expect(res.status).to.equal(500);
    expect(res.body).to.deep.equal({ error: 'internal_error', message: 'An unexpected error occurred; it has been logged.' });
    expect(res.text).to.not.match(/boom|secret|hunter2/);
  });

  async function withStore(dead: Store, run: (api: ReturnType<typeof apiClient>) => Promise<void>) {
    const server = createApp({ ...srv.deps, store: dead }).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      await run(apiClient(`http://127.0.0.1:${(server.address() as { port: number }).port}`, alice.key));
    } finally {
      server.close();
    }
  }

  it('answers with 503 store_error and Retry-After when the store is unreachable', async () => {
    let dead: Store;
    if (kind === 'sqlite') {
      dead = openStore({ sqlitePath: ':memory:' });
      await dead.close();
    } else {
      dead = openStore({ postgresUrl: 'postgres://postgres@127.0.0.1:1/test' });
    }
    await withStore(dead, async (api) => {
      const res = await api.get('/v1/agent/calls');
      expect(res.status).to.equal(503);
      expect(res.body).to.deep.equal({ error: 'store_error', message: 'The store is temporarily unavailable; retry shortly.' });
      expect(res.headers.get('retry-after')).to.equal('1');
    });
    await dead.close();
  });

  if (kind === 'sqlite') {
    it('answers with 503 store_error when the database is locked by another writer', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-busy-'));
      const busy = openStore({ sqlitePath: join(dir, 'svc.db'), busyTimeoutMs: 50 });
      await migrate(busy);
      await busy.db
        .insertInto('accounts')
        .values(await srv.deps.store.db.selectFrom('accounts').selectAll().where('id', '=', alice.accountId).executeTakeFirstOrThrow())
        .execute();
      await busy.db
        .insertInto('api_keys')
        .values(await srv.deps.store.db.selectFrom('api_keys').selectAll().where('id', '=', alice.keyId).executeTakeFirstOrThrow())
        .execute();
      const locker = new SQLite(join(dir, 'svc.db'));
      locker.exec('BEGIN EXCLUSIVE');
      try {
        await withStore(busy, async (api) => {
          const res = await api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask about Sunday opening hours.' } });
          expect(res.status).to.equal(503);
          expect(res.body.error).to.equal('store_error');
          expect(res.headers.get('retry-after')).to.equal('1');
        });
      } finally {
        locker.exec('ROLLBACK');
        locker.close();
        await busy.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe('deprecation headers and start-up checks', () => {
  function fixture(mark?: object) {
    const doc = loadDocument();
    if (mark) (doc.paths['/v1/agent/calls/{id}'].get as any)['x-deprecation'] = mark;
    return doc;
  }
  let srv: TestServer | undefined;
  afterEach(async () => {
    await srv?.close();
    srv = undefined;
  });

  it('marks every response of a deprecated operation with Deprecation, Sunset and Link, and no other route', async () => {
    srv = await startServer('sqlite', {}, { document: fixture({ at: '2027-01-01T00:00:00Z', sunset: '2027-06-01T00:00:00Z', successor: '/v2/agent/calls/{id}' }) });
    const alice = await srv.tenant();
    const res = await alice.api.get('/v1/agent/calls/00000000-0000-4000-8000-000000000000');
    expect(res.status).to.equal(404);
    expect(res.headers.get('deprecation')).to.equal('@1798761600');
    expect(res.headers.get('sunset')).to.equal('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(res.headers.get('link')).to.equal(
      `<${srv.baseUrl}/docs/versioning>; rel="deprecation"; type="text/html", <${srv.baseUrl}/v2/agent/calls/00000000-0000-4000-8000-000000000000>; rel="successor-version"`,
    );
    const other = await alice.api.get('/v1/agent/calls');
    expect(other.headers.get('deprecation')).to.equal(null);
    expect(other.headers.get('sunset')).to.equal(null);
    expect(other.headers.get('link')).to.equal(null);
  });

  it('omits the successor link when the operation has no successor', async () => {
    srv = await startServer('sqlite', {}, { document: fixture({ at: '2027-01-01T00:00:00Z', sunset: '2027-04-01T00:00:00Z' }) });
    const alice = await srv.tenant();
    const res = await alice.api.get('/v1/agent/calls/00000000-0000-4000-8000-000000000000');
    expect(res.headers.get('link')).to.equal(`<${srv.baseUrl}/docs/versioning>; rel="deprecation"; type="text/html"`);
  });

  it('refuses to start when the sunset is less than 90 days after the deprecation date', async () => {
    srv = await startServer('sqlite');
    const deps = srv.deps;
    expect(() => createApp(deps, { document: fixture({ at: '2027-01-01T00:00:00Z', sunset: '2027-03-31T00:00:00Z' }) })).to.throw(
      'getCall: sunset 2027-03-31T00:00:00Z must be at least 90 days after deprecation 2027-01-01T00:00:00Z',
    );
  });

  it('refuses to start when an operation has no handler', async () => {
    srv = await startServer('sqlite');
    const doc = fixture();
    (doc.paths['/v1/agent/calls/{id}'] as any).delete = { operationId: 'deleteCall', responses: { '204': { description: 'gone' } } };
    expect(() => createApp(srv!.deps, { document: doc })).to.throw('operation deleteCall (DELETE /v1/agent/calls/{id}) has no handler');
  });
});
