// Several processes start against one fresh Postgres schema at once: each migrates, one runs the migrations and
// the others wait on kysely's lock, then find them applied. And the pool settings of SVC_PG_* reach the pool.
import { expect } from 'chai';
import { sql } from 'kysely';
import { loadConfig } from '../../server/src/config.js';
import { migrations } from '../../server/src/store/migrations/index.js';
import { storeFor } from '../../server/src/store/open-store.js';
import { migrate, migrationsApplied, type Store } from '../../server/src/store/store.js';
import { openStore } from '../../server/src/store/open-store.js';
import { emptySchema, requirePostgres, type EmptySchema } from './support/pg-schema.js';

describe('Postgres pooling and migrations from several processes', function () {
  this.timeout(60_000);
  let schema: EmptySchema;
  const stores: Store[] = [];
  before(async function () {
    await requirePostgres(this);
    schema = await emptySchema();
  });
  after(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    await schema?.drop();
  });

  it('migrates a fresh schema once when four stores on separate pools migrate it at the same moment', async () => {
    for (let i = 0; i < 4; i++) stores.push(openStore({ postgresUrl: schema.url, poolSize: 2 }));
    const outcomes = await Promise.allSettled(stores.map((s) => migrate(s)));
    expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(stores[0].db);
    expect(applied.rows.map((r) => r.name)).to.deep.equal(Object.keys(migrations).sort());
    for (const s of stores) expect(await migrationsApplied(s)).to.equal(true);
    const tables = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_schema = ${schema.name} and table_name = 'calls'`.execute(stores[0].db);
    expect(tables.rows[0].n).to.equal(1);
  });

  it('reads SVC_PG_POOL_MAX, SVC_PG_IDLE_TIMEOUT_MS and SVC_PG_CONNECT_TIMEOUT_MS, with defaults 10, 30 s and 5 s', () => {
    const defaults = loadConfig({});
    expect([defaults.pgPoolMax, defaults.pgIdleTimeoutMs, defaults.pgConnectTimeoutMs]).to.deep.equal([10, 30_000, 5000]);
    const set = loadConfig({ SVC_PG_POOL_MAX: '3', SVC_PG_IDLE_TIMEOUT_MS: '0', SVC_PG_CONNECT_TIMEOUT_MS: '250' });
    expect([set.pgPoolMax, set.pgIdleTimeoutMs, set.pgConnectTimeoutMs]).to.deep.equal([3, 0, 250]);
    expect(() => loadConfig({ SVC_PG_POOL_MAX: '0' })).to.throw('SVC_PG_POOL_MAX must be an integer of at least 1, got "0"');
  });

  it('opens at most SVC_PG_POOL_MAX connections however many queries run at once', async () => {
    const store = storeFor(loadConfig({ DATABASE_URL: schema.url, SVC_PG_POOL_MAX: '2' }));
    stores.push(store);
    const pids = await Promise.all(Array.from({ length: 8 }, () => sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`.execute(store.db).then((r) => r.rows[0].pid)));
    expect(new Set(pids).size).to.equal(2);
  });

  it('fails a query that waits longer than SVC_PG_CONNECT_TIMEOUT_MS for a connection from a full pool', async () => {
    const store = storeFor(loadConfig({ DATABASE_URL: schema.url, SVC_PG_POOL_MAX: '1', SVC_PG_CONNECT_TIMEOUT_MS: '100' }));
    stores.push(store);
    let release!: () => void;
    const held = store.db.connection().execute(async (conn) => {
      await sql`select 1`.execute(conn);
      await new Promise<void>((r) => (release = r));
    });
    while (!release) await new Promise((r) => setTimeout(r, 5));
    const waiting = await sql`select 1`.execute(store.db).then(
      () => 'answered',
      (e: Error) => e.message,
    );
    release();
    await held;
    expect(waiting).to.equal('timeout exceeded when trying to connect');
  });
});
