// Machine detection per call and per key: calls.machine_detection (`off` when the call was placed with answering-
// machine detection turned off; null is on) and api_keys.machine_detection (the key's default, null: on);
// calls.voicemail_detected_at, when the live agent reported hearing a voicemail greeting (the voicemail_detected
// tool), which confirms a machine the carrier only suspected.
import type { Kysely, Migration } from 'kysely';

export const m029MachineDetection: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('machine_detection', 'text').execute();
    await db.schema.alterTable('calls').addColumn('voicemail_detected_at', 'bigint').execute();
    await db.schema.alterTable('api_keys').addColumn('machine_detection', 'text').execute();
  },
};
