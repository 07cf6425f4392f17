// calls.turns_json: the conversation turn by turn with its times (seconds from the answer), written when an
// answered call ends; null for a call never answered.
import type { Kysely, Migration } from 'kysely';

export const m014CallTurns: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('turns_json', 'text').execute();
  },
};
