// The opt-out spoken in a call: calls.opt_out (1 when the callee asked not to be called again) and
// do_not_call.call_id (the call in which it was asked, for entries with source `call`).
import type { Kysely, Migration } from 'kysely';

export const m021OptOut: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('calls')
      .addColumn('opt_out', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('do_not_call').addColumn('call_id', 'text').execute();
  },
};
