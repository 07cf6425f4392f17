// The developer settings: accounts, their numbers and plans, and API keys with their defaults.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { PARAM, perStore, preparedQuery } from '../store/prepared-query.js';
import type { CallingWindow } from '../generated/types.gen.js';
import type { Store } from '../store/store.js';
import type { ApiKeysTable, Database } from '../store/schema.js';
import { KEY_BUCKET_PREFIX } from './rate-limit.js';
import { hashApiKey, keyHint, newApiKey, newWebhookSecret } from './secrets.js';

export type ApiKeyRow = ApiKeysTable;

export interface NewAccount {
  name: string;
  planMinutes: number;
  defaultCallerId?: string | null;
}

export interface NewKey {
  accountId: string;
  name: string;
  /** A fixed key (the dev key from SVC_DEV_API_KEY); otherwise a random one. */
  key?: string;
  webhookSecret?: string;
  defaultCallerId?: string | null;
  defaultVoice?: string | null;
  rateLimit?: number | null;
  /** The key's default calling window; null for none. */
  callingWindow?: CallingWindow | null;
  /** The key's default answering-machine detection; null (or absent) for on. */
  machineDetection?: 'on' | 'off' | null;
  /** On whose behalf the key's calls are made, by default; null for none. */
  onBehalfOf?: string | null;
  /** False: the key's calls say nothing of the recording unless a placement asks; null or true: the notice. */
  recordingNotice?: boolean | null;
}

export interface CreatedKey {
  row: ApiKeyRow;
  /** Shown once; not recoverable from the store. */
  key: string;
}

export async function createAccount(db: Kysely<Database>, input: NewAccount, now: number): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('accounts')
    .values({ id, name: input.name, plan_minutes: input.planMinutes, default_caller_id: input.defaultCallerId ?? null, created_at: now })
    .execute();
  return id;
}

export async function createKey(db: Kysely<Database>, input: NewKey, now: number): Promise<CreatedKey> {
  const key = input.key ?? newApiKey();
  const row: ApiKeyRow = {
    id: randomUUID(),
    account_id: input.accountId,
    key_hash: hashApiKey(key),
    key_hint: keyHint(key),
    name: input.name,
    default_caller_id: input.defaultCallerId ?? null,
    default_voice: input.defaultVoice ?? null,
    rate_limit: input.rateLimit ?? null,
    calling_window_json: input.callingWindow ? JSON.stringify(input.callingWindow) : null,
    machine_detection: input.machineDetection === 'off' ? 'off' : null,
    on_behalf_of: input.onBehalfOf ?? null,
    recording_notice: input.recordingNotice === undefined || input.recordingNotice === null ? null : input.recordingNotice ? 1 : 0,
    webhook_secret: input.webhookSecret ?? newWebhookSecret(),
    previous_webhook_secret: null,
    previous_secret_expires_at: null,
    revoked_at: null,
    created_at: now,
  };
  await db.insertInto('api_keys').values(row).execute();
  return { row, key };
}

export type KeyWithWindow = ApiKeyRow & { window_start: number | null; window_count: number | null };

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
 * The active key with this hash together with its rate-limit window row, in one query: it runs on every
 * authenticated request (see rate-limit.ts for the window).
 */
export async function findActiveKeyWithWindow(store: Store, keyHash: string): Promise<KeyWithWindow | undefined> {
  return (await authQuery(store)(keyHash))[0];
}

export async function addNumber(db: Kysely<Database>, accountId: string, e164: string, now: number): Promise<void> {
  await db
    .insertInto('numbers')
    .values({ account_id: accountId, e164, created_at: now })
    .onConflict((oc) => oc.columns(['account_id', 'e164']).doNothing())
    .execute();
}

export async function ownsNumber(db: Kysely<Database>, accountId: string, e164: string): Promise<boolean> {
  const row = await db.selectFrom('numbers').select('e164').where('account_id', '=', accountId).where('e164', '=', e164).executeTakeFirst();
  return row !== undefined;
}

export async function findAccountByName(db: Kysely<Database>, name: string) {
  return db.selectFrom('accounts').selectAll().where('name', '=', name).executeTakeFirst();
}
