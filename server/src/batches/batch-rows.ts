// A batch's rows (listBatchRows): every call of the request as checked at creation, from the 202 on, and where it
// stands. A batch releases its rows in index order, so the rows below its `released` cursor are released (their
// calls, and their redials, carry the row's index) and the rest are not: waiting while the batch runs, canceled or
// skipped once it has ended early. The rows add up to the batch's counts: their calls by status, and the rows not
// released under the status `unreleasedRows` gives them, which getBatch's counts use too.
import type { Kysely } from 'kysely';
import type { BatchRow, BatchRowList, BatchRowState, CallStatus } from '../generated/types.gen.js';
import type { PreparedCall } from '../placement/prepare-placement.js';
import { batchItemsBetween, batchRowsForKey } from '../store/batches/batches.js';
import { callsOfBatchRows } from '../store/calls/batch-calls.js';
import type { Database } from '../store/schema.js';

export interface BatchRowsQuery {
  limit: number;
  /** The index of the last row of the previous page; null for the first page. */
  after: number | null;
  /** Only the rows in this state; null for every row. */
  state: BatchRowState | null;
}

/** Where a batch's rows not yet released stand, why, and the status its counts give them, by the batch's status. */
export function unreleasedRows(batch: { status: string; stop_reason: string | null }): { state: BatchRowState; reason: string | null; countedAs: 'queued' | 'canceled' } {
  if (batch.status === 'canceled') return { state: 'canceled', reason: 'batch_canceled', countedAs: 'canceled' };
  if (batch.status === 'stopped') return { state: 'skipped', reason: batch.stop_reason, countedAs: 'canceled' };
  return { state: 'waiting', reason: null, countedAs: 'queued' };
}

/** A page of the key's batch's rows, in index order; undefined when the batch is not this key's. */
export async function listBatchRows(db: Kysely<Database>, apiKeyId: string, id: string, query: BatchRowsQuery): Promise<BatchRowList | undefined> {
  const [batch] = await batchRowsForKey(db, apiKeyId, { id: id.toLowerCase() });
  if (!batch) return undefined;
  const released = Number(batch.released);
  const rest = unreleasedRows(batch);
  // The rows in a state are a range of indexes: those released, or those not.
  const [lo, hi] = query.state === null ? [0, batch.total] : query.state === 'released' ? [0, released] : query.state === rest.state ? [released, batch.total] : [0, 0];
  const from = Math.max(lo, query.after === null ? 0 : query.after + 1);
  const until = Math.min(hi, from + query.limit);
  if (from >= until) return { rows: [], nextAfter: null };
  const items = await batchItemsBetween(db, batch.id, from, until);
  const calls = from < released ? await callsOfBatchRows(db, batch.id, from, Math.min(until, released)) : [];
  const rows = items.map((item): BatchRow => {
    const call = JSON.parse(item.call_json) as PreparedCall;
    const row = { index: item.idx, to: call.to, metadata: call.metadata ?? null };
    if (item.idx >= released) return { ...row, state: rest.state, reason: rest.reason, callId: null, calls: [] };
    const made = calls.filter((c) => c.batch_index === item.idx).map((c) => ({ id: c.id, status: c.status as CallStatus }));
    return { ...row, state: 'released', reason: null, callId: made[0]?.id ?? null, calls: made };
  });
  return { rows, nextAfter: until < hi ? until - 1 : null };
}
