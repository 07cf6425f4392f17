// The api_keys table: keys (by hash only), their defaults and their webhook signing secrets.
import { sql, type Kysely, type Transaction, type Updateable } from 'kysely';
import { PARAM, perStore, preparedQuery } from '../prepared-query.js';
import type { ApiKeysTable, Database } from '../schema.js';
import type { Store } from '../store.js';
import { KEY_BUCKET_PREFIX } from './rate-windows.js';

type Db = Kysely<Database> | Transaction<Database>;

export async function insertApiKey(db: Db, row: ApiKeysTable): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

export type KeyWithWindow = ApiKeysTable & { window_start: number | null; window_count: number | null };

const authQuery = perStore(
  (store) =>
    preparedQuery(store, (d) =>
      d
        .selectFrom('api_keys')
        .leftJoin('rate_windows', (join) => join.on('rate_windows.bucket', '=', sql<string>`${sql.lit(KEY_BUCKET_PREFIX)} || api_keys.id`))
        .selectAll('api_keys')
        .select(['rate_windows.window_start', 'rate_windows.count as window_count'])
        .where('api_keys.key_hash', '=', PARAM)
        .where('api_keys.revoked_at', 'is', null),
    ) as (...p: unknown[]) => Promise<KeyWithWindow[]>,
);

/**
 * The active key with this hash together with its rate-limit window row, in one query compiled once: it runs on
 * every authenticated request.
 */
export async function findActiveKeyWithWindow(store: Store, keyHash: string): Promise<KeyWithWindow | undefined> {
  return (await authQuery(store)(keyHash))[0];
}

/** The account's keys not revoked. */
export async function activeKeysOf(db: Db, accountId: string): Promise<ApiKeysTable[]> {
  return db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).where('revoked_at', 'is', null).execute();
}

/** Sets the key's rate limit and webhook secret. */
export async function setKeyLimitAndSecret(db: Db, keyId: string, rateLimit: number | null, webhookSecret: string): Promise<void> {
  await db.updateTable('api_keys').set({ rate_limit: rateLimit, webhook_secret: webhookSecret }).where('id', '=', keyId).execute();
}

/** The columns of a key a listing shows: never its hash or secrets. */
export type KeyListingRow = Pick<
  ApiKeysTable,
  | 'id'
  | 'account_id'
  | 'name'
  | 'key_hint'
  | 'default_caller_id'
  | 'default_voice'
  | 'rate_limit'
  | 'calling_window_json'
  | 'machine_detection'
  | 'on_behalf_of'
  | 'recording_notice'
  | 'revoked_at'
  | 'created_at'
>;

/** The account's keys, revoked ones too, oldest first. */
export async function listKeyRows(db: Db, accountId: string): Promise<KeyListingRow[]> {
  return db
    .selectFrom('api_keys')
    .select([
      'id',
      'account_id',
      'name',
      'key_hint',
      'default_caller_id',
      'default_voice',
      'rate_limit',
      'calling_window_json',
      'machine_detection',
      'on_behalf_of',
      'recording_notice',
      'revoked_at',
      'created_at',
    ])
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findKeyRow(db: Db, keyId: string): Promise<Pick<ApiKeysTable, 'id' | 'account_id' | 'revoked_at'> | undefined> {
  return db.selectFrom('api_keys').select(['id', 'account_id', 'revoked_at']).where('id', '=', keyId).executeTakeFirst();
}

/** What may change of a key: its name and defaults. */
export type KeyUpdate = Pick<
  Updateable<ApiKeysTable>,
  'name' | 'default_caller_id' | 'default_voice' | 'rate_limit' | 'calling_window_json' | 'machine_detection' | 'on_behalf_of' | 'recording_notice'
>;

/** Updates an active key; false when it is unknown or revoked. */
export async function updateActiveKey(db: Db, keyId: string, update: KeyUpdate): Promise<boolean> {
  const result = await db.updateTable('api_keys').set(update).where('id', '=', keyId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes an active key from `now`; false when it is unknown or already revoked. */
export async function revokeActiveKey(db: Db, keyId: string, now: number): Promise<boolean> {
  const result = await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', keyId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ids of the account's active keys whose default caller id is this number. */
export async function activeKeyIdsDefaultingTo(db: Db, accountId: string, e164: string): Promise<string[]> {
  const rows = await db.selectFrom('api_keys').select('id').where('account_id', '=', accountId).where('default_caller_id', '=', e164).where('revoked_at', 'is', null).orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** The key's current webhook secret, or undefined when there is no such key. */
export async function findWebhookSecret(db: Db, keyId: string): Promise<{ webhook_secret: string } | undefined> {
  return db.selectFrom('api_keys').select('webhook_secret').where('id', '=', keyId).executeTakeFirst();
}

/** Makes `secret` the key's current secret and `previous` its previous one until `previousExpiresAt`. */
export async function setWebhookSecrets(db: Db, keyId: string, secret: string, previous: string, previousExpiresAt: number): Promise<void> {
  await db.updateTable('api_keys').set({ webhook_secret: secret, previous_webhook_secret: previous, previous_secret_expires_at: previousExpiresAt }).where('id', '=', keyId).execute();
}

export type SigningKey = Pick<ApiKeysTable, 'id' | 'webhook_secret' | 'previous_webhook_secret' | 'previous_secret_expires_at'>;

/** The signing secrets of these keys (at least one id). */
export async function signingKeysOf(db: Db, keyIds: string[]): Promise<SigningKey[]> {
  return db.selectFrom('api_keys').select(['id', 'webhook_secret', 'previous_webhook_secret', 'previous_secret_expires_at']).where('id', 'in', keyIds).execute();
}
