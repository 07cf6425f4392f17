// Voicemail drop: calls.voicemail_message, what to say after an answering machine's beep (null: hang up, as in
// v1), and calls.voicemail_left, 1 once the message was spoken.
import type { Kysely, Migration } from 'kysely';

export const m016VoicemailDrop: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('voicemail_message', 'text').execute();
    await db.schema
      .alterTable('calls')
      .addColumn('voicemail_left', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
