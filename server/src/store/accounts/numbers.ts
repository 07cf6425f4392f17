// The numbers table: the caller numbers an account owns.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Adds the number to the account; a number it owns already is left as it was. */
export async function insertNumber(db: Db, accountId: string, e164: string, now: number): Promise<void> {
  await db
    .insertInto('numbers')
    .values({ account_id: accountId, e164, created_at: now })
    .onConflict((oc) => oc.columns(['account_id', 'e164']).doNothing())
    .execute();
}

export async function ownsNumber(db: Db, accountId: string, e164: string): Promise<boolean> {
  const row = await db.selectFrom('numbers').select('e164').where('account_id', '=', accountId).where('e164', '=', e164).executeTakeFirst();
  return row !== undefined;
}

/** The account's numbers in E.164 order. */
export async function listNumberRows(db: Db, accountId: string): Promise<{ e164: string; created_at: number }[]> {
  return db.selectFrom('numbers').select(['e164', 'created_at']).where('account_id', '=', accountId).orderBy('e164').execute();
}

/** Deletes the account's number; false when it has no such number. */
export async function deleteNumber(db: Db, accountId: string, e164: string): Promise<boolean> {
  const result = await db.deleteFrom('numbers').where('account_id', '=', accountId).where('e164', '=', e164).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Which of `e164s` the account owns (one statement: the caller keeps the list within the bound parameters). */
export async function ownedAmong(db: Db, accountId: string, e164s: readonly string[]): Promise<{ e164: string }[]> {
  return db.selectFrom('numbers').select('e164').where('account_id', '=', accountId).where('e164', 'in', e164s).execute();
}
