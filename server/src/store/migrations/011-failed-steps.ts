// calls.failed_steps: how many of a call's steps in a row have failed, so that a call that cannot be stepped ends
// (engine_error) rather than stay live for ever.
import type { Kysely, Migration } from 'kysely';

export const m011FailedSteps: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('calls')
      .addColumn('failed_steps', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
