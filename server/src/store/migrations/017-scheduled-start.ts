// calls.scheduled_at: when a call placed with startAt is to be dialled (it is due for the engine then); null for a
// call dialled at once.
import type { Kysely, Migration } from 'kysely';

export const m017ScheduledStart: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('scheduled_at', 'bigint').execute();
  },
};
