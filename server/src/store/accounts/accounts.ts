// The accounts table: an account's row, its plan and its default caller id.
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { AccountsTable, Database } from '../schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Inserts a new account. */
export async function insertAccount(db: Db, row: Insertable<AccountsTable>): Promise<void> {
  await db.insertInto('accounts').values(row).execute();
}

/** Every account, oldest first. */
export async function listAccountRows(db: Db): Promise<AccountsTable[]> {
  return db.selectFrom('accounts').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function findAccountById(db: Db, id: string): Promise<AccountsTable | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The first account with this name. */
export async function findAccountByName(db: Db, name: string): Promise<AccountsTable | undefined> {
  return db.selectFrom('accounts').selectAll().where('name', '=', name).executeTakeFirst();
}

/** Up to `limit` accounts with this name: enough for a caller to tell one from several. */
export async function findAccountsByName(db: Db, name: string, limit: number): Promise<AccountsTable[]> {
  return db.selectFrom('accounts').selectAll().where('name', '=', name).limit(limit).execute();
}

/** The account's default caller id, or undefined when there is no such account. */
export async function findDefaultCallerId(db: Db, accountId: string): Promise<{ default_caller_id: string | null } | undefined> {
  return db.selectFrom('accounts').select('default_caller_id').where('id', '=', accountId).executeTakeFirst();
}

export async function setDefaultCallerId(db: Db, accountId: string, e164: string): Promise<void> {
  await db.updateTable('accounts').set({ default_caller_id: e164 }).where('id', '=', accountId).execute();
}

/** Clears the account's default caller id when it is this number. */
export async function clearDefaultCallerIdIf(db: Db, accountId: string, e164: string): Promise<void> {
  await db.updateTable('accounts').set({ default_caller_id: null }).where('id', '=', accountId).where('default_caller_id', '=', e164).execute();
}

export async function setPlanMinutes(db: Db, accountId: string, minutes: number): Promise<void> {
  await db.updateTable('accounts').set({ plan_minutes: minutes }).where('id', '=', accountId).execute();
}
