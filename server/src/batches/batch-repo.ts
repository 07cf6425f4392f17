// Batch rows: a new batch with its checked calls, and reads scoped to the key that created it.
import type { Kysely } from 'kysely';
import type { CheckedCall } from './check-batch.js';
import type { Database } from '../store/schema.js';

export interface NewBatch {
  id: string;
  accountId: string;
  apiKeyId: string;
  maxConcurrency: number;
  webhookUrl: string | null;
  metadataJson: string | null;
  /** When the batch starts; null for at once. */
  scheduledAt: number | null;
  calls: readonly CheckedCall[];
}

/** Rows of batch_items per INSERT: well under both stores' limits on bound parameters. */
const ITEMS_PER_INSERT = 500;

/** Inserts a batch, queued and due at its start, with its calls as items (in the caller's transaction). */
export async function insertBatch(db: Kysely<Database>, b: NewBatch, now: number): Promise<void> {
  await db
    .insertInto('batches')
    .values({
      id: b.id,
      account_id: b.accountId,
      api_key_id: b.apiKeyId,
      status: 'queued',
      total: b.calls.length,
      max_concurrency: b.maxConcurrency,
      stop_reason: null,
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
    })
    .execute();
  for (let i = 0; i < b.calls.length; i += ITEMS_PER_INSERT) {
    const rows = b.calls.slice(i, i + ITEMS_PER_INSERT).map((c, j) => ({ batch_id: b.id, idx: i + j, call_json: JSON.stringify(c.call) }));
    await db.insertInto('batch_items').values(rows).execute();
  }
}
