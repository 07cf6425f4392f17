// The call engine's columns: when a call is next due, who holds its lease, and the dial record that makes
// dialling at-most-once (the attempt is written before the carrier is asked; the carrier's reference after).
import type { Kysely, Migration } from 'kysely';

export const m002Engine: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('next_run_at', 'bigint').execute();
    await db.schema.alterTable('calls').addColumn('lease_owner', 'text').execute();
    await db.schema.alterTable('calls').addColumn('lease_expires_at', 'bigint').execute();
    await db.schema.alterTable('calls').addColumn('dial_attempted_at', 'bigint').execute();
    await db.schema.alterTable('calls').addColumn('carrier_ref', 'text').execute();
    await db.schema.alterTable('calls').addColumn('engine_state', 'text').execute();
    await db.schema.createIndex('calls_due').on('calls').columns(['next_run_at']).execute();
  },
};
