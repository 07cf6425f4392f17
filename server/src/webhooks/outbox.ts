// Writes an event into the outbox. Call it inside the transaction that commits the status change, so a call
// can never reach a status without its event (and never gets an event for a status it did not commit).
import type { CallEventName } from '../generated/types.gen.js';
import type { CallRow } from '../store/calls-repo.js';
import { PARAM, statement, type Executor } from '../store/prepared-query.js';
import { buildEventPayload } from './event-payload.js';

const P = PARAM as never;
const insertEvent = statement((db) =>
  db.insertInto('webhook_events').values({
    event_id: P,
    call_id: P,
    api_key_id: P,
    event: P,
    url: P,
    body: P,
    state: 'pending',
    attempts: 0,
    next_attempt_at: P,
    lease_owner: null,
    lease_expires_at: null,
    last_status: null,
    last_error: null,
    delivered_at: null,
    created_at: P,
  }),
);

/** Enqueues the event when the call has a webhookUrl; returns its eventId, or null when there is none. */
export async function enqueueEvent(ex: Executor, call: CallRow, event: CallEventName, builtAt: number): Promise<string | null> {
  if (!call.webhook_url) return null;
  const payload = buildEventPayload(call, event, builtAt);
  await insertEvent(ex, payload.eventId, call.id, call.api_key_id, event, call.webhook_url, JSON.stringify(payload), builtAt, builtAt);
  return payload.eventId;
}
