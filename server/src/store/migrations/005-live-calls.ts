// For carriers and agents that work on a real line: the carrier's inbox (what its callbacks reported, in order,
// for the engine to read at its next step) and the turns of a live conversation as the media bridge heard them.
import type { Kysely, Migration } from 'kysely';

export const m005LiveCalls: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('carrier_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('call_id', 'text', (c) => c.notNull())
      .addColumn('carrier_ref', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text')
      .addColumn('error', 'text')
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('payload_json', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('carrier_events_by_ref').on('carrier_events').columns(['carrier_ref', 'at']).execute();
    await db.schema
      .createTable('call_turns')
      .addColumn('call_id', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('speaker', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('start_ms', 'bigint', (c) => c.notNull())
      .addColumn('end_ms', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('call_turns_pk', ['call_id', 'seq'])
      .execute();
  },
};
