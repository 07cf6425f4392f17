// The Postgres driver, for several processes sharing one database: a pool of connections, reads and write units
// run at once, advisory locks for what must not interleave across processes (an account's minute cap, the dev
// seed; units of one key queue in the process first, key-queue.ts), and claims that skip the rows another worker
// is claiming (FOR UPDATE SKIP LOCKED).
import { CompiledQuery, Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import { claimQuery } from '../due-claims.js';
import { updateLeasedRows } from '../leased-updates.js';
import { executorFor } from '../prepared-query.js';
import type { Database } from '../schema.js';
import type { Executor, LeasedUpdate, QueueTableName, Store, WriteScope } from '../store.js';
import { Wakes } from '../wakes.js';
import { KeyQueue } from './key-queue.js';
import { PgWakes } from './pg-wakes.js';

/** Postgres pool settings (SVC_PG_POOL_MAX, SVC_PG_IDLE_TIMEOUT_MS, SVC_PG_CONNECT_TIMEOUT_MS). */
export interface PoolSettings {
  /** Most connections open at once; default 10. N processes open up to N times this. */
  poolSize?: number;
  /** An idle connection is closed after this long (0: kept); default 30 s. */
  idleTimeoutMs?: number;
  /** How long a query waits for a connection, new or freed from a full pool, before failing; default 5 s. */
  connectTimeoutMs?: number;
}

export interface PostgresTarget extends PoolSettings {
  postgresUrl: string;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

export function openPostgres(target: PostgresTarget): Store {
  const pool = new pg.Pool({
    connectionString: target.postgresUrl,
    max: target.poolSize ?? 10,
    connectionTimeoutMillis: target.connectTimeoutMs ?? 5000,
    idleTimeoutMillis: target.idleTimeoutMs ?? 30000,
    // Epoch-millisecond bigints fit a JS number exactly; parse them as numbers, not strings.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID || oid === NUMERIC_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection must not crash the process; the next query reports the fault.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const advisoryLock = (trx: Transaction<Database>, key: string) => sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
  const transaction = <T>(lockKey: string | null, fn: (ex: Executor) => Promise<T>) =>
    db.transaction().execute(async (trx) => {
      if (lockKey !== null) await advisoryLock(trx, lockKey);
      return fn(executorFor(trx, db));
    });
  const underKey = new KeyQueue();
  const scope: WriteScope = {
    ex: executorFor(db),
    atomically: (lockKey, fn) => (lockKey === null ? transaction(null, fn) : underKey.run(lockKey, () => transaction(lockKey, fn))),
  };
  const wakes = new Wakes(new PgWakes(target.postgresUrl));
  return {
    db,
    kind: 'postgres',
    read: async (text, params) => (await db.executeQuery(CompiledQuery.raw(text, params as unknown[]))).rows as never[],
    write: (unit) => unit(scope),
    claimDue: (claim) => claimQuery(db, claim, (due) => due.forUpdate().skipLocked()).execute() as Promise<never[]>,
    updateLeased: (ex, table, owner, updates) => updateLeasedByShape(db, ex, table, owner, updates),
    locked: (key, fn) =>
      db.transaction().execute(async (trx) => {
        await advisoryLock(trx, key);
        return fn(trx);
      }),
    wake: (topic) => wakes.wake(topic),
    onWake: (topic, fn) => wakes.onWake(topic, fn),
    close: async () => {
      await wakes.close();
      await db.destroy();
      // Kysely ends the pool only when it has run a query; a store closed before its first one must refuse
      // queries after it too (readiness reports a closed store as unreachable).
      if (!pool.ending) await pool.end();
    },
  };
}

/**
 * Leased rows that set the same columns are written by one statement: each row's new values come as JSON, typed
 * by the table's own row type (jsonb_populate_record), so a burst of the dispatcher's records costs one round trip
 * rather than one each. A shape of one row is updated on its own. Each row's fence (owner and lease expiry) comes
 * with it rather than as a constant: with a constant owner, the planner reaches the rows through the lease-owner
 * index and reads its entries for the owner's every earlier claim (dead versions until VACUUM) each time; joined,
 * it reaches each by its key.
 */
async function updateLeasedByShape<Row>(
  db: Kysely<Database>,
  ex: Executor,
  table: { table: QueueTableName; key: string },
  owner: string,
  updates: readonly LeasedUpdate[],
): Promise<(Row | undefined)[]> {
  const shapes = new Map<string, number[]>();
  updates.forEach((u, i) => {
    const shape = Object.keys(u.set).sort().join(',');
    shapes.set(shape, [...(shapes.get(shape) ?? []), i]);
  });
  const written = new Map<string, Row>();
  for (const indexes of shapes.values()) {
    const rows = indexes.map((i) => updates[i]);
    if (rows.length === 1) {
      const [row] = await updateLeasedRows<Row>(ex, table, owner, rows);
      if (row) written.set(rows[0].key, row);
      continue;
    }
    const query = shapeUpdate<Row>(table, owner, rows).compile(db);
    for (const r of (await ex.run(query.sql, query.parameters)) as Row[]) written.set((r as Record<string, string>)[table.key], r);
  }
  return updates.map((u) => written.get(u.key));
}

/** One statement updating leased rows that set the same columns, each fenced by its claim. */
export function shapeUpdate<Row>(table: { table: QueueTableName; key: string }, owner: string, rows: readonly LeasedUpdate[]) {
  const t = sql.table(table.table);
  const items = JSON.stringify(rows.map((u) => ({ k: u.key, owner, fence: u.leaseExpiresAt, item: u.set })));
  const assignments = sql.join(
    Object.keys(rows[0]!.set)
      .sort()
      .map((c) => sql`${sql.ref(c)} = r.${sql.ref(c)}`),
  );
  return sql<Row>`update ${t} as t set ${assignments}
    from (select * from jsonb_to_recordset(${items}::jsonb) as v(k text, owner text, fence bigint, item jsonb) limit ${rows.length}) as v
    cross join lateral jsonb_populate_record(null::${t}, v.item) as r
    where t.${sql.ref(table.key)} = v.k and t.lease_owner = v.owner and t.lease_expires_at = v.fence
    returning t.*`;
}
