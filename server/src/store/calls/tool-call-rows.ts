// A call's uses of client tools as rows for the live streams (call_tool_calls), settled in the transaction that ends
// the call, as its turns are (call-turns.ts): each shown by the end, whichever process's clock timed it.
import { runQuery } from '../prepared-query.js';
import type { Executor } from '../store.js';

/**
 * Makes every use of the call from `kept` on gone (a scripted conversation's uses the end cut off) and every use
 * kept shown by `endedAt`: one timed by the clock of a process that held the line and runs ahead of the engine's
 * is shown at the end, so a stream sends it before the terminal status.
 */
export async function settleToolCallRows(ex: Executor, callId: string, endedAt: number, kept = Number.MAX_SAFE_INTEGER): Promise<void> {
  const db = ex.compiler;
  if (kept < Number.MAX_SAFE_INTEGER) await runQuery(ex, db.deleteFrom('call_tool_calls').where('call_id', '=', callId).where('seq', '>=', kept));
  await runQuery(ex, db.updateTable('call_tool_calls').set({ at: endedAt }).where('call_id', '=', callId).where('at', '>', endedAt));
}
