import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { readiness } from '../../../server/src/http/observability/operations-routes.js';
import { Migrator } from 'kysely';
import { migrationProvider, migrations } from '../../../server/src/store/migrations/index.js';
import { migrate } from '../../../server/src/store/store.js';
import { openStore } from '../../../server/src/store/open-store.js';
import { forEachStore, freshStore, PG_URL, postgresAvailable, type TestStore } from '../../support/stores.js';
import { observedApp, type ObservedApp } from './observed-app.js';

const ok = { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday and until what time.' };

/** The value of one sample of the exposition text, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

forEachStore('health, readiness and metrics', (kind) => {
  let ts: TestStore;
  let app: ObservedApp;
  beforeEach(async () => {
    ts = await freshStore(kind);
    app = await observedApp(ts.store);
  });
  afterEach(async () => {
    await app.close();
    await ts.drop();
  });

  it('answers /healthz with 200 {"status":"ok"}, uncached, without a key', async () => {
    const res = await fetch(`${app.baseUrl}/healthz`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(await res.json()).to.deep.equal({ status: 'ok' });
  });

  it('answers /readyz with 200 {"status":"ready"} when the store answers and every migration is applied', async () => {
    const res = await fetch(`${app.baseUrl}/readyz`);
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ status: 'ready' });
  });

  it('answers /readyz with 503 store_unreachable once the store is closed, while /healthz stays 200', async () => {
    const dead = await freshStore(kind);
    await dead.store.close();
    const other = await observedApp(dead.store);
    try {
      const res = await fetch(`${other.baseUrl}/readyz`);
      expect(res.status).to.equal(503);
      expect(await res.json()).to.deep.equal({ status: 'unavailable', reason: 'store_unreachable' });
      expect((await fetch(`${other.baseUrl}/healthz`)).status).to.equal(200);
      const metrics = await (await fetch(`${other.baseUrl}/metrics`)).text();
      expect(sample(metrics, 'svc_store_up')).to.equal(0);
      expect(sample(metrics, 'svc_engine_queue_depth')).to.equal(undefined);
    } finally {
      await other.close();
      if (kind === 'postgres') await dead.drop().catch(() => {});
    }
  });

  it('counts requests by operation and status, and reads calls and the engine queue from the store after a call is placed', async () => {
    const { key } = await app.tenant();
    const before = await (await fetch(`${app.baseUrl}/metrics`)).text();
    expect(sample(before, 'svc_store_up')).to.equal(1);
    expect(sample(before, 'svc_calls{status="queued"}')).to.equal(0);
    expect(sample(before, 'svc_engine_queue_depth')).to.equal(0);
    expect(sample(before, 'svc_engine_queue_lag_seconds')).to.equal(0);
    expect(sample(before, 'svc_http_requests_total{operation="placeCall",status="202"}')).to.equal(undefined);

    const placed = await fetch(`${app.baseUrl}/v1/agent/calls`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(ok),
    });
    expect(placed.status).to.equal(202);
    await fetch(`${app.baseUrl}/v1/agent/calls`, { headers: { Authorization: 'Bearer svc_ak_not-a-real-key-at-all' } });
    app.clock.advance(7_500);

    const res = await fetch(`${app.baseUrl}/metrics`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/plain; version=0.0.4; charset=utf-8');
    const after = await res.text();
    expect(sample(after, 'svc_calls{status="queued"}')).to.equal(1);
    expect(sample(after, 'svc_calls{status="completed"}')).to.equal(0);
    expect(sample(after, 'svc_engine_queue_depth')).to.equal(1);
    expect(sample(after, 'svc_engine_queue_lag_seconds')).to.equal(7.5);
    expect(sample(after, 'svc_http_requests_total{operation="placeCall",status="202"}')).to.equal(1);
    expect(sample(after, 'svc_http_requests_total{operation="listCalls",status="401"}')).to.equal(1);
    expect(sample(after, 'svc_http_requests_total{operation="metrics",status="200"}')).to.equal(1);
    expect(sample(after, 'svc_http_request_duration_seconds_count{operation="placeCall"}')).to.equal(1);
    expect(sample(after, 'svc_http_request_duration_seconds_bucket{le="+Inf",operation="placeCall"}')).to.equal(1);
    expect(after).to.match(/^svc_process_cpu_user_seconds_total \d/m);
  });

  it('counts webhook attempts by outcome from the store', async () => {
    const attempt = (event_id: string, attempt: number, status_code: number | null) =>
      ts.store.db
        .insertInto('webhook_attempts')
        .values({ event_id, attempt, at: app.clock.now(), status_code, latency_ms: 12, error: status_code ? null : 'timeout' })
        .execute();
    await attempt('e1', 1, null);
    await attempt('e1', 2, 503);
    await attempt('e1', 3, 200);
    await attempt('e2', 1, 204);
    await attempt('e3', 1, 301);
    const text = await (await fetch(`${app.baseUrl}/metrics`)).text();
    expect(sample(text, 'svc_webhook_attempts_total{outcome="success"}')).to.equal(2);
    expect(sample(text, 'svc_webhook_attempts_total{outcome="http_error"}')).to.equal(2);
    expect(sample(text, 'svc_webhook_attempts_total{outcome="error"}')).to.equal(1);
  });

  it('counts the attempts an event no longer keeps too, so the counter never goes down', async () => {
    await ts.store.db.insertInto('webhook_attempts').values({ event_id: 'e1', attempt: 1, at: app.clock.now(), status_code: 500, latency_ms: 12, error: null }).execute();
    await ts.store.db
      .insertInto('webhook_attempts_omitted')
      .values([
        { event_id: 'e1', outcome: 'http_error', attempts: 7 },
        { event_id: 'e1', outcome: 'error', attempts: 2 },
        { event_id: 'e2', outcome: 'http_error', attempts: 3 },
      ])
      .execute();
    const text = await (await fetch(`${app.baseUrl}/metrics`)).text();
    expect(sample(text, 'svc_webhook_attempts_total{outcome="success"}')).to.equal(0);
    expect(sample(text, 'svc_webhook_attempts_total{outcome="http_error"}')).to.equal(11);
    expect(sample(text, 'svc_webhook_attempts_total{outcome="error"}')).to.equal(2);
  });
});

describe('readiness on a store that cannot serve', () => {
  it('answers 503 migrations_pending while a migration is missing', async () => {
    const store = openStore({ sqlitePath: ':memory:' });
    const app = await observedApp(store);
    try {
      expect(Object.keys(await migrationProvider.getMigrations()).length).to.be.greaterThan(0);
      const res = await fetch(`${app.baseUrl}/readyz`);
      expect(res.status).to.equal(503);
      expect(await res.json()).to.deep.equal({ status: 'unavailable', reason: 'migrations_pending' });
      expect(app.lines.map((l) => JSON.parse(l)).find((r) => r.msg === 'not ready')).to.include({ reason: 'migrations_pending', level: 40 });
    } finally {
      await app.close();
      await store.close();
    }
  });

  it('answers 503 migrations_pending while only the newest migration is missing, and 200 once it is applied', async () => {
    const store = openStore({ sqlitePath: ':memory:' });
    const names = Object.keys(migrations);
    const { error } = await new Migrator({ db: store.db, provider: migrationProvider }).migrateTo(names[names.length - 2]);
    expect(error).to.equal(undefined);
    const app = await observedApp(store);
    try {
      const res = await fetch(`${app.baseUrl}/readyz`);
      expect(res.status).to.equal(503);
      expect(await res.json()).to.deep.equal({ status: 'unavailable', reason: 'migrations_pending' });
      await migrate(store);
      expect((await fetch(`${app.baseUrl}/readyz`)).status).to.equal(200);
    } finally {
      await app.close();
      await store.close();
    }
  });

  it('answers 503 migrations_pending on an empty Postgres schema', async function () {
    if (!(await postgresAvailable())) {
      if (process.env.SVC_TEST_POSTGRES === 'required') throw new Error(`Postgres is required but not reachable at ${PG_URL}`);
      this.skip();
    }
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const store = openStore({ postgresUrl: `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`, poolSize: 1 });
    const app = await observedApp(store);
    try {
      const res = await fetch(`${app.baseUrl}/readyz`);
      expect(res.status).to.equal(503);
      expect(await res.json()).to.deep.equal({ status: 'unavailable', reason: 'migrations_pending' });
    } finally {
      await app.close();
      await store.close();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    }
  });

  it('answers 503 store_unreachable when Postgres refuses connections', async () => {
    const store = openStore({ postgresUrl: 'postgres://postgres@127.0.0.1:1/test', poolSize: 1 });
    const app = await observedApp(store);
    try {
      const res = await fetch(`${app.baseUrl}/readyz`);
      expect(res.status).to.equal(503);
      expect(await res.json()).to.deep.equal({ status: 'unavailable', reason: 'store_unreachable' });
    } finally {
      await app.close();
      await store.close();
    }
  });
});

describe('readiness on a store that does not answer', () => {
  it('is store_unreachable once the deadline passes, without waiting for the driver to give up', async () => {
    const sockets = new Set<Socket>();
    const silent = createNetServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    const store = openStore({ postgresUrl: `postgres://postgres@127.0.0.1:${(silent.address() as AddressInfo).port}/test`, poolSize: 1 });
    try {
      expect(await readiness(store, 150)).to.deep.equal({ ready: false, reason: 'store_unreachable' });
      expect(sockets.size).to.equal(1);
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
      await store.close();
    }
  });
});
