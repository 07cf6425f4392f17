// Idempotency records, per API key. A record is claimed ('running') by inserting it, which is atomic on both
// stores, so of two simultaneous requests with one key exactly one goes on; it becomes 'done' with the stored
// response, or is deleted when the outcome must not be replayed (429, 5xx).
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, IdempotencyKeysTable } from './schema.js';

export type IdempotencyRow = Selectable<IdempotencyKeysTable>;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

type Db = Kysely<Database> | Transaction<Database>;

/** Inserts a running record; returns false when one already exists (and is not expired). */
export async function claimIdempotencyKey(
  db: Db,
  apiKeyId: string,
  key: string,
  requestHash: string,
  now: number,
  ttlMs: number,
): Promise<boolean> {
  await db.deleteFrom('idempotency_keys').where('api_key_id', '=', apiKeyId).where('idem_key', '=', key).where('expires_at', '<=', now).execute();
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({
      api_key_id: apiKeyId,
      idem_key: key,
      request_hash: requestHash,
      state: 'running',
      response_status: null,
      response_headers_json: null,
      response_body: null,
      created_at: now,
      expires_at: now + ttlMs,
    })
    .onConflict((oc) => oc.columns(['api_key_id', 'idem_key']).doNothing())
    .returning('idem_key')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findIdempotencyRecord(db: Db, apiKeyId: string, key: string): Promise<IdempotencyRow | undefined> {
  return db.selectFrom('idempotency_keys').selectAll().where('api_key_id', '=', apiKeyId).where('idem_key', '=', key).executeTakeFirst();
}

export async function completeIdempotencyKey(db: Db, apiKeyId: string, key: string, response: StoredResponse): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({
      state: 'done',
      response_status: response.status,
      response_headers_json: JSON.stringify(response.headers),
      response_body: response.body,
    })
    .where('api_key_id', '=', apiKeyId)
    .where('idem_key', '=', key)
    .execute();
}

export async function releaseIdempotencyKey(db: Db, apiKeyId: string, key: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('api_key_id', '=', apiKeyId).where('idem_key', '=', key).where('state', '=', 'running').execute();
}

export async function purgeExpiredIdempotencyKeys(db: Db, now: number): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
