// The one durable job queue. A job is a row of a queue table (a call the engine steps, a webhook event to
// deliver) with a time it is next due and a lease: any worker claims due rows under its lease, does the work,
// and commits the outcome fenced by that lease together with its effects, in one transaction; then the row is
// due again at a later time, or done. A worker that dies simply lets its leases run out, and another takes the
// rows over; a worker whose lease was taken over writes nothing, since its commit no longer matches the row.
//
// The claim is the store's (Postgres skips the rows another worker is claiming); the fence is the claim's own
// lease (owner and expiry), so a worker that claims a row again after its lease ran out cannot commit twice.
// The tables are the calls (due at next_run_at), the outbox (due at next_attempt_at while pending), the batches (due
// at next_run_at) and the jobs (due at run_at while pending): their rows are already what the work needs, so the
// queue names its table instead of copying each job into a table of its own.
import type { Kysely } from 'kysely';
import type { Executor, DueClaim, RowFilter, Store } from '../store/store.js';
import { insertRows, nextDueAt, releaseLeasesOf } from '../store/jobs/queue-rows.js';

/** A queue table: its name, key and due column, and which rows are jobs at all. */
export type QueueTable = Pick<DueClaim, 'table' | 'key' | 'due' | 'only'>;

export interface Leased {
  lease_owner: string | null;
  lease_expires_at: number | null;
}

/** A write fenced by a lease this worker no longer holds: another worker took the job over. */
export class LeaseLost extends Error {
  constructor(table: string, key: string) {
    super(`lease on ${table} ${key} was lost to another worker`);
    this.name = 'LeaseLost';
  }
}

/** A row written with an outcome: an outbox event, an attempt's record. */
export interface NewRow {
  into: 'webhook_events' | 'webhook_attempts' | 'calls' | 'do_not_call' | 'call_status_changes' | 'call_turns' | 'call_tool_calls';
  values: Record<string, unknown>;
  /** The columns of a unique key on which a row already there is kept and this one dropped; none to insert always. */
  keepExisting?: readonly string[];
}

export interface Outcome<Row> {
  /** Columns to set, the due column among them (null when the job is done). */
  set: Record<string, unknown>;
  /** The job goes on after this write: keep the lease. */
  keepLease?: boolean;
  /** A row inserted in the same transaction, made from the job's row as written; null for none. */
  insert?(row: Row): NewRow | NewRow[] | null;
  /** Statements run in the same transaction after the rows are inserted, given the job's row as written. */
  alsoRun?(ex: Executor, row: Row): Promise<void>;
}

interface PendingCommit<Row> {
  job: Row;
  outcome: Outcome<Row>;
  resolve(row: Row): void;
  reject(err: unknown): void;
}

/** Groups a queue writes at once on Postgres. */
const WRITERS_ON_POSTGRES = 4;

// The queue names its table and columns at run time, so its queries are built without kysely's column types.
type AnyDb = Kysely<any>;

export class JobQueue<Row extends Leased> {
  private readonly db: AnyDb;
  /** Commits asked for and not yet being written. */
  private pending: PendingCommit<Row>[] = [];
  /** Groups written at once. */
  private readonly writers: number;
  /** The writers at work. */
  private readonly writing = new Set<Promise<void>>();
  /** A writer is about to start: the commits of this turn of the event loop join its group. */
  private starting = false;

  constructor(
    private readonly store: Store,
    private readonly table: QueueTable,
    readonly owner: string,
    readonly leaseMs: number,
  ) {
    this.db = store.db as AnyDb;
    // Postgres writes groups side by side, so a group is not held up by a long one before it (a call's end, with
    // its turns); their jobs differ, so they touch other rows. SQLite writes one transaction at a time anyway.
    this.writers = store.kind === 'postgres' ? WRITERS_ON_POSTGRES : 1;
  }

  keyOf(row: Row): string {
    return (row as unknown as Record<string, string>)[this.table.key];
  }

  /** Leases up to `limit` rows due at `now`, oldest due first, none of `excluding`; `only`: of those, the matching. */
  claim(now: number, limit: number, excluding: readonly string[] = [], only: RowFilter | undefined = this.table.only): Promise<Row[]> {
    return this.store.claimDue<Row>({ ...this.table, only, owner: this.owner, now, leaseMs: this.leaseMs, limit, excluding });
  }

  /**
   * Commits a job's outcome if this worker's claim on it still holds; throws LeaseLost otherwise. Commits are
   * written in groups: those asked for in one turn of the event loop, or while the writers were busy, share one
   * transaction (the dispatcher's records of a burst of deliveries, the engine's steps of many calls). Should that
   * transaction fail, each is committed again on its own, so a commit that cannot be written fails alone.
   */
  commit(job: Row, outcome: Outcome<Row>): Promise<Row> {
    return new Promise((resolve, reject) => {
      this.pending.push({ job, outcome, resolve, reject });
      this.startWriter();
    });
  }

