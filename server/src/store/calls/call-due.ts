// Bringing a call's next engine step forward, for news that arrives from outside the engine's step.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** Makes the call due at `now`, unless it is already terminal (next_run_at null) or due sooner. */
export async function makeDueNow(db: Kysely<Database>, callId: string, now: number): Promise<void> {
  await db.updateTable('calls').set({ next_run_at: now }).where('id', '=', callId).where('next_run_at', '>', now).execute();
}

/**
 * Makes an unleased call due at `now` unless it is due sooner: for a step whose write put back the due time of a
 * call a cancel had just made due.
 */
export async function makeUnleasedDueNow(db: Kysely<Database>, callId: string, now: number): Promise<void> {
  await db.updateTable('calls').set({ next_run_at: now }).where('id', '=', callId).where('lease_owner', 'is', null).where('next_run_at', '>', now).execute();
}
