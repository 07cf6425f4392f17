// The webhook_events table read and written outside the dispatcher's claim: a call's log, a redelivery, the
// receivers that answered 410 Gone, events written with another change (a cancel's).
import type { Insertable, Kysely, Selectable } from 'kysely';
import { runQuery } from '../prepared-query.js';
import type { Database, WebhookEventsTable } from '../schema.js';
import type { Executor } from '../store.js';

export type EventRow = Selectable<WebhookEventsTable>;

/** `call_id` and `url` of the events of these calls whose receiver answered 410 Gone. */
export async function goneEventReceivers(db: Kysely<Database>, callIds: string[]): Promise<{ call_id: string; url: string }[]> {
  return db.selectFrom('webhook_events').select(['call_id', 'url']).where('call_id', 'in', callIds).where('state', '=', 'gone').execute();
}

/** The subject's events ordered by created_at, then event_id. */
export async function eventsOf(db: Kysely<Database>, subjectId: string): Promise<EventRow[]> {
  return db.selectFrom('webhook_events').selectAll().where('call_id', '=', subjectId).orderBy('created_at').orderBy('event_id').execute();
}

/**
 * Makes the subject's event pending at `now` as a redelivery, in one statement, if its state is one of `states`
 * and no redelivery was asked for since `notSince`; returns the event as queued, or undefined when it was not.
 */
export async function requeueForRedelivery(ex: Executor, subjectId: string, eventId: string, states: readonly string[], now: number, notSince: number): Promise<EventRow | undefined> {
  const [queued] = (await runQuery(
    ex,
    ex.compiler
      .updateTable('webhook_events')
      .set({ state: 'pending', next_attempt_at: now, redelivery_requested_at: now, last_redelivery_requested_at: now, lease_owner: null, lease_expires_at: null })
      .where('event_id', '=', eventId)
      .where('call_id', '=', subjectId)
      .where('state', 'in', states)
      .where((eb) => eb.or([eb('last_redelivery_requested_at', 'is', null), eb('last_redelivery_requested_at', '<=', notSince)]))
      .returningAll(),
  )) as EventRow[];
  return queued;
}

/** The subject's event with this id, on an executor. */
export async function findEventOf(ex: Executor, subjectId: string, eventId: string): Promise<EventRow | undefined> {
  const [event] = (await runQuery(ex, ex.compiler.selectFrom('webhook_events').selectAll().where('event_id', '=', eventId).where('call_id', '=', subjectId))) as EventRow[];
  return event;
}

/** Inserts events (at least one) on an executor. */
export async function insertEvents(ex: Executor, rows: Insertable<WebhookEventsTable>[]): Promise<void> {
  await runQuery(ex, ex.compiler.insertInto('webhook_events').values(rows));
}
