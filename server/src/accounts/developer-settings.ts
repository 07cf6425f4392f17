// The developer settings as the CLI manages them: listings, revocation, numbers and plans. Listings never carry
// a key, its hash or a webhook secret; a key appears in clear only once, when it is created.
import type { Kysely } from 'kysely';
import type { CallingWindow } from '../generated/types.gen.js';
import type { AccountsTable, ApiKeysTable, Database } from '../store/schema.js';
import { clearDefaultCallerIdIf, findAccountById, findAccountsByName, listAccountRows, setPlanMinutes as setAccountPlanMinutes } from '../store/accounts/accounts.js';
import { activeKeyIdsDefaultingTo, findKeyRow, listKeyRows, revokeActiveKey, updateActiveKey, type KeyUpdate } from '../store/accounts/api-keys.js';
import { deleteNumber, listNumberRows } from '../store/accounts/numbers.js';

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
  return listAccountRows(db);
}

/** The account with this id, else the only account with this name; `ambiguous` when several share the name. */
export async function resolveAccount(db: Kysely<Database>, ref: string): Promise<AccountRow | 'ambiguous' | undefined> {
  const byId = await findAccountById(db, ref);
  if (byId) return byId;
  const byName = await findAccountsByName(db, ref, 2);
  return byName.length > 1 ? 'ambiguous' : byName[0];
}

/** A key's defaults for the calls placed with it, as the CLI's listings and the API's getSettings show them. */
export function keyDefaults(
  r: Pick<ApiKeysTable, 'calling_window_json' | 'machine_detection' | 'on_behalf_of' | 'recording_notice'>,
): Pick<KeyListing, 'callingWindow' | 'machineDetection' | 'onBehalfOf' | 'recordingNotice'> {
  return {
    callingWindow: r.calling_window_json === null ? null : (JSON.parse(r.calling_window_json) as CallingWindow),
    machineDetection: r.machine_detection === 'off' ? 'off' : 'on',
    onBehalfOf: r.on_behalf_of,
    recordingNotice: r.recording_notice !== 0,
  };
}

export async function listKeys(db: Kysely<Database>, accountId: string): Promise<KeyListing[]> {
  const rows = await listKeyRows(db, accountId);
  return rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    name: r.name,
    keyHint: r.key_hint,
    defaultCallerId: r.default_caller_id,
    defaultVoice: r.default_voice,
    rateLimit: r.rate_limit,
    ...keyDefaults(r),
    revokedAt: r.revoked_at,
    createdAt: r.created_at,
  }));
}

export async function findKey(db: Kysely<Database>, keyId: string) {
  return findKeyRow(db, keyId);
}

/** What `svc keys update` may change of a key: its name and defaults. */
export type { KeyUpdate };

/** Changes an active key's name and defaults; the next request made with it sees them. False when it is unknown or revoked. */
export async function updateKey(db: Kysely<Database>, keyId: string, update: KeyUpdate): Promise<boolean> {
  return updateActiveKey(db, keyId, update);
}

/** Revokes the key from now on; false when it is unknown or already revoked. */
export async function revokeKey(db: Kysely<Database>, keyId: string, now: number): Promise<boolean> {
  return revokeActiveKey(db, keyId, now);
}

export async function listNumbers(db: Kysely<Database>, accountId: string): Promise<{ e164: string; createdAt: number }[]> {
  const rows = await listNumberRows(db, accountId);
  return rows.map((r) => ({ e164: r.e164, createdAt: r.created_at }));
}

/** Active keys whose default caller id is this number: removing it would break their placements. */
export async function keysDefaultingTo(db: Kysely<Database>, accountId: string, e164: string): Promise<string[]> {
  return activeKeyIdsDefaultingTo(db, accountId, e164);
}

/** Removes the number, and clears it as the account's default caller id; false when the account lacks it. */
export async function removeNumber(db: Kysely<Database>, accountId: string, e164: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await deleteNumber(trx, accountId, e164))) return false;
    await clearDefaultCallerIdIf(trx, accountId, e164);
    return true;
  });
}

export async function setPlanMinutes(db: Kysely<Database>, accountId: string, minutes: number): Promise<void> {
  await setAccountPlanMinutes(db, accountId, minutes);
}
