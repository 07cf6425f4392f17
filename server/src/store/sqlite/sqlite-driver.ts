// The SQLite driver (the embedded default): better-sqlite3 in WAL mode, one kysely connection for writes behind a
// FIFO lock, and the speed-ups that make a single file serve the API at its rates: the hot reads of one event-loop
// turn grouped on a reading connection (grouped-reads.ts), the writes of one turn batched into one transaction
// (write-batches.ts), statements prepared once (statement-cache.ts) and, for the service, the write-ahead log
// checkpointed on a worker thread (wal-checkpointer.ts). A file gets a second connection for the grouped reads;
// an in-memory database exists only on its one connection, which everything then shares.
import { Kysely } from 'kysely';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { claimQuery } from '../due-claims.js';
import { updateLeasedRows } from '../leased-updates.js';
import { runQuery } from '../prepared-query.js';
import type { Database } from '../schema.js';
import type { Store } from '../store.js';
import { Wakes } from '../wakes.js';
import { connectSqlite as connect } from './connect.js';
import { FifoLock, FifoSqliteDialect } from './fifo-dialect.js';
import { GroupedReads } from './grouped-reads.js';
import { cachedPrepare } from './statement-cache.js';
import { BACKSTOP_PAGES, WalCheckpointer } from './wal-checkpointer.js';
import { WriteBatches } from './write-batches.js';

/** SQLite files: who checkpoints the write-ahead log (see wal-checkpointer.ts). */
export interface CheckpointSettings {
  /** A worker thread, instead of the COMMIT that fills the log (the service: its event loop never waits for it). */
  checkpointInBackground?: boolean;
  onCheckpointError?(message: string): void;
}

export interface SqliteTarget extends CheckpointSettings {
  /** A file, ':memory:', or an image of a database (`serialize()`'s), opened as a copy of its own in memory. */
  sqlitePath: string | Buffer;
  busyTimeoutMs?: number;
}

/** The SQLite store, with its batching exposed for tests of it. */
export interface SqliteStore extends Store {
  readonly kind: 'sqlite';
  readonly groupedReads: GroupedReads;
  readonly writeBatches: WriteBatches;
  /** An image of the database as it stands, to open copies of (tests open each fresh store from one migrated image). */
  serialize(): Buffer;
}

export function openSqlite(target: SqliteTarget): SqliteStore {
  const path = target.sqlitePath;
  /** The file, or null for a database in memory. */
  const file = typeof path === 'string' && path !== ':memory:' ? path : null;
  if (file) mkdirSync(dirname(file), { recursive: true });
  const database = connect(path, target.busyTimeoutMs);
  const prepare = cachedPrepare(database);
  const lock = new FifoLock();
  const db = new Kysely<Database>({ dialect: new FifoSqliteDialect({ database: { prepare, close: () => database.close() } }, lock) });
  const reader = file ? connect(file, target.busyTimeoutMs, true) : undefined;
  const groupedReads = reader ? new GroupedReads(reader, cachedPrepare(reader)) : new GroupedReads(database, prepare, lock);
  const writeBatches = new WriteBatches(database, prepare, db, lock);
  const checkpointer = target.checkpointInBackground && file ? new WalCheckpointer(file, { onError: target.onCheckpointError }) : undefined;
  if (checkpointer) database.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  const wakes = new Wakes();
  return {
    db,
    kind: 'sqlite',
    groupedReads,
    writeBatches,
    read: (sql, params) => groupedReads.all(sql, params),
    write: (unit) => writeBatches.run(unit),
    // One writer: there is no other worker's claim to skip. The claim joins the turn's write batch.
    claimDue: (claim) =>
      writeBatches.run(({ ex }) =>
        runQuery(
          ex,
          claimQuery(db, claim, (due) => due),
        ),
      ),
    updateLeased: (ex, table, owner, updates) => updateLeasedRows(ex, table, owner, updates),
    // Transactions begin IMMEDIATE (fifo-dialect.ts): the write lock is held from the start, whatever the key.
    locked: (_key, fn) => db.transaction().execute(fn),
    // One process writes a SQLite store: its own loops are the only ones to wake.
    wake: (topic) => wakes.wake(topic),
    onWake: (topic, fn) => wakes.onWake(topic, fn),
    serialize: () => database.serialize(),
    close: async () => {
      await writeBatches.close();
      await groupedReads.close();
      await db.destroy();
      // Kysely closes the connection only when it has opened its driver, at its first query: a store closed before
      // any query through it would keep its connection open.
      if (database.open) database.close();
      await checkpointer?.close();
    },
  } as SqliteStore;
}
