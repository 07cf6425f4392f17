// The hot reads of the API (the key behind a bearer token, a call, a page of calls) on SQLite. Reads that arrive
// in the same turn of the event loop are run together, back to back in one read transaction, once the turn's
// I/O has been handled (setImmediate). A read transaction and a statement run cold cost several times what they
// cost run back to back, so under load this is most of a request's price; alone, a read waits one turn.
//
// Every read sees every write committed before it was asked for: the transaction begins after the whole group
// was queued. On a database file the group runs on a connection of its own, so it never waits for a writer
// (WAL); an in-memory database has one connection, shared with kysely under its lock.
import type SQLite from 'better-sqlite3';
import type { FifoLock } from './fifo-dialect.js';

interface Pending {
  sql: string;
  params: readonly unknown[];
  resolve(rows: unknown[]): void;
  reject(err: unknown): void;
}

export class GroupedReads {
  private queue: Pending[] = [];
  private closed = false;
  /** Read transactions run so far (each runs one group). */
  groupsRun = 0;

  /**
   * `prepare`: the connection's statement cache. `lock`: the connection is shared with kysely, which must not be
   * inside a transaction of its own meanwhile.
   */
  constructor(
    private readonly database: SQLite.Database,
    private readonly prepare: (sql: string) => SQLite.Statement,
    private readonly lock?: FifoLock,
  ) {}

  all<Row>(sql: string, params: readonly unknown[]): Promise<Row[]> {
    if (this.closed) return Promise.reject(new Error('database connection is not open'));
    return new Promise<Row[]>((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(this.flush);
      this.queue.push({ sql, params, resolve: resolve as (rows: unknown[]) => void, reject });
    });
  }

  /** Runs what is queued, then closes the reading connection (unless it is kysely's, which kysely closes). */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    if (!this.lock) this.database.close();
  }

  private readonly flush = async (): Promise<void> => {
    const group = this.queue;
    if (group.length === 0) return;
    this.queue = [];
    if (this.lock) await this.lock.acquire();
    try {
      this.runGroup(group);
    } finally {
      this.lock?.release();
    }
  };

  private runGroup(group: Pending[]): void {
    this.groupsRun++;
    try {
      this.database.exec('BEGIN');
    } catch (err) {
      for (const p of group) p.reject(err);
      return;
    }
    const outcomes = group.map((p): { rows: unknown[] } | { err: unknown } => {
      try {
        return { rows: this.prepare(p.sql).all(...p.params) };
      } catch (err) {
        return { err };
      }
    });
    // A read transaction has nothing to lose; ending it can only fail when the connection is gone.
    if (this.database.inTransaction) this.database.exec('COMMIT');
    group.forEach((p, i) => {
      const o = outcomes[i];
      if ('rows' in o) p.resolve(o.rows);
      else p.reject(o.err);
    });
  }
}
