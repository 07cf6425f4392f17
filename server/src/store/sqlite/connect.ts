// One connection to a SQLite file as the store uses it: WAL mode, NORMAL sync, a busy timeout, foreign keys on.
import SQLite from 'better-sqlite3';

/** How long a contended switch to WAL mode waits before it tries again. */
const WAL_RETRY_MS = 5;

export function connectSqlite(path: string | Buffer, busyTimeoutMs = 5000, readOnly = false): SQLite.Database {
  const database = new SQLite(path, { timeout: busyTimeoutMs });
  try {
    enableWal(database, busyTimeoutMs);
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    if (readOnly) database.pragma('query_only = ON');
  } catch (err) {
    database.close();
    throw err;
  }
  return database;
}

/**
 * Switches a new file to WAL mode, which takes its exclusive lock. When another process is switching the same file
 * at that moment, SQLite answers SQLITE_BUSY at once instead of calling the busy handler (both waiting for the
 * other would deadlock), so the switch is tried again, for as long as the busy timeout allows. The connection is
 * being opened: blocking the thread for these few milliseconds is what the busy handler would do too.
 */
function enableWal(database: SQLite.Database, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      database.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, WAL_RETRY_MS);
    }
  }
}
