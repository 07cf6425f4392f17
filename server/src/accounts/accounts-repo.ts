// The developer settings: accounts, their numbers and plans, and API keys with their defaults.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CallingWindow } from '../generated/types.gen.js';
import type { ApiKeysTable, Database } from '../store/schema.js';
import { findAccountByName as findAccountRowByName, insertAccount } from '../store/accounts/accounts.js';
import { findActiveKeyWithWindow, insertApiKey, type KeyWithWindow } from '../store/accounts/api-keys.js';
import { insertNumber, ownsNumber as ownsNumberRow } from '../store/accounts/numbers.js';
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
  await insertAccount(db, { id, name: input.name, plan_minutes: input.planMinutes, default_caller_id: input.defaultCallerId ?? null, created_at: now });
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
  await insertApiKey(db, row);
  return { row, key };
}

/** The active key with this hash and its rate-limit window row (rate-limit.ts reads the window), in one query. */
export { findActiveKeyWithWindow, type KeyWithWindow };

export async function addNumber(db: Kysely<Database>, accountId: string, e164: string, now: number): Promise<void> {
  await insertNumber(db, accountId, e164, now);
}

export async function ownsNumber(db: Kysely<Database>, accountId: string, e164: string): Promise<boolean> {
  return ownsNumberRow(db, accountId, e164);
}

export async function findAccountByName(db: Kysely<Database>, name: string) {
  return findAccountRowByName(db, name);
}
