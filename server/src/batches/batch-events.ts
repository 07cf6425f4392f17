// A batch's own webhook events: batch.completed, batch.canceled or batch.stopped, once, as the batch ends, to the
// batch's webhookUrl, through the same outbox (written in the transaction that ends the batch) and dispatcher as a
// call's events, signed with the key's secret. The outbox's call_id column holds the batch's id for them: it names
// the subject whose events are delivered in order and whose receiver a 410 retires, and whose event log
// (listBatchEvents, webhooks/event-log.ts) they are.
import type { Insertable } from 'kysely';
import type { WebhookEventsTable } from '../store/schema.js';
import { outboxRow } from '../webhooks/outbox.js';
import type { BatchEvent, BatchStatus, CallMetadata } from '../generated/types.gen.js';
import type { Executor } from '../store/store.js';
import { countBatchCallsOn } from '../store/calls/batch-calls.js';
import type { BatchRow } from './batch-runner.js';

type Counts = BatchEvent['counts'];
const COUNTED = ['queued', 'dialing', 'in_progress', 'completed', 'no_answer', 'voicemail', 'declined', 'failed', 'canceled'] as const;

/**
 * The batch's calls by status, from rows of (status, count). Its calls not yet released have no record: they count
 * as queued while the batch runs, as canceled once it has ended early (or, for an ending event, at all).
 */
export function batchCounts(rows: readonly { status: string; n: number | string }[], unreleased: number, unreleasedAs: 'queued' | 'canceled'): Counts {
  const counts = Object.fromEntries(COUNTED.map((s) => [s, 0])) as Counts;
  for (const r of rows) if (r.status in counts) counts[r.status as keyof Counts] += Number(r.n);
  counts[unreleasedAs] += unreleased;
  return counts;
}

/** The batch's calls by status, read in the transaction that ends it. */
export async function endedCounts(ex: Executor, batch: Pick<BatchRow, 'id' | 'total' | 'released'>): Promise<Counts> {
  const rows = await countBatchCallsOn(ex, batch.id);
  return batchCounts(rows, batch.total - batch.released, 'canceled');
}

/**
 * The outbox row of the batch's ending event. A batch with no webhookUrl still gets the row, in state none, as a
 * call does: it is the batch's event log, and the dispatcher only claims pending rows.
 */
export function batchEventRow(batch: BatchRow, status: 'completed' | 'canceled' | 'stopped', counts: Counts, builtAt: number): Insertable<WebhookEventsTable> {
  const event = `batch.${status}` as const;
  const payload: BatchEvent = {
    event,
    eventId: `${batch.id}:${event}:${builtAt}`,
    timestamp: new Date(builtAt).toISOString(),
    batchId: batch.id,
    status: status as BatchStatus,
    total: batch.total,
    counts,
    stopReason: batch.stop_reason,
    matched: Number(batch.matched),
    metadata: batch.metadata_json === null ? null : (JSON.parse(batch.metadata_json) as CallMetadata),
    endedAt: new Date(builtAt).toISOString(),
  };
  const row = outboxRow({ subjectId: batch.id, apiKeyId: batch.api_key_id, url: batch.webhook_url ?? '' }, event, payload, builtAt);
  return batch.webhook_url ? row : { ...row, state: 'none' };
}
