// The sandbox carrier's ledger of dials, and indexes the engine's queries need. The sandbox stands in for the
// telephone network, and the ledger is the network's own record of every call it was asked to place, kept apart
// from the engine's rows so that tests can prove a call was never dialled twice, whatever crashed.
import type { Kysely, Migration } from 'kysely';

export const m004SandboxDials: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('sandbox_dials')
      .addColumn('call_id', 'text', (c) => c.notNull())
      .addColumn('carrier_ref', 'text', (c) => c.notNull())
      .addColumn('to_number', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sandbox_dials_by_call').on('sandbox_dials').columns(['call_id']).execute();
    await db.schema.createIndex('calls_by_lease').on('calls').columns(['lease_owner']).execute();
    // Minute usage is summed per account on every placement and every answer.
    await db.schema.createIndex('calls_by_account_status').on('calls').columns(['account_id', 'status', 'ended_at']).execute();
  },
};
