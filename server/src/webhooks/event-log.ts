// The event log of a subject, a call (listCallEvents, redeliverEvent) or a batch's own events (listBatchEvents,
// redeliverBatchEvent), read and written on the outbox itself: every event of a subject is an outbox row whose
// call_id is the subject's id (state none when it has no webhookUrl), with its attempts. The receiver's URL and the
// signing secrets are never part of what is shown.
import type { Kysely, Selectable } from 'kysely';
import { ApiError } from '../errors/api-error.js';
import type { BatchEventLogEntry, CallEventLogEntry } from '../generated/types.gen.js';
import { attemptsOfEvent, attemptsOfEvents } from '../store/webhooks/attempts.js';
import { eventsOf, findEventOf, requeueForRedelivery } from '../store/webhooks/events.js';
import type { Database, WebhookAttemptsTable, WebhookEventsTable } from '../store/schema.js';
import type { WriteUnit } from '../store/store.js';

/** The states a redelivery may be asked in: a receiver that lost what it was sent may ask for it again. */
const REDELIVERABLE = ['delivered', 'failed', 'gone'];

/**
 * How long after a redelivery of an event is asked for the next is refused: one event cannot be made a stream of
 * signed requests to its receiver, however fast its receiver answers and however many requests the key may make.
 */
export const REDELIVERY_INTERVAL_MS = 10_000;

/** The Retry-After of a 409 while an attempt is in flight: an attempt is made within moments of being due. */
const IN_FLIGHT_RETRY_MS = 1000;

type EventRow = Selectable<WebhookEventsTable>;
type AttemptRow = Selectable<WebhookAttemptsTable>;

/** Whose events: a call's, or a batch's own. Its key's ownership is checked by the caller. */
export interface EventSubject {
  kind: 'call' | 'batch';
  id: string;
}

/** An entry of a subject's log: a call's event, or a batch's, in the same shape. */
export type EventLogEntry = CallEventLogEntry | BatchEventLogEntry;

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** An attempt's error without the receiver's host (the SSRF guard names it): no part of the URL is shown. */
function scrubbed(error: string | null, url: string): string | null {
  if (error === null || url === '') return error;
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return error;
  }
  return host ? error.split(url).join('the webhook URL').split(host).join("the webhook URL's host") : error;
}

function toLogEntry(event: EventRow, attempts: readonly AttemptRow[]): EventLogEntry {
  return {
    eventId: event.event_id,
    event: event.event as EventLogEntry['event'],
    timestamp: iso(event.created_at)!,
    state: event.state as EventLogEntry['state'],
    attempts: attempts.map((a) => ({
      attempt: Number(a.attempt),
      at: iso(a.at)!,
      statusCode: a.status_code === null ? null : Number(a.status_code),
      error: scrubbed(a.error, event.url),
      latencyMs: Number(a.latency_ms),
      redelivery: Number(a.redelivery) === 1,
    })),
    attemptsOmitted: Math.max(0, Number(event.attempts) - attempts.length),
    nextAttemptAt: event.state === 'pending' ? iso(event.next_attempt_at) : null,
    deliveredAt: iso(event.delivered_at),
    payload: JSON.parse(event.body),
  };
}

/** Every event of the subject, oldest first (a call's events are built in order, each after the last). */
export async function eventLog(db: Kysely<Database>, subject: EventSubject): Promise<EventLogEntry[]> {
  const events = await eventsOf(db, subject.id);
  if (events.length === 0) return [];
  const attempts = await attemptsOfEvents(
    db,
    events.map((e) => e.event_id),
  );
  // An answer's in_progress event is built before any ending in the same millisecond.
  const order = (e: EventRow) => (e.event === 'call.in_progress' ? 0 : 1);
  events.sort((a, b) => Number(a.created_at) - Number(b.created_at) || order(a) - order(b));
  return events.map((e) =>
    toLogEntry(
      e,
      attempts.filter((a) => a.event_id === e.event_id),
    ),
  );
}

/**
 * Queues one more attempt of the subject's event: pending now, marked as a redelivery (dispatcher.ts makes it one
 * attempt, sent even to a receiver that answered 410). Resolves with the log entry as queued. One statement
 * checks and queues, so of redeliveries asked at once exactly one is queued.
 */
export function redeliverUnit(subject: EventSubject, eventId: string, now: number): WriteUnit<EventLogEntry> {
  return ({ atomically }) =>
    atomically(null, async (ex) => {
      const queued = await requeueForRedelivery(ex, subject.id, eventId, REDELIVERABLE, now, now - REDELIVERY_INTERVAL_MS);
      if (queued) return toLogEntry(queued, await attemptsOfEvent(ex, queued.event_id));
      const event = await findEventOf(ex, subject.id, eventId);
      if (!event) throw new ApiError(404, 'not_found', `${subject.kind === 'call' ? 'Call' : 'Batch'} ${subject.id} has no event ${eventId}.`);
      throw refusal(subject, event, now);
    });
}

/**
 * Why the event was not queued. Its state is read after the update looked at it: on Postgres an attempt in flight
 * then may have been recorded in between, so an event found delivered, failed or gone and free to be redelivered
 * was still pending a moment before (409, never the 400 of an event that cannot be sent).
 */
function refusal(subject: EventSubject, event: EventRow, now: number): ApiError {
  if (event.state === 'none') {
    const made = subject.kind === 'call' ? 'call was placed' : 'batch was created';
    return new ApiError(400, 'no_webhook_url', `The ${made} without a webhookUrl: its events are logged but never sent.`);
  }
  if (event.state === 'refused') {
    return new ApiError(400, 'destination_refused', `The webhook URL was refused when this event was sent (${scrubbed(event.last_error, event.url)}); it would be refused again.`);
  }
  // A pending event can change state no sooner than its next attempt, and an attempt in flight ends within moments.
  const settles = event.state === 'pending' ? Math.max(Number(event.next_attempt_at), now + IN_FLIGHT_RETRY_MS) : now;
  const allowed = event.last_redelivery_requested_at === null ? now : Number(event.last_redelivery_requested_at) + REDELIVERY_INTERVAL_MS;
  const retryAfterSec = Math.max(1, Math.ceil((Math.max(settles, allowed) - now) / 1000));
  const why =
    event.state === 'pending'
      ? event.redelivery_requested_at !== null
        ? 'A redelivery of this event is already queued'
        : Number(event.next_attempt_at) > now
          ? 'This event is still being delivered: its next retry is not yet due'
          : 'This event is still being delivered: an attempt of it is due or in flight'
      : allowed > now
        ? `A redelivery of this event was asked for less than ${REDELIVERY_INTERVAL_MS / 1000} seconds ago (an event is redelivered at most once in that time)`
        : 'An attempt of this event was being delivered when the redelivery was asked for';
  return new ApiError(409, 'redelivery_pending', `${why}; ask again in ${retryAfterSec} s.`, { 'Retry-After': String(retryAfterSec) });
}
