// The keys a call presses once answered (calls.send_digits, the placement's sendDigits: 0-9, *, #, w and W; null
// for none), kept so the carrier dials with them from any worker, a redial presses them again, and the call record
// shows them.
import type { Kysely, Migration } from 'kysely';

export const m034SendDigits: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('send_digits', 'text').execute();
  },
};
