// The developer settings as the CLI manages them: listings, revocation, numbers and plans. Listings never carry
// a key, its hash or a webhook secret; a key appears in clear only once, when it is created.
import type { Kysely, Updateable } from 'kysely';
import type { CallingWindow } from '../generated/types.gen.js';
import type { AccountsTable, ApiKeysTable, Database } from '../store/schema.js';

export type AccountRow = AccountsTable;

export interface KeyListing {
  id: string;
  accountId: string;
  name: string;
  keyHint: string;
  defaultCallerId: string | null;
  defaultVoice: string | null;
  rateLimit: number | null;
  callingWindow: CallingWindow | null;
  /** The key's default answering-machine detection. */
  machineDetection: 'on' | 'off';
  /** On whose behalf the key's calls are made unless a placement says; null for none. */
  onBehalfOf: string | null;
  /** Whether the key's calls say they are recorded unless a placement says. */
  recordingNotice: boolean;
  revokedAt: number | null;
  createdAt: number;
}

export async function listAccounts(db: Kysely<Database>): Promise<AccountRow[]> {
  return db.selectFrom('accounts').selectAll().orderBy('created_at').orderBy('id').execute();
}

/** The account with this id, else the only account with this name; `ambiguous` when several share the name. */
export async function resolveAccount(db: Kysely<Database>, ref: string): Promise<AccountRow | 'ambiguous' | undefined> {
  const byId = await db.selectFrom('accounts').selectAll().where('id', '=', ref).executeTakeFirst();
  if (byId) return byId;
  const byName = await db.selectFrom('accounts').selectAll().where('name', '=', ref).limit(2).execute();
  return byName.length > 1 ? 'ambiguous' : byName[0];
}

export async function listKeys(db: Kysely<Database>, accountId: string): Promise<KeyListing[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'account_id', 'name', 'key_hint', 'default_caller_id', 'default_voice', 'rate_limit', 'calling_window_json', 'machine_detection', 'on_behalf_of', 'recording_notice', 'revoked_at', 'created_at'])
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    name: r.name,
    keyHint: r.key_hint,
    defaultCallerId: r.default_caller_id,
    defaultVoice: r.default_voice,
    rateLimit: r.rate_limit,
    callingWindow: r.calling_window_json === null ? null : (JSON.parse(r.calling_window_json) as CallingWindow),
    machineDetection: r.machine_detection === 'off' ? 'off' : 'on',
    onBehalfOf: r.on_behalf_of,
    recordingNotice: r.recording_notice !== 0,
    revokedAt: r.revoked_at,
    createdAt: r.created_at,
  }));
}

export async function findKey(db: Kysely<Database>, keyId: string) {
  return db.selectFrom('api_keys').select(['id', 'account_id', 'revoked_at']).where('id', '=', keyId).executeTakeFirst();
}

/** What `svc keys update` may change of a key: its name and defaults. */
export type KeyUpdate = Pick<Updateable<ApiKeysTable>, 'name' | 'default_caller_id' | 'default_voice' | 'rate_limit' | 'calling_window_json' | 'machine_detection' | 'on_behalf_of' | 'recording_notice'>;

/** Changes an active key's name and defaults; the next request made with it sees them. False when it is unknown or revoked. */
export async function updateKey(db: Kysely<Database>, keyId: string, update: KeyUpdate): Promise<boolean> {
  const result = await db.updateTable('api_keys').set(update).where('id', '=', keyId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes the key from now on; false when it is unknown or already revoked. */
export async function revokeKey(db: Kysely<Database>, keyId: string, now: number): Promise<boolean> {
  const result = await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', keyId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function listNumbers(db: Kysely<Database>, accountId: string): Promise<{ e164: string; createdAt: number }[]> {
  const rows = await db.selectFrom('numbers').select(['e164', 'created_at']).where('account_id', '=', accountId).orderBy('e164').execute();
  return rows.map((r) => ({ e164: r.e164, createdAt: r.created_at }));
}

/** Active keys whose default caller id is this number: removing it would break their placements. */
export async function keysDefaultingTo(db: Kysely<Database>, accountId: string, e164: string): Promise<string[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select('id')
    .where('account_id', '=', accountId)
    .where('default_caller_id', '=', e164)
    .where('revoked_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Removes the number, and clears it as the account's default caller id; false when the account lacks it. */
export async function removeNumber(db: Kysely<Database>, accountId: string, e164: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx.deleteFrom('numbers').where('account_id', '=', accountId).where('e164', '=', e164).executeTakeFirst();
    if (Number(result.numDeletedRows) !== 1) return false;
    await trx.updateTable('accounts').set({ default_caller_id: null }).where('id', '=', accountId).where('default_caller_id', '=', e164).execute();
    return true;
  });
}

export async function setPlanMinutes(db: Kysely<Database>, accountId: string, minutes: number): Promise<void> {
  await db.updateTable('accounts').set({ plan_minutes: minutes }).where('id', '=', accountId).execute();
}
