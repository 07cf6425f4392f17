// The one durable job queue. A job is a row of a queue table (a call the engine steps, a webhook event to
// deliver) with a time it is next due and a lease: any worker claims due rows under its lease, does the work,
// and commits the outcome fenced by that lease together with its effects, in one transaction; then the row is
// due again at a later time, or done. A worker that dies simply lets its leases run out, and another takes the
// rows over; a worker whose lease was taken over writes nothing, since its commit no longer matches the row.
//
// The claim is the store's (Postgres skips the rows another worker is claiming); the fence is the claim's own
// lease (owner and expiry), so a worker that claims a row again after its lease ran out cannot commit twice.
import type { Kysely } from 'kysely';
import { runQuery, type Executor } from '../store/prepared-query.js';
import type { DueClaim, Store } from '../store/store.js';

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

export interface Outcome<Row> {
  /** Columns to set, the due column among them (null when the job is done). */
  set: Record<string, unknown>;
  /** The job goes on after this write: keep the lease. */
  keepLease?: boolean;
  /** Written in the same transaction, after the row (an outbox event, an attempt's record). */
  also?(ex: Executor, row: Row): Promise<unknown>;
}

// The queue names its table and columns at run time, so its queries are built without kysely's column types.
type AnyDb = Kysely<any>;

export class JobQueue<Row extends Leased> {
  private readonly db: AnyDb;

  constructor(
    private readonly store: Store,
    private readonly table: QueueTable,
    readonly owner: string,
    readonly leaseMs: number,
  ) {
    this.db = store.db as AnyDb;
  }

  keyOf(row: Row): string {
    return (row as unknown as Record<string, string>)[this.table.key];
  }

  /** Leases up to `limit` rows due at `now`, oldest due first, none of `excluding`. */
  claim(now: number, limit: number, excluding: readonly string[] = []): Promise<Row[]> {
    return this.store.claimDue<Row>({ ...this.table, owner: this.owner, now, leaseMs: this.leaseMs, limit, excluding });
  }

  /** Commits a job's outcome if this worker's claim on it still holds; throws LeaseLost otherwise. */
  commit(job: Row, outcome: Outcome<Row>): Promise<Row> {
    const lease = outcome.keepLease ? {} : { lease_owner: null, lease_expires_at: null };
    const update = this.fencedUpdate(job, { ...outcome.set, ...lease }).returningAll();
    return this.store.write(({ atomically }) =>
      atomically(null, async (ex) => {
        const [row] = await runQuery<Row>(ex, update);
        if (!row) throw new LeaseLost(this.table.table, this.keyOf(job));
        await outcome.also?.(ex, row);
        return row;
      }),
    );
  }

  /** Gives up the lease on a job without changing it; it is due again at `dueAt` for whoever comes next. */
  async release(job: Row, dueAt: number): Promise<void> {
    const update = this.fencedUpdate(job, { lease_owner: null, lease_expires_at: null, [this.table.due]: dueAt });
    await this.store.write(({ ex }) => runQuery(ex, update));
  }

  /** Gives up every lease this worker holds (on shutdown): the jobs are due for whoever comes next. */
  async releaseAll(): Promise<number> {
    const r = await this.db
      .updateTable(this.table.table)
      .set({ lease_owner: null, lease_expires_at: null })
      .where('lease_owner', '=', this.owner)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** The earliest time a job not in `excluding` can be claimed (due, and its lease free or expired), or null. */
  async nextDueAt(excluding: readonly string[] = []): Promise<number | null> {
    const { table, key, due, only } = this.table;
    let q = this.db
      .selectFrom(table)
      .select((eb) => eb.fn.min(eb.case().when('lease_expires_at', '>', eb.ref(due)).then(eb.ref('lease_expires_at')).else(eb.ref(due)).end()).as('at'))
      .where(due, 'is not', null);
    if (only) q = q.where(only.column, '=', only.value);
    if (excluding.length > 0) q = q.where(key, 'not in', excluding);
    const row = (await q.executeTakeFirst()) as { at: number | string | null } | undefined;
    return row?.at === null || row?.at === undefined ? null : Number(row.at);
  }

  /** An update of the job that holds only while this worker's claim does: the same owner, the same expiry. */
  private fencedUpdate(job: Row, set: Record<string, unknown>) {
    return this.db
      .updateTable(this.table.table)
      .set(set)
      .where(this.table.key, '=', this.keyOf(job))
      .where('lease_owner', '=', this.owner)
      .where('lease_expires_at', '=', job.lease_expires_at);
  }
}
