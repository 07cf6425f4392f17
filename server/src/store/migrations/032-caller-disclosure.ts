// What the agent tells the callee about the call: on whose behalf it calls and whether it says
// the call is recorded. calls.on_behalf_of (null: "a customer") and calls.recording_notice (1: say it, the
// default; 0: not); api_keys.on_behalf_of and api_keys.recording_notice, the key's defaults (null: none set).
import type { Kysely, Migration } from 'kysely';

export const m032CallerDisclosure: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('on_behalf_of', 'text').execute();
    await db.schema
      .alterTable('calls')
      .addColumn('recording_notice', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.alterTable('api_keys').addColumn('on_behalf_of', 'text').execute();
    await db.schema.alterTable('api_keys').addColumn('recording_notice', 'integer').execute();
  },
};
