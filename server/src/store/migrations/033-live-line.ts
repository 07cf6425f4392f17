// When a live agent's session joined the call's line (calls.line_opened_at) and when it closed with every turn it
// heard written (calls.line_closed_at), wall-clock ms, written by the process that held the line. The engine, in
// whatever process it runs, waits for the close (bounded) before it reads the turns of a call whose line ended, so
// the words a callee said as they hung up are in.
import type { Kysely, Migration } from 'kysely';

export const m033LiveLine: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('line_opened_at', 'bigint').execute();
    await db.schema.alterTable('calls').addColumn('line_closed_at', 'bigint').execute();
  },
};
