// A call's transfer to a person (calls.transfer_json: JSON, the placement's `transfer` with its defaults filled in:
// to, mode, when; null for none), and the handover once it happened (calls.transferred_to, the number the agent
// handed the call over to, and calls.transferred_at, wall-clock ms; both null until then), written by the agent's
// side of the line and read by the engine, which ends the call where the agent left.
import type { Kysely, Migration } from 'kysely';

export const m037Transfers: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('transfer_json', 'text').execute();
    await db.schema.alterTable('calls').addColumn('transferred_to', 'text').execute();
    await db.schema.alterTable('calls').addColumn('transferred_at', 'bigint').execute();
  },
};
