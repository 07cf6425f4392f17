// Idempotency records, per API key. A record is claimed ('running') by inserting it, which is atomic on both
// stores, so of two simultaneous requests with one key exactly one goes on; it becomes 'done' with the stored
// response, or is deleted when the outcome must not be replayed (429, 5xx). The statements run on an Executor,
// so they can run inside a write batch (write-batches.ts).
import type { Kysely, Selectable } from 'kysely';
import { PARAM, statement } from './prepared-query.js';
import type { Database, IdempotencyKeysTable } from './schema.js';
import type { Executor } from './store.js';

export type IdempotencyRow = Selectable<IdempotencyKeysTable>;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const q = {
  deleteExpired: statement((db) =>
    db
      .deleteFrom('idempotency_keys')
      .where('api_key_id', '=', PARAM)
      .where('idem_key', '=', PARAM)
      .where('expires_at', '<=', PARAM as unknown as number),
  ),
  claim: statement((db) =>
    db
      .insertInto('idempotency_keys')
      .values({
        api_key_id: PARAM,
        idem_key: PARAM,
        request_hash: PARAM,
        state: 'running',
        response_status: null,
        response_headers_json: null,
        response_body: null,
        created_at: PARAM as unknown as number,
        expires_at: PARAM as unknown as number,
      })
      .onConflict((oc) => oc.columns(['api_key_id', 'idem_key']).doNothing())
      .returning('idem_key'),
  ),
  find: statement((db) => db.selectFrom('idempotency_keys').selectAll().where('api_key_id', '=', PARAM).where('idem_key', '=', PARAM)),
  complete: statement((db) =>
    db
      .updateTable('idempotency_keys')
      .set({ state: 'done', response_status: PARAM as unknown as number, response_headers_json: PARAM, response_body: PARAM })
      .where('api_key_id', '=', PARAM)
      .where('idem_key', '=', PARAM),
  ),
  release: statement((db) => db.deleteFrom('idempotency_keys').where('api_key_id', '=', PARAM).where('idem_key', '=', PARAM).where('state', '=', 'running')),
};

/** Inserts a running record; returns false when one already exists (and is not expired). */
export async function claimIdempotencyKey(ex: Executor, apiKeyId: string, key: string, requestHash: string, now: number, ttlMs: number): Promise<boolean> {
  await q.deleteExpired(ex, apiKeyId, key, now);
  return (await q.claim(ex, apiKeyId, key, requestHash, now, now + ttlMs)).length > 0;
}

export async function findIdempotencyRecord(ex: Executor, apiKeyId: string, key: string): Promise<IdempotencyRow | undefined> {
  return (await q.find(ex, apiKeyId, key))[0] as IdempotencyRow | undefined;
}

export async function completeIdempotencyKey(ex: Executor, apiKeyId: string, key: string, response: StoredResponse): Promise<void> {
  await q.complete(ex, response.status, JSON.stringify(response.headers), response.body, apiKeyId, key);
}

export async function releaseIdempotencyKey(ex: Executor, apiKeyId: string, key: string): Promise<void> {
  await q.release(ex, apiKeyId, key);
}

/**
 * Deletes up to `limit` records expired at `now`, oldest first (by the expiry index), and returns how many: a
 * sweep deletes in chunks so that no statement holds the write lock, or on SQLite the event loop, for long.
 */
export async function purgeExpiredIdempotencyKeys(db: Kysely<Database>, now: number, limit = 1000): Promise<number> {
  const oldest = db.selectFrom('idempotency_keys').select(['api_key_id', 'idem_key']).where('expires_at', '<=', now).orderBy('expires_at').limit(limit).$asTuple('api_key_id', 'idem_key');
  const result = await db
    .deleteFrom('idempotency_keys')
    .where((eb) => eb(eb.refTuple('api_key_id', 'idem_key'), 'in', oldest))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
