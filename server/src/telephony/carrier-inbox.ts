// The inbox of a carrier that reports by callback (Twilio's status callbacks): a callback route writes what
// happened on the line here (store/calls/carrier-events.ts) and makes the call due, and the carrier's check() reads the events in arrival order
// at the engine's next step. Durable, so a callback that arrives while no worker runs is not lost.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { appendCarrierEvent, readCarrierEvents } from '../store/calls/carrier-events.js';
import type { LineEvent } from './carrier.js';

export async function recordLineEvent(db: Kysely<Database>, input: { callId: string; ref: string; event: LineEvent; payload?: unknown }, now: number): Promise<void> {
  const e = input.event;
  await appendCarrierEvent(
    db,
    {
      id: randomUUID(),
      call_id: input.callId,
      carrier_ref: input.ref,
      kind: e.kind,
      outcome: e.kind === 'ended' ? e.outcome : null,
      error: e.kind === 'ended' ? (e.error ?? null) : null,
      at: e.at,
      payload_json: input.payload === undefined ? null : JSON.stringify(input.payload),
      created_at: now,
    },
    now,
  );
}

export interface InboxEntry {
  event: LineEvent;
  /** What the callback route kept of the callback (its payload), or null. */
  payload: unknown;
}

/** The inbox's entries for a carrier reference after the first `seen`, in arrival order. */
export async function readInbox(db: Kysely<Database>, ref: string, seen: number): Promise<InboxEntry[]> {
  const rows = await readCarrierEvents(db, ref, seen);
  return rows.map((r) => {
    const at = Number(r.at);
    const event: LineEvent =
      r.kind === 'ended'
        ? { kind: 'ended', at, outcome: r.outcome as Extract<LineEvent, { kind: 'ended' }>['outcome'], ...(r.error ? { error: r.error as never } : {}) }
        : { kind: r.kind as 'answered' | 'dropped' | 'hung_up', at };
    return { event, payload: r.payload_json ? (JSON.parse(r.payload_json) as unknown) : null };
  });
}