  /** Resolves once every commit asked for so far is written (or has failed). */
  async idle(): Promise<void> {
    while (this.writing.size > 0) await Promise.all([...this.writing]);
  }

  private startWriter(): void {
    if (this.starting || this.writing.size >= this.writers) return;
    this.starting = true;
    const writer: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(async () => {
        this.starting = false;
        // Commits asked for while this group is written make up its next one, unless another writer takes them.
        while (this.pending.length > 0) {
          const group = this.pending;
          this.pending = [];
          await this.flush(group);
        }
      })
      .finally(() => {
        this.writing.delete(writer);
        // A commit asked for after the loop above found none left, and before this, found every writer busy.
        if (this.pending.length > 0) this.startWriter();
      });
    this.writing.add(writer);
  }

  private async flush(group: PendingCommit<Row>[]): Promise<void> {
    let rows: (Row | undefined)[];
    try {
      rows = await this.write(group);
    } catch (err) {
      if (group.length === 1) return group[0].reject(err);
      await Promise.all(group.map((c) => this.write([c]).then(([row]) => this.settle(c, row), c.reject)));
      return;
    }
    for (let i = 0; i < group.length; i++) this.settle(group[i]!, rows[i]);
  }

  /** What a committed group's new rows made due: a call (released by a batch, a redial), an event to deliver. */
  private wakeFor(inserts: readonly NewRow[]): void {
    if (inserts.some((r) => r.into === 'calls')) this.store.wake('calls');
    if (inserts.some((r) => r.into === 'webhook_events' && r.values.state === 'pending')) this.store.wake('webhooks');
  }

  /** The fenced updates and their rows to insert, in one transaction; undefined where a claim no longer holds. */
  private async write(group: readonly PendingCommit<Row>[]): Promise<(Row | undefined)[]> {
    const updates = group.map(({ job, outcome }) => ({
      key: this.keyOf(job),
      leaseExpiresAt: job.lease_expires_at,
      set: outcome.keepLease ? outcome.set : { ...outcome.set, lease_owner: null, lease_expires_at: null },
    }));
    // A commit alone that only updates its own row needs no transaction: one statement is whole by itself, and on
    // Postgres a transaction's begin and commit are two round trips more. (Several such commits still share one:
    // updates of several shapes are several statements, and a group's commits must fail or hold each as a whole.)
    if (group.length === 1 && !group[0]!.outcome.insert && !group[0]!.outcome.alsoRun) {
      return this.store.write(({ ex }) => this.store.updateLeased<Row>(ex, this.table, this.owner, updates));
    }
    let inserted: NewRow[] = [];
    const rows = await this.store.write(({ atomically }) =>
      atomically(null, async (ex) => {
        const rows = await this.store.updateLeased<Row>(ex, this.table, this.owner, updates);
        const inserts = group.flatMap(({ outcome }, i) => {
          const made = rows[i] && outcome.insert?.(rows[i]);
          return made ? [made].flat() : [];
        });
        await this.insert(ex, inserts);
        for (const [i, { outcome }] of group.entries()) if (rows[i] && outcome.alsoRun) await outcome.alsoRun(ex, rows[i]);
        inserted = inserts;
        return rows;
      }),
    );
    this.wakeFor(inserted);
    return rows;
  }

  /** Inserts rows, one statement for each table. */
  private async insert(ex: Executor, rows: readonly NewRow[]): Promise<void> {
    for (const into of new Set(rows.map((r) => r.into))) {
      const these = rows.filter((r) => r.into === into);
      await insertRows(
        ex,
        into,
        these.map((r) => r.values),
        these.find((r) => r.keepExisting)?.keepExisting,
      );
    }
  }

  private settle(c: PendingCommit<Row>, row: Row | undefined): void {
    if (row) c.resolve(row);
    else c.reject(new LeaseLost(this.table.table, this.keyOf(c.job)));
  }

  /**
   * Gives up the lease on a job without doing it; it is due again at `dueAt` for whoever comes next. `set`: what
   * the job keeps of the failure (a count of failed tries).
   */
  async release(job: Row, dueAt: number, set: Record<string, unknown> = {}): Promise<void> {
    const update = { key: this.keyOf(job), leaseExpiresAt: job.lease_expires_at, set: { ...set, lease_owner: null, lease_expires_at: null, [this.table.due]: dueAt } };
    await this.store.write(({ ex }) => this.store.updateLeased(ex, this.table, this.owner, [update]));
  }

  /** Gives up every lease this worker holds (on shutdown): the jobs are due for whoever comes next. */
  async releaseAll(): Promise<number> {
    return releaseLeasesOf(this.db, this.table.table, this.owner);
  }

  /**
   * The earliest time a job not in `excluding` (and matching `only`) can be claimed (due, and its lease free or
   * expired), or null.
   */
  async nextDueAt(excluding: readonly string[] = [], only: RowFilter | undefined = this.table.only): Promise<number | null> {
    return nextDueAt(this.db, this.table, excluding, only);
  }
}
