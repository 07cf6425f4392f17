// What a batch reads and writes of its calls: how many are in given statuses (those holding a slot), how many
// are in each status, the calls of a page of its rows, and the cancel of those not yet dialled when the batch ends.
import type { Kysely } from 'kysely';
import type { CallRow } from '../calls-repo.js';
import { runQuery } from '../prepared-query.js';
import type { Database } from '../schema.js';
import type { Executor } from '../store.js';
import { canceledUndialled, notDialled } from './cancel-calls.js';

/** How many of the batch's calls are in one of `statuses`. */
export async function countBatchCallsIn(db: Kysely<Database>, batchId: string, statuses: readonly string[]): Promise<{ n: number } | undefined> {
  return db
    .selectFrom('calls')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('batch_id', '=', batchId)
    .where('status', 'in', [...statuses])
    .executeTakeFirst();
}

/** How many calls of each of these batches are in each status (pairs with none are left out). */
export async function countBatchCallsByStatus(db: Kysely<Database>, batchIds: string[]): Promise<{ batch_id: string | null; status: string; n: number }[]> {
  return db
    .selectFrom('calls')
    .select(['batch_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('batch_id', 'in', batchIds)
    .groupBy(['batch_id', 'status'])
    .execute();
}

/** How many of the batch's calls are in each status, read on the executor (inside the transaction that ends it). */
export async function countBatchCallsOn(ex: Executor, batchId: string): Promise<{ status: string; n: number }[]> {
  return runQuery(
    ex,
    ex.compiler
      .selectFrom('calls')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('batch_id', '=', batchId)
      .groupBy('status'),
  );
}

/** The calls of the batch's rows numbered from `from` up to `until` (excluded): by row, each row's in the order made. */
export async function callsOfBatchRows(db: Kysely<Database>, batchId: string, from: number, until: number): Promise<{ id: string; status: string; batch_index: number | null }[]> {
  return db
    .selectFrom('calls')
    .select(['id', 'status', 'batch_index'])
    .where('batch_id', '=', batchId)
    .where('batch_index', '>=', from)
    .where('batch_index', '<', until)
    .orderBy('batch_index')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Ends the batch's calls not yet dialled canceled (canceledUndialled); the rows as ended. */
export async function cancelUndialledBatchCalls(ex: Executor, batchId: string, now: number): Promise<CallRow[]> {
  return (await runQuery(ex, ex.compiler.updateTable('calls').set(canceledUndialled(now)).where('batch_id', '=', batchId).where(notDialled).returningAll())) as CallRow[];
}
