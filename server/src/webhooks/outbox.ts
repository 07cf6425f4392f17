// Writes an event into the outbox. Call it inside the transaction that commits the status change, so a call
// can never reach a status without its event (and never gets an event for a status it did not commit).
import type { Kysely, Transaction } from 'kysely';
import type { CallEventName } from '../generated/types.gen.js';
import type { CallRow } from '../store/calls-repo.js';
import type { Database } from '../store/schema.js';
import { buildEventPayload } from './event-payload.js';

/** Enqueues the event when the call has a webhookUrl; returns its eventId, or null when there is none. */
export async function enqueueEvent(
  trx: Transaction<Database> | Kysely<Database>,
  call: CallRow,
  event: CallEventName,
  builtAt: number,
): Promise<string | null> {
  if (!call.webhook_url) return null;
  const payload = buildEventPayload(call, event, builtAt);
  await trx
    .insertInto('webhook_events')
    .values({
      event_id: payload.eventId,
      call_id: call.id,
      api_key_id: call.api_key_id,
      event,
      url: call.webhook_url,
      body: JSON.stringify(payload),
      state: 'pending',
      attempts: 0,
      next_attempt_at: builtAt,
      lease_owner: null,
      lease_expires_at: null,
      last_status: null,
      last_error: null,
      delivered_at: null,
      created_at: builtAt,
    })
    .execute();
  return payload.eventId;
}
