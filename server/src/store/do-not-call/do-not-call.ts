// The do_not_call table: an account's list, one row per number, read and written only for that account.
import type { Kysely, Selectable } from 'kysely';
import type { Database, DoNotCallTable } from '../schema.js';

export type DoNotCallRow = Selectable<DoNotCallTable>;

/** Inserts the entry unless the number is listed already; returns the new row, or undefined when it was listed. */
export async function insertEntryIfAbsent(db: Kysely<Database>, entry: { accountId: string; e164: string; reason: string | null; source: string }, now: number): Promise<DoNotCallRow | undefined> {
  return db
    .insertInto('do_not_call')
    .values({ account_id: entry.accountId, e164: entry.e164, reason: entry.reason, source: entry.source, created_at: now })
    .onConflict((oc) => oc.columns(['account_id', 'e164']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** The account's entry for this number; throws when there is none. */
export async function getEntry(db: Kysely<Database>, accountId: string, e164: string): Promise<DoNotCallRow> {
  return db.selectFrom('do_not_call').selectAll().where('account_id', '=', accountId).where('e164', '=', e164).executeTakeFirstOrThrow();
}

/** Up to `limit` entries of the account in E.164 order, after `after` when given. */
export async function listEntries(db: Kysely<Database>, accountId: string, limit: number, after: string | null): Promise<DoNotCallRow[]> {
  let q = db.selectFrom('do_not_call').selectAll().where('account_id', '=', accountId).orderBy('e164').limit(limit);
  if (after !== null) q = q.where('e164', '>', after);
  return q.execute();
}

/** Deletes the account's entry for this number; false when there was none. */
export async function deleteEntry(db: Kysely<Database>, accountId: string, e164: string): Promise<boolean> {
  const r = await db.deleteFrom('do_not_call').where('account_id', '=', accountId).where('e164', '=', e164).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function hasEntry(db: Kysely<Database>, accountId: string, e164: string): Promise<boolean> {
  return (await db.selectFrom('do_not_call').select('e164').where('account_id', '=', accountId).where('e164', '=', e164).executeTakeFirst()) !== undefined;
}

/** Whether the number is on the list of the account that placed the call (a live agent knows its call, not its account). */
export async function hasEntryForCall(db: Kysely<Database>, callId: string, e164: string): Promise<boolean> {
  const row = await db
    .selectFrom('do_not_call')
    .innerJoin('calls', 'calls.account_id', 'do_not_call.account_id')
    .select('do_not_call.e164')
    .where('calls.id', '=', callId)
    .where('do_not_call.e164', '=', e164)
    .executeTakeFirst();
  return row !== undefined;
}

/** Which of `e164s` are on the account's list (one statement: the caller keeps the list within the bound parameters). */
export async function listedAmong(db: Kysely<Database>, accountId: string, e164s: readonly string[]): Promise<{ e164: string }[]> {
  return db.selectFrom('do_not_call').select('e164').where('account_id', '=', accountId).where('e164', 'in', e164s).execute();
}
