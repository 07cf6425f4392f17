// The inbox of a carrier that reports by callback (Twilio's status callbacks): a callback route writes what
// happened on the line here and makes the call due, and the carrier's check() reads the events in arrival order
// at the engine's next step. Durable, so a callback that arrives while no worker runs is not lost.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { LineEvent } from './carrier.js';

export async function recordLineEvent(
  db: Kysely<Database>,
  input: { callId: string; ref: string; event: LineEvent; payload?: unknown },
  now: number,
): Promise<void> {
  const e = input.event;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('carrier_events')
      .values({
        id: randomUUID(),
        call_id: input.callId,
        carrier_ref: input.ref,
        kind: e.kind,
        outcome: e.kind === 'ended' ? e.outcome : null,
        error: e.kind === 'ended' ? (e.error ?? null) : null,
        at: e.at,
        payload_json: input.payload === undefined ? null : JSON.stringify(input.payload),
        created_at: now,
      })
      .execute();
    // Due at once, unless the call is already terminal (next_run_at null) or due sooner.
    await trx.updateTable('calls').set({ next_run_at: now }).where('id', '=', input.callId).where('next_run_at', '>', now).execute();
  });
}

export interface InboxEntry {
  event: LineEvent;
  /** What the callback route kept of the callback (its payload), or null. */
  payload: unknown;
}

/** The inbox's entries for a carrier reference after the first `seen`, in arrival order. */
export async function readInbox(db: Kysely<Database>, ref: string, seen: number): Promise<InboxEntry[]> {
  const rows = await db
    .selectFrom('carrier_events')
    .select(['kind', 'outcome', 'error', 'at', 'payload_json'])
    .where('carrier_ref', '=', ref)
    .orderBy('created_at')
    .orderBy('id')
    .offset(seen)
    .limit(1000)
    .execute();
  return rows.map((r) => {
    const at = Number(r.at);
    const event: LineEvent =
      r.kind === 'ended'
        ? { kind: 'ended', at, outcome: r.outcome as Extract<LineEvent, { kind: 'ended' }>['outcome'], ...(r.error ? { error: r.error as never } : {}) }
        : { kind: r.kind as 'answered' | 'dropped' | 'hung_up', at };
    return { event, payload: r.payload_json ? (JSON.parse(r.payload_json) as unknown) : null };
  });
}
