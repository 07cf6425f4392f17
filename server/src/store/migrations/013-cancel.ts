// Cancelling a call: calls.cancel_requested_at, when the client asked a call being dialled or live to end (the
// engine takes it down and reads what happened on the line before it); sandbox_dials.hung_up_at, when the
// sandbox's line was hung up, so its ledger shows a canceled line released.
import type { Kysely, Migration } from 'kysely';

export const m013Cancel: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('cancel_requested_at', 'bigint').execute();
    await db.schema.alterTable('sandbox_dials').addColumn('hung_up_at', 'bigint').execute();
  },
};
