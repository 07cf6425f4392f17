// The outbox: an event is a row written in the same transaction as the status change that caused it, so a call
// can never reach a status without its event (and never gets an event for a status it did not commit).
import type { Insertable, Kysely } from 'kysely';
import type { CallEventName } from '../generated/types.gen.js';
import type { CallRow } from '../store/calls-repo.js';
import type { Database, WebhookEventsTable } from '../store/schema.js';
import { buildEventPayload } from './event-payload.js';
import { goneEventReceivers } from '../store/webhooks/events.js';

/**
 * The outbox row of `event` for the call as it stands after the change. A call with no webhookUrl still gets the
 * row, in state none: it is the call's event log (listCallEvents), and the dispatcher only claims pending rows.
 */
export function eventRow(call: CallRow, event: CallEventName, builtAt: number): Insertable<WebhookEventsTable> {
  const row = outboxRow({ subjectId: call.id, apiKeyId: call.api_key_id, url: call.webhook_url ?? '' }, event, buildEventPayload(call, event, builtAt), builtAt);
  return call.webhook_url ? row : { ...row, state: 'none' };
}

/**
 * A pending outbox row: `payload` to `url`, signed with the key's secret. The subject (a call, or a batch for its
 * own events) is whose events are delivered in order and whose receiver a 410 retires.
 */
export function outboxRow(to: { subjectId: string; apiKeyId: string; url: string }, event: string, payload: { eventId: string }, builtAt: number): Insertable<WebhookEventsTable> {
  return {
    event_id: payload.eventId,
    call_id: to.subjectId,
    api_key_id: to.apiKeyId,
    event,
    url: to.url,
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
  };
}

/** `call_id url` of the receivers that answered 410 Gone to an event of these calls: they get no more of them. */
export async function goneReceivers(db: Kysely<Database>, events: readonly { call_id: string }[]): Promise<Set<string>> {
  const callIds = [...new Set(events.map((e) => e.call_id))];
  const rows = await goneEventReceivers(db, callIds);
  return new Set(rows.map((r) => receiverOf(r)));
}

export const receiverOf = (event: { call_id: string; url: string }) => `${event.call_id} ${event.url}`;
