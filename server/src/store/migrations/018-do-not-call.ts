// The account's do-not-call list: one row per number (E.164), with why and how it came on the list.
import type { Kysely, Migration } from 'kysely';

export const m018DoNotCall: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('do_not_call')
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('e164', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('do_not_call_pk', ['account_id', 'e164'])
      .execute();
  },
};
