// Units of write work on SQLite (a placement: claim its idempotency key, count it against the rate window, check
// and insert the call; an engine step's commit; a delivery's record).
//
// The units that arrive in one turn of the event loop run one after another in a single IMMEDIATE transaction,
// each inside a savepoint, and the transaction commits once for all of them. A commit and
// a statement run cold cost several times what they cost run back to back, so under load this is most of a
// placement's price; alone, a unit waits one turn. Every unit still sees the effects of those before it, exactly
// as if each had run in a transaction of its own, in arrival order:
// - a unit that throws is rolled back to its savepoint, and only it fails;
// - no unit's promise settles before the COMMIT; when the COMMIT (or BEGIN) fails, every unit fails with that
//   error and nothing of the batch is written, so a caller never acknowledges what was not stored;
// - if SQLite itself rolls the transaction back (a full disk, an I/O error), the whole batch fails likewise.
// A unit holds the connection's lock while it runs: it must touch the store only through its scope (never
// store.db, which would wait for the lock forever) and await nothing but its scope's statements.
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { Executor, WriteScope, WriteUnit } from '../store.js';
import type { FifoLock } from './fifo-dialect.js';

type Outcome = { value: unknown } | { err: unknown };

interface Queued {
  work: WriteUnit<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

export class WriteBatches {
  private queue: Queued[] = [];
  private closed = false;
  private readonly scope: WriteScope;
  /** Transactions run so far (each runs one batch). */
  batchesRun = 0;

  /**
   * `database`, `prepare`: kysely's connection and its statement cache. `compiler`: the store's kysely instance.
   * `lock`: kysely's lock on that connection, held while a batch runs.
   */
  constructor(
    private readonly database: SQLite.Database,
    private readonly prepare: (sql: string) => SQLite.Statement,
    compiler: Kysely<Database>,
    private readonly lock: FifoLock,
  ) {
    const ex: Executor = {
      compiler,
      run: (text, params) => {
        try {
          const stmt = prepare(text);
          if (stmt.reader) return Promise.resolve(stmt.all(...params));
          stmt.run(...params);
          return Promise.resolve([]);
        } catch (err) {
          return Promise.reject(err);
        }
      },
    };
    this.scope = {
      ex,
      atomically: async (_lockKey, fn) => {
        const outcome = await this.inSavepoint(() => fn(ex));
        if ('err' in outcome) throw outcome.err;
        return outcome.value as Awaited<ReturnType<typeof fn>>;
      },
    };
  }

  run<T>(work: WriteUnit<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('database connection is not open'));
    return new Promise<T>((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(this.flush);
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** Runs what is queued; later units are refused. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private readonly flush = async (): Promise<void> => {
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    await this.lock.acquire();
    let outcomes: Outcome[];
    try {
      outcomes = await this.runBatch(batch);
    } catch (err) {
      // A rollback itself failed: end the transaction if it is still open, so the connection is left clean.
      try {
        if (this.database.inTransaction) this.database.exec('ROLLBACK');
      } catch {
        // The connection is broken; the next statement on it reports that.
      }
      outcomes = batch.map(() => ({ err }));
    } finally {
      this.lock.release();
    }
    batch.forEach((u, i) => {
      const o = outcomes[i];
      if ('err' in o) u.reject(o.err);
      else u.resolve(o.value);
    });
  };

  private async runBatch(batch: Queued[]): Promise<Outcome[]> {
    this.batchesRun++;
    try {
      this.exec('BEGIN IMMEDIATE');
    } catch (err) {
      return batch.map(() => ({ err }));
    }
    const outcomes: Outcome[] = [];
    for (const u of batch) {
      const outcome = await this.inSavepoint(() => u.work(this.scope));
      if (!this.database.inTransaction) {
        const err = 'err' in outcome ? outcome.err : new Error('the write transaction ended unexpectedly');
        return batch.map(() => ({ err }));
      }
      outcomes.push(outcome);
    }
    try {
      this.exec('COMMIT');
    } catch (err) {
      if (this.database.inTransaction) this.database.exec('ROLLBACK');
      return batch.map(() => ({ err }));
    }
    return outcomes;
  }

  private async inSavepoint(fn: () => Promise<unknown>): Promise<Outcome> {
    try {
      this.exec('SAVEPOINT unit');
      const value = await fn();
      this.exec('RELEASE unit');
      return { value };
    } catch (err) {
      // Only when the transaction is still there: SQLite may have rolled it back whole (the batch then fails).
      if (this.database.inTransaction) {
        this.exec('ROLLBACK TO unit');
        this.exec('RELEASE unit');
      }
      return { err };
    }
  }

  private exec(text: string): void {
    this.prepare(text).run();
  }
}
