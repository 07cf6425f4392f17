// The job queue's statements on its tables (jobs/job-queue.ts): rows written with an outcome, leases given up, and
// the next-due look. The claim and the fenced commits are the port's own (due-claims.ts, leased-updates.ts). The
// queue names its table and columns at run time, so these are built without kysely's column types.
import type { Kysely } from 'kysely';
import { matching } from '../due-claims.js';
import { runQuery } from '../prepared-query.js';
import type { Executor, QueueTableName, RowFilter } from '../store.js';

type AnyDb = Kysely<any>;

/** A queue table as the next-due look reads it: its name, key and due column. */
export interface DueTable {
  table: QueueTableName;
  key: string;
  due: string;
}

/**
 * Inserts rows into one table in one statement, on the executor of the outcome's transaction; with `keepExisting`
 * (the columns of a unique key) a row already there is kept and the new one dropped.
 */
export async function insertRows(ex: Executor, into: string, values: readonly Record<string, unknown>[], keepExisting?: readonly string[]): Promise<void> {
  const insert = (ex.compiler as AnyDb).insertInto(into).values(values as Record<string, unknown>[]);
  await runQuery(ex, keepExisting ? insert.onConflict((oc) => oc.columns(keepExisting as never).doNothing()) : insert);
}

/** Clears every lease `owner` holds on the table; returns how many rows it held. */
export async function releaseLeasesOf(db: AnyDb, table: QueueTableName, owner: string): Promise<number> {
  const r = await db.updateTable(table).set({ lease_owner: null, lease_expires_at: null }).where('lease_owner', '=', owner).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * The next-due look: the least, over the due rows not excluded, of when each can be claimed (its due time, or its
 * lease's expiry when that is later). On Postgres an index on that very expression (migration 026) answers it.
 */
export function nextDueQuery(db: AnyDb, { table, key, due }: DueTable, excluding: readonly string[], only: RowFilter | undefined) {
  let q = db
    .selectFrom(table)
    .select((eb) => eb.fn.min(eb.case().when('lease_expires_at', '>', eb.ref(due)).then(eb.ref('lease_expires_at')).else(eb.ref(due)).end()).as('at'))
    .where(due, 'is not', null);
  if (only) q = q.where(matching(only));
  if (excluding.length > 0) q = q.where(key, 'not in', excluding);
  return q;
}

/** When the next row can be claimed (nextDueQuery), or null when none can. */
export async function nextDueAt(db: AnyDb, table: DueTable, excluding: readonly string[], only: RowFilter | undefined): Promise<number | null> {
  const row = (await nextDueQuery(db, table, excluding, only).executeTakeFirst()) as { at: number | string | null } | undefined;
  return row?.at === null || row?.at === undefined ? null : Number(row.at);
}
