// The columns of a call that the live agent's side of the line writes while the engine holds the call's lease:
// each operation touches only its own columns, so it never overwrites what the engine writes as the call ends.
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { CallsTable, CallToolCallsTable, Database } from '../schema.js';
import { makeDueNow } from './call-due.js';

/** When the call's line was opened to the agent and when its turns were all written; undefined for no such call. */
export async function readLineMarks(db: Kysely<Database>, callId: string): Promise<Pick<Selectable<CallsTable>, 'line_opened_at' | 'line_closed_at'> | undefined> {
  return db.selectFrom('calls').select(['line_opened_at', 'line_closed_at']).where('id', '=', callId).executeTakeFirst();
}

/** Records that the line is open to the agent at `at`, its turns not yet all written. */
export async function markLineOpened(db: Kysely<Database>, callId: string, at: number): Promise<void> {
  await db.updateTable('calls').set({ line_opened_at: at, line_closed_at: null }).where('id', '=', callId).execute();
}

/** Records that the line's turns are all written, at `at`. */
export async function markLineClosed(db: Kysely<Database>, callId: string, at: number): Promise<void> {
  await db.updateTable('calls').set({ line_closed_at: at }).where('id', '=', callId).execute();
}

/** The call's opt_out flag (0 or 1); undefined for no such call. */
export async function readOptOut(db: Kysely<Database>, callId: string): Promise<Pick<Selectable<CallsTable>, 'opt_out'> | undefined> {
  return db.selectFrom('calls').select('opt_out').where('id', '=', callId).executeTakeFirst();
}

/** Records that the callee asked not to be called again. */
export async function markOptedOut(db: Kysely<Database>, callId: string): Promise<void> {
  await db.updateTable('calls').set({ opt_out: 1 }).where('id', '=', callId).execute();
}

/** The agent's failure recorded on the call, if any; undefined for no such call. */
export async function readAgentFailure(db: Kysely<Database>, callId: string): Promise<Pick<Selectable<CallsTable>, 'agent_failure'> | undefined> {
  return db.selectFrom('calls').select('agent_failure').where('id', '=', callId).executeTakeFirst();
}

/** Records that the agent could not serve the call. */
export async function markAgentUnavailable(db: Kysely<Database>, callId: string): Promise<void> {
  await db.updateTable('calls').set({ agent_failure: 'agent_unavailable' }).where('id', '=', callId).execute();
}

/** Records that the agent gave up waiting on hold at `at` (the first time counts). */
export async function markHoldTimedOut(db: Kysely<Database>, callId: string, at: number): Promise<void> {
  await db.updateTable('calls').set({ hold_timed_out_at: at }).where('id', '=', callId).where('hold_timed_out_at', 'is', null).execute();
}

/** When the agent gave up waiting on hold, if it did; undefined for no such call. */
export async function readHoldTimedOut(db: Kysely<Database>, callId: string): Promise<Pick<Selectable<CallsTable>, 'hold_timed_out_at'> | undefined> {
  return db.selectFrom('calls').select('hold_timed_out_at').where('id', '=', callId).executeTakeFirst();
}

/** A call's uses of client tools to write: its whole list (JSON, the contract's ToolCall[]) and its uses not yet written. */
export interface ToolCallsWrite {
  callId: string;
  listJson: string;
  /** The new uses' rows for the streams (call_tool_calls). */
  rows: Insertable<CallToolCallsTable>[];
}

/**
 * Writes the uses of client tools so far of several calls in one transaction: each call's list (one UPDATE, a CASE
 * on the call's id) and the new uses' rows for the streams (one INSERT), so one commit however many calls' tools
 * answered at once, and a stream never shows a use the record lacks. A row already there is kept.
 */
export async function writeToolCalls(db: Kysely<Database>, writes: readonly ToolCallsWrite[]): Promise<void> {
  if (writes.length === 0) return;
  const each = writes.map((w) => sql`when ${w.callId} then ${w.listJson}`);
  const rows = writes.flatMap((w) => w.rows);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('calls')
      .set({ tool_calls_json: sql<string>`case ${sql.ref('id')} ${sql.join(each, sql` `)} end` })
      .where(
        'id',
        'in',
        writes.map((w) => w.callId),
      )
      .execute();
    if (rows.length > 0) await insertToolCallRows(trx, rows);
  });
}

/** Inserts uses' rows for the streams; a use the call already has at its seq is kept as it is. */
export async function insertToolCallRows(db: Kysely<Database>, rows: readonly Insertable<CallToolCallsTable>[]): Promise<void> {
  await db
    .insertInto('call_tool_calls')
    .values([...rows])
    .onConflict((oc) => oc.columns(['call_id', 'seq']).doNothing())
    .execute();
}

/** Records that the agent handed the call over to `to` at `at` (wall-clock ms) and makes the call due at once, in one transaction. */
export async function markTransferred(db: Kysely<Database>, callId: string, to: string, at: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('calls').set({ transferred_to: to, transferred_at: at }).where('id', '=', callId).execute();
    await makeDueNow(trx, callId, at);
  });
}

/** To whom and when the agent handed the call over; undefined for no such call. */
export async function readTransferred(db: Kysely<Database>, callId: string): Promise<Pick<Selectable<CallsTable>, 'transferred_to' | 'transferred_at'> | undefined> {
  return db.selectFrom('calls').select(['transferred_to', 'transferred_at']).where('id', '=', callId).executeTakeFirst();
}

/** Writes the call's measured conversation latency (JSON). */
export async function writeCallLatency(db: Kysely<Database>, callId: string, latencyJson: string): Promise<void> {
  await db.updateTable('calls').set({ latency_json: latencyJson }).where('id', '=', callId).execute();
}

/**
 * Claims a dialling call for the agent host `host`: true if this claim took it, false if another host holds it or
 * the call is no longer dialling.
 */
export async function claimAgentHost(db: Kysely<Database>, callId: string, host: string): Promise<boolean> {
  const claimed = await db.updateTable('calls').set({ agent_host: host }).where('id', '=', callId).where('agent_host', 'is', null).where('status', '=', 'dialing').executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}
