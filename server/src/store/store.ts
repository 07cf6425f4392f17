// The Store port: what the service asks of its database, whichever it is. Two drivers implement it, each in its
// folder: sqlite/ (the embedded default, better-sqlite3 in WAL mode, with its speed-ups) and postgres/ (a pool, for
// several processes sharing one database); open-store.ts picks one. Callers use kysely (`db`) for ordinary
// queries, and the methods below where the drivers differ; outside store/, `kind` is read only for logs and for
// how many groups the job queue writes at once.
import { DEFAULT_MIGRATION_TABLE, type Kysely, Migrator, sql, type Transaction } from 'kysely';
import { migrationProvider, migrations } from './migrations/index.js';
import type { WakeTopic } from './wakes.js';
import type { Database } from './schema.js';

export type StoreKind = 'sqlite' | 'postgres';

export interface Store {
  /** kysely over the store: every query that is not one of the operations below. */
  readonly db: Kysely<Database>;
  /** Which driver: for logs, and for the job queue's writers (several at once on Postgres, one on SQLite). */
  readonly kind: StoreKind;
  /**
   * A hot read, compiled once (prepared-query.ts). SQLite runs the reads asked in one turn of the event loop
   * together, in one read transaction on a connection of their own; Postgres sends each to the pool.
   */
  read<Row>(sql: string, params: readonly unknown[]): Promise<Row[]>;
  /**
   * A unit of write work. SQLite runs the units of one turn of the event loop in one IMMEDIATE transaction, each
   * in a savepoint, and settles none before the COMMIT; Postgres runs each at once.
   */
  write<T>(unit: WriteUnit<T>): Promise<T>;
  /** Leases due rows of a queue table (see due-claims.ts); Postgres skips rows another worker is claiming. */
  claimDue<Row>(claim: DueClaim): Promise<Row[]>;
  /**
   * Updates leased rows of a queue table on a write unit's executor, each only while this worker's claim on it
   * holds; returns each row as written, or undefined where the claim no longer holds. Postgres writes the rows of
   * one shape (the same columns set) in one statement.
   */
  updateLeased<Row>(ex: Executor, table: { table: QueueTableName; key: string }, owner: string, updates: readonly LeasedUpdate[]): Promise<(Row | undefined)[]>;
  /**
   * Runs `fn` in a transaction that holds the lock named `key` to its end, so that processes run it one after
   * another: Postgres takes an advisory lock; SQLite's transactions take the database's write lock when they begin.
   */
  locked<T>(key: string, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
  /**
   * Says, after a write has committed, that jobs of a queue are due now: this process's loops of that queue look
   * at once; a process that runs none of them wakes the other processes' instead, on Postgres (wakes.ts). A hint;
   * the loops' polls remain the guarantee.
   */
  wake(topic: WakeTopic): void;
  /** Runs `fn` whenever a queue is woken, here or by another process sharing the store. */
  onWake(topic: WakeTopic, fn: () => void): void;
  close(): Promise<void>;
}

/** Runs compiled SQL. `compiler`: the kysely instance whose dialect the SQL is compiled for. */
export interface Executor {
  readonly compiler: Kysely<Database>;
  run(sql: string, params: readonly unknown[]): Promise<unknown[]>;
}

export interface WriteScope {
  /** Runs statements: inside the batch's transaction on SQLite, each on its own on Postgres. */
  ex: Executor;
  /**
   * Runs `fn` all or nothing: a savepoint inside the batch on SQLite (whose write lock already serialises it), a
   * transaction on Postgres, holding the advisory lock of `lockKey` when one is given, so that checks and writes
   * under one key (an account's minute cap and its new call) never interleave with another's.
   */
  atomically<T>(lockKey: string | null, fn: (ex: Executor) => Promise<T>): Promise<T>;
}

/**
 * Work on the store that must commit as a whole before its caller is answered. A unit touches the store only
 * through its scope (on SQLite it holds the connection while it runs) and awaits nothing but its statements.
 */
export type WriteUnit<T> = (scope: WriteScope) => Promise<T>;

/** The tables whose rows are jobs of the queue (jobs/job-queue.ts). */
export type QueueTableName = 'calls' | 'webhook_events' | 'jobs' | 'batches';

/** Rows of a queue table that are due, to be leased by one worker (jobs/job-queue.ts builds these). */
export interface DueClaim {
  table: QueueTableName;
  /** The table's key column and the column that says when a row is next due. */
  key: string;
  due: string;
  /** Only rows that match are jobs (webhook events and jobs: those still pending; the engine's lanes). */
  only?: RowFilter;
  owner: string;
  now: number;
  leaseMs: number;
  limit: number;
  /** Keys never claimed: jobs this worker still runs. */
  excluding: readonly string[];
}

/**
 * Rows whose `column` equals `value` (is null, for a null value), or with `not`, rows whose `column` does not (is not
 * null).
 */
export interface RowFilter {
  column: string;
  value: string | null;
  not?: boolean;
}

/** One leased row's new columns, fenced by the claim that leased it. */
export interface LeasedUpdate {
  key: string;
  /** The claim's lease expiry, as claimed. */
  leaseExpiresAt: number | null;
  set: Record<string, unknown>;
}

/**
 * kysely's migrator looks for its lock table in every schema unless told which one is ours, so a second svc
 * schema in the same database (tests, or two deployments sharing a server) would make it skip creating its own.
 * On Postgres it is pinned to the connection's current schema.
 */
async function migrator(store: Store): Promise<Migrator> {
  if (store.kind !== 'postgres') return new Migrator({ db: store.db, provider: migrationProvider });
  const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db)).rows[0]!.schema;
  return new Migrator({ db: ownSchemaOnly(store.db, schema), provider: migrationProvider, migrationTableSchema: schema });
}

