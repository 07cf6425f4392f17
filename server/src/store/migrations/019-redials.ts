// Redials: calls.redial_json, the redials a call may still lead to ({ onNoAnswer, onVoicemail, afterMinutes });
// calls.previous_call_id and calls.next_call_id link a redial chain both ways.
import type { Kysely, Migration } from 'kysely';

export const m019Redials: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('redial_json', 'text').execute();
    await db.schema.alterTable('calls').addColumn('previous_call_id', 'text').execute();
    await db.schema.alterTable('calls').addColumn('next_call_id', 'text').execute();
  },
};
