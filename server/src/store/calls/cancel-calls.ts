// The writes of a call's cancel, on the cancel's executor: ending a call not yet dialled, or marking one being
// dialled or live for the engine to take down.
import type { ExpressionBuilder } from 'kysely';
import type { CallRow } from '../calls-repo.js';
import { runQuery } from '../prepared-query.js';
import type { Database } from '../schema.js';
import type { Executor } from '../store.js';

/** A call not yet dialled: queued, or dialing while no dial stands (the carrier throttled the last one). */
export const notDialled = (eb: ExpressionBuilder<Database, 'calls'>) =>
  eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'dialing'), eb('dial_attempted_at', 'is', null), eb('carrier_ref', 'is', null)])]);

/** A call not yet dialled, ended canceled now: nothing billed, and any worker's lease on it cleared (fenced off). */
export const canceledUndialled = (now: number) =>
  ({
    status: 'canceled',
    ended_at: now,
    duration_sec: 0,
    billed_minutes: 0,
    error: null,
    cancel_requested_at: now,
    next_run_at: null,
    lease_owner: null,
    lease_expires_at: null,
    updated_at: now,
  }) as const;

/** Ends the key's call `id` canceled if it is not yet dialled (canceledUndialled); the row as ended, or undefined. */
export async function cancelUndialledCall(ex: Executor, apiKeyId: string, id: string, now: number): Promise<CallRow | undefined> {
  const [ended] = (await runQuery(
    ex,
    ex.compiler.updateTable('calls').set(canceledUndialled(now)).where('id', '=', id).where('api_key_id', '=', apiKeyId).where(notDialled).returningAll(),
  )) as CallRow[];
  return ended;
}

/**
 * Marks the key's call `id`, if being dialled or live, as asked to cancel (the first request's time is kept) and
 * makes it due at once; the row as marked, or undefined.
 */
export async function markCancelRequested(ex: Executor, apiKeyId: string, id: string, now: number): Promise<CallRow | undefined> {
  const [marked] = (await runQuery(
    ex,
    ex.compiler
      .updateTable('calls')
      .set((eb) => ({ cancel_requested_at: eb.fn.coalesce('cancel_requested_at', eb.val(now)), next_run_at: now, updated_at: now }))
      .where('id', '=', id)
      .where('api_key_id', '=', apiKeyId)
      .where('status', 'in', ['dialing', 'in_progress'])
      .returningAll(),
  )) as CallRow[];
  return marked;
}

/** The key's call `id`, read on the executor (inside its transaction); undefined for none. */
export async function readCallForKey(ex: Executor, apiKeyId: string, id: string): Promise<CallRow | undefined> {
  const [row] = (await runQuery(ex, ex.compiler.selectFrom('calls').selectAll().where('id', '=', id).where('api_key_id', '=', apiKeyId))) as CallRow[];
  return row;
}
