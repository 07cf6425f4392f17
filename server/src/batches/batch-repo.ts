// Batch rows: a new batch with its checked calls (written inside the creation's unit of write work), and reads
// scoped to the key that created it, as the wire shows them.
import type { Kysely } from 'kysely';
import type { Batch, BatchStatus, CallMetadata, StopWhen } from '../generated/types.gen.js';
import type { Database } from '../store/schema.js';
import { countBatchCallsByStatus } from '../store/calls/batch-calls.js';
import type { Executor } from '../store/store.js';
import type { BatchRow } from './batch-runner.js';
import { batchCounts } from './batch-events.js';
import { unreleasedRows } from './batch-rows.js';
import type { CheckedCall } from './check-batch.js';
import { batchIdForKey, batchRowsForKey, insertBatchWithItems } from '../store/batches/batches.js';

export interface NewBatch {
  id: string;
  accountId: string;
  apiKeyId: string;
  maxConcurrency: number;
  webhookUrl: string | null;
  metadataJson: string | null;
  /** When the batch starts; null for at once. */
  scheduledAt: number | null;
  /** The stop condition (JSON, StopWhen); null for none. */
  stopWhenJson: string | null;
  calls: readonly CheckedCall[];
}

/** Inserts a batch, queued and due at its start, with its calls as items. */
export async function insertBatch(ex: Executor, b: NewBatch, now: number): Promise<void> {
  await insertBatchWithItems(
    ex,
    {
      id: b.id,
      account_id: b.accountId,
      api_key_id: b.apiKeyId,
      status: 'queued',
      total: b.calls.length,
      max_concurrency: b.maxConcurrency,
      stop_reason: null,
      stop_when_json: b.stopWhenJson,
      webhook_url: b.webhookUrl,
      metadata_json: b.metadataJson,
      scheduled_at: b.scheduledAt,
      created_at: now,
      updated_at: now,
      started_at: null,
      ended_at: null,
      next_run_at: b.scheduledAt ?? now,
      lease_owner: null,
      lease_expires_at: null,
    },
    b.calls.map((c, idx) => ({ batch_id: b.id, idx, call_json: JSON.stringify(c.call) })),
  );
}

const iso = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** The key's batches with these ids, or its most recent `limit`, as the wire shows them (counts included). */
async function batchesForKey(db: Kysely<Database>, apiKeyId: string, select: { id: string } | { limit: number }): Promise<Batch[]> {
  const rows = await batchRowsForKey(db, apiKeyId, select);
  if (rows.length === 0) return [];
  // Its calls by status, from the calls table.
  const counts = await countBatchCallsByStatus(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) =>
    toBatch(
      row,
      counts.filter((c) => c.batch_id === row.id),
    ),
  );
}

function toBatch(row: BatchRow, counts: { status: string; n: number | string }[]): Batch {
  const byStatus = batchCounts(counts, row.total - row.released, unreleasedRows(row).countedAs);
  return {
    id: row.id,
    status: row.status as BatchStatus,
    total: row.total,
    maxConcurrency: row.max_concurrency,
    counts: byStatus,
    stopReason: row.stop_reason,
    stopWhen: row.stop_when_json === null ? null : (JSON.parse(row.stop_when_json) as StopWhen),
    matched: Number(row.matched),
    metadata: row.metadata_json === null ? null : (JSON.parse(row.metadata_json) as CallMetadata),
    scheduledAt: iso(row.scheduled_at),
    createdAt: iso(row.created_at)!,
    startedAt: iso(row.started_at),
    endedAt: iso(row.ended_at),
  };
}

/** The id of the key's batch `id` (ids are stored lowercase), or undefined when it is not this key's. */
export async function findBatchIdForKey(db: Kysely<Database>, apiKeyId: string, id: string): Promise<string | undefined> {
  return batchIdForKey(db, apiKeyId, id.toLowerCase());
}

export async function findBatchForKey(db: Kysely<Database>, apiKeyId: string, id: string): Promise<Batch | undefined> {
  return (await batchesForKey(db, apiKeyId, { id: id.toLowerCase() }))[0];
}

export function listBatchesForKey(db: Kysely<Database>, apiKeyId: string, limit: number): Promise<Batch[]> {
  return batchesForKey(db, apiKeyId, { limit });
}
