// Opens the store: SQLite through better-sqlite3 (WAL) by default, Postgres when given a postgres:// URL.
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import { FifoLock, FifoSqliteDialect } from './fifo-sqlite-dialect.js';
import { GroupedReads } from './grouped-reads.js';
import { WriteBatches } from './write-batches.js';
import { BACKSTOP_PAGES, WalCheckpointer } from './wal-checkpointer.js';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';
import { migrationProvider } from './migrations/index.js';
import type { Database } from './schema.js';

export interface Store {
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  /** SQLite: the API's hot reads, grouped by event-loop turn (see grouped-reads.ts). Postgres: none. */
  groupedReads?: GroupedReads;
  /** SQLite: units of write work (placements), batched by event-loop turn (see write-batches.ts). Postgres: none. */
  writeBatches?: WriteBatches;
  close(): Promise<void>;
}

export type StoreTarget = ({ sqlitePath: string; busyTimeoutMs?: number } & CheckpointSettings) | ({ postgresUrl: string } & PoolSettings);

/** SQLite files: who checkpoints the write-ahead log (see wal-checkpointer.ts). */
export interface CheckpointSettings {
  /** A worker thread, instead of the COMMIT that fills the log (the service: its event loop never waits for it). */
  checkpointInBackground?: boolean;
  onCheckpointError?(message: string): void;
}

/** Postgres pool settings (SVC_PG_POOL_MAX, SVC_PG_IDLE_TIMEOUT_MS, SVC_PG_CONNECT_TIMEOUT_MS). */
export interface PoolSettings {
  /** Most connections open at once; default 10. N processes open up to N times this. */
  poolSize?: number;
  /** An idle connection is closed after this long (0: kept); default 30 s. */
  idleTimeoutMs?: number;
  /** How long a query waits for a connection, new or freed from a full pool, before failing; default 5 s. */
  connectTimeoutMs?: number;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

export function openStore(target: StoreTarget): Store {
  if ('sqlitePath' in target) {
    if (target.sqlitePath !== ':memory:') mkdirSync(dirname(target.sqlitePath), { recursive: true });
    const inMemory = target.sqlitePath === ':memory:';
    const database = openSqlite(target.sqlitePath, target.busyTimeoutMs);
    const prepare = cachedPrepare(database);
    const lock = new FifoLock();
    const db = new Kysely<Database>({ dialect: new FifoSqliteDialect({ database: { prepare, close: () => database.close() } }, lock) });
    // An in-memory database exists only on its one connection; a file gets a second one for the grouped reads.
    const reader = inMemory ? undefined : openSqlite(target.sqlitePath, target.busyTimeoutMs, true);
    const groupedReads = reader ? new GroupedReads(reader, cachedPrepare(reader)) : new GroupedReads(database, prepare, lock);
    const writeBatches = new WriteBatches(database, prepare, db, lock);
    const checkpointer = target.checkpointInBackground && !inMemory ? new WalCheckpointer(target.sqlitePath, { onError: target.onCheckpointError }) : undefined;
    if (checkpointer) database.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    return {
      db,
      dialect: 'sqlite',
      groupedReads,
      writeBatches,
      close: async () => {
        await writeBatches.close();
        await groupedReads.close();
        await db.destroy();
        await checkpointer?.close();
      },
    };
  }
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
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

function openSqlite(path: string, busyTimeoutMs = 5000, readOnly = false): SQLite.Database {
  const database = new SQLite(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma(`busy_timeout = ${busyTimeoutMs}`);
  database.pragma('foreign_keys = ON');
  if (readOnly) database.pragma('query_only = ON');
  return database;
}

const STATEMENT_CACHE_SIZE = 200;

/**
 * kysely's SQLite driver prepares every statement anew, which costs more than running it. Statements are reused
 * by SQL text (better-sqlite3 runs them synchronously, so one statement is never used twice at once), in a
 * bounded cache since queries with IN lists vary in text.
 */
function cachedPrepare(database: SQLite.Database): (sql: string) => SQLite.Statement {
  const cache = new Map<string, SQLite.Statement>();
  return (sql) => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = database.prepare(sql);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(sql, stmt);
    }
    return stmt;
  };
}

/**
 * kysely's migrator looks for its lock table in every schema unless told which one is ours, so a second svc
 * schema in the same database (tests, or two deployments sharing a server) would make it skip creating its own.
 * On Postgres it is pinned to the connection's current schema.
 */
async function migrator(store: Store): Promise<Migrator> {
  const schema =
    store.dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db)).rows[0]?.schema : undefined;
  return new Migrator({ db: store.db, provider: migrationProvider, migrationTableSchema: schema });
}

export async function migrate(store: Store): Promise<void> {
  const { error, results } = await (await migrator(store)).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** True when every migration this build knows has been applied. */
export async function migrationsApplied(store: Store): Promise<boolean> {
  const all = await (await migrator(store)).getMigrations();
  return all.every((m) => m.executedAt !== undefined);
}
