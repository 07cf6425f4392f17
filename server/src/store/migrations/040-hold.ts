// Waiting on hold, and why a completed call's conversation ended:
// - calls.hold_max_wait_sec: the placement's hold.maxWaitSec (null: the default), kept so any worker's agent and a
//   redial wait as placed;
// - calls.hold_timed_out_at: when the live agent gave up waiting on hold (wall-clock ms), written by the process
//   that held the line before it hangs up, so the engine, in any process, ends the call for that reason;
// - calls.hold_ms: the call-time ms spent on hold, and calls.end_reason: why the conversation ended (hung_up,
//   max_duration, minute_cap, canceled, transferred, hold_timeout), both written as an answered call ends.
import type { Kysely, Migration } from 'kysely';

export const m040Hold: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('hold_max_wait_sec', 'integer').execute();
    await db.schema.alterTable('calls').addColumn('hold_timed_out_at', 'bigint').execute();
    await db.schema.alterTable('calls').addColumn('hold_ms', 'bigint').execute();
    await db.schema.alterTable('calls').addColumn('end_reason', 'text').execute();
  },
};
