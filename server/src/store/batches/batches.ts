// The batches table (one row per batch, a job of the queue) and batch_items (its calls as checked, released in
// order). A batch's calls are rows of `calls`, read with the calls' queries.
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { runQuery } from '../prepared-query.js';
import type { BatchesTable, BatchItemsTable, Database } from '../schema.js';
import type { Executor } from '../store.js';

export type BatchRow = Selectable<BatchesTable>;

/** Rows of batch_items per INSERT: well under both stores' limits on bound parameters. */
const ITEMS_PER_INSERT = 500;

/** Inserts the batch's row and its items, on the executor of the creation's unit of write work. */
export async function insertBatchWithItems(ex: Executor, batch: Insertable<BatchesTable>, items: readonly Insertable<BatchItemsTable>[]): Promise<void> {
  const db = ex.compiler;
  await runQuery(ex, db.insertInto('batches').values(batch));
  for (let i = 0; i < items.length; i += ITEMS_PER_INSERT) {
    await runQuery(ex, db.insertInto('batch_items').values(items.slice(i, i + ITEMS_PER_INSERT)));
  }
}

/** The key's batch with this id (lowercase), or its most recent `limit` batches, newest first. */
export async function batchRowsForKey(db: Kysely<Database>, apiKeyId: string, select: { id: string } | { limit: number }): Promise<BatchRow[]> {
  let q = db.selectFrom('batches').selectAll().where('api_key_id', '=', apiKeyId);
  q = 'id' in select ? q.where('id', '=', select.id) : q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(select.limit);
  return q.execute();
}

/** The id of the key's batch `id` (lowercase), or undefined when it is not this key's. */
export async function batchIdForKey(db: Kysely<Database>, apiKeyId: string, id: string): Promise<string | undefined> {
  return (await db.selectFrom('batches').select('id').where('id', '=', id).where('api_key_id', '=', apiKeyId).executeTakeFirst())?.id;
}

/** The key's batch's status, on an executor; undefined when it is not this key's. */
export async function batchStatusForKey(ex: Executor, id: string, apiKeyId: string): Promise<string | undefined> {
  const [row] = await runQuery(ex, ex.compiler.selectFrom('batches').select('status').where('id', '=', id).where('api_key_id', '=', apiKeyId));
  return row?.status;
}

/** The batch's stop condition (JSON), on an executor; undefined when there is no such batch. */
export async function stopConditionOf(ex: Executor, batchId: string): Promise<{ stop_when_json: string | null } | undefined> {
  const [batch] = await runQuery(ex, ex.compiler.selectFrom('batches').select('stop_when_json').where('id', '=', batchId));
  return batch;
}

/** Adds one to the batch's matched count (taking its row's lock); returns the count and the batch's status. */
export async function countMatch(ex: Executor, batchId: string): Promise<{ matched: number; status: string } | undefined> {
  const [counted] = await runQuery(
    ex,
    ex.compiler
      .updateTable('batches')
      .set((eb) => ({ matched: eb('matched', '+', 1) }))
      .where('id', '=', batchId)
      .returning(['matched', 'status']),
  );
  return counted;
}

/**
 * Writes `set` to the batch while its status is one of `from` (and it is the key's, when `apiKeyId` is given);
 * returns the batch as written, or undefined when it was not.
 */
export async function updateBatchFrom(ex: Executor, id: string, from: readonly string[], set: Updateable<BatchesTable>, apiKeyId?: string): Promise<BatchRow | undefined> {
  let q = ex.compiler.updateTable('batches').set(set).where('id', '=', id).where('status', 'in', from);
  if (apiKeyId !== undefined) q = q.where('api_key_id', '=', apiKeyId);
  const [batch] = (await runQuery(ex, q.returningAll())) as BatchRow[];
  return batch;
}

/** Makes the batch due at `now` unless it is due sooner already (or not due at all). */
export async function makeBatchDue(db: Kysely<Database>, id: string, now: number): Promise<void> {
  await db.updateTable('batches').set({ next_run_at: now }).where('id', '=', id).where('next_run_at', '>', now).execute();
}

/** The batch's items numbered from `from` up to `until` (excluded), in order. */
export async function batchItemsBetween(db: Kysely<Database>, batchId: string, from: number, until: number): Promise<{ idx: number; call_json: string }[]> {
  return db.selectFrom('batch_items').select(['idx', 'call_json']).where('batch_id', '=', batchId).where('idx', '>=', from).where('idx', '<', until).orderBy('idx').execute();
}
