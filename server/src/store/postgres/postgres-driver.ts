// The Postgres driver, for several processes sharing one database: a pool of connections, reads and write units
// run at once, advisory locks for what must not interleave across processes (an account's minute cap, the dev
// seed), and claims that skip the rows another worker is claiming (FOR UPDATE SKIP LOCKED).
import { CompiledQuery, Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import { claimQuery } from '../due-claims.js';
import { executorFor } from '../prepared-query.js';
import type { Database } from '../schema.js';
import type { Store, WriteScope } from '../store.js';

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
  const scope: WriteScope = {
    ex: executorFor(db),
    atomically: (lockKey, fn) =>
      db.transaction().execute(async (trx) => {
        if (lockKey !== null) await advisoryLock(trx, lockKey);
        return fn(executorFor(trx, db));
      }),
  };
  return {
    db,
    kind: 'postgres',
    read: async (text, params) => (await db.executeQuery(CompiledQuery.raw(text, params as unknown[]))).rows as never[],
    write: (unit) => unit(scope),
    claimDue: (claim) => claimQuery(db, claim, (due) => due.forUpdate().skipLocked()).execute() as Promise<never[]>,
    locked: (key, fn) =>
      db.transaction().execute(async (trx) => {
        await advisoryLock(trx, key);
        return fn(trx);
      }),
    close: () => db.destroy(),
  };
}