/**
 * The store as the migrator sees it on Postgres: its introspection reads our schema alone. kysely's reads every
 * table of every schema, and fails ("relation … does not exist") when another schema of the database is being
 * migrated or dropped at that moment: another deployment on the same server, or another test run.
 */
function ownSchemaOnly(db: Kysely<Database>, schema: string): Kysely<Database> {
  const introspection = {
    getSchemas: async () => [{ name: schema }],
    getTables: async () =>
      (await sql<{ name: string; type: string }>`select table_name as name, table_type as type from information_schema.tables where table_schema = ${schema}`.execute(db)).rows.map((t) => ({
        name: t.name,
        schema,
        isView: t.type === 'VIEW',
        columns: [],
      })),
    getMetadata: async () => ({ tables: [] }),
  };
  // kysely's classes keep their state in private fields, so a method runs bound to the store itself.
  return new Proxy(db, {
    get: (target, prop) => {
      if (prop === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Runs the migrations the store lacks: all of them, or up to and including `through` (a migration's name). */
export async function migrate(store: Store, through?: string): Promise<void> {
  const m = await migrator(store);
  const { error, results } = await (through === undefined ? m.migrateToLatest() : m.migrateTo(through));
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * How many of this build's migrations the store lacks, read from kysely's migration table in the connection's
 * schema. One small query, for a readiness probe run every few seconds: the Migrator's getMigrations introspects
 * the schema's tables first.
 */
export async function pendingMigrations(store: Store): Promise<number> {
  let names: string[];
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(store.db);
    names = rows.map((r) => r.name);
  } catch (err) {
    if (isMissingTable(err)) return Object.keys(migrations).length;
    throw err;
  }
  const applied = new Set(names);
  return Object.keys(migrations).filter((name) => !applied.has(name)).length;
}

function isMissingTable(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e.code === '42P01' || /no such table/.test(e.message ?? '');
}

/** True when every migration this build knows has been applied. */
export async function migrationsApplied(store: Store): Promise<boolean> {
  return (await pendingMigrations(store)) === 0;
}
