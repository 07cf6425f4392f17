// How many of an event's attempts are kept: the first (how the receiver answered to begin with) and the last
// KEPT_LAST_ATTEMPTS. The attempts between them are deleted in the transaction that records the attempt past the
// bound, and counted by outcome in webhook_attempts_omitted, so /metrics still counts every attempt made. An
// event's attempts are numbered 1, 2, … without gaps, so the log's attemptsOmitted is its attempt count less the
// attempts it keeps.
import { sql } from 'kysely';
import { runQuery } from '../store/prepared-query.js';
import type { Executor } from '../store/store.js';

export const KEPT_LAST_ATTEMPTS = 20;

/** An attempt's outcome as /metrics counts it: success (a 2xx), http_error (another status), error (no response). */
export const attemptOutcome = sql<string>`case when status_code between 200 and 299 then 'success' when status_code is null then 'error' else 'http_error' end`;

/** Whether recording attempt number `attempt` takes an event past the bound. */
export const passesBound = (attempt: number): boolean => attempt - KEPT_LAST_ATTEMPTS > 1;

/** Deletes the event's attempts between its first and its last KEPT_LAST_ATTEMPTS, `latest` being its last, and counts them. */
export async function omitMiddleAttempts(ex: Executor, eventId: string, latest: number): Promise<void> {
  const db = ex.compiler;
  const upTo = latest - KEPT_LAST_ATTEMPTS;
  const middle = db.selectFrom('webhook_attempts').where('event_id', '=', eventId).where('attempt', '>', 1).where('attempt', '<=', upTo);
  await runQuery(
    ex,
    db
      .insertInto('webhook_attempts_omitted')
      .columns(['event_id', 'outcome', 'attempts'])
      .expression(middle.select(['event_id', attemptOutcome.as('outcome'), (eb) => eb.fn.countAll<number>().as('attempts')]).groupBy(['event_id', attemptOutcome]))
      .onConflict((oc) => oc.columns(['event_id', 'outcome']).doUpdateSet({ attempts: sql<number>`webhook_attempts_omitted.attempts + excluded.attempts` })),
  );
  await runQuery(ex, db.deleteFrom('webhook_attempts').where('event_id', '=', eventId).where('attempt', '>', 1).where('attempt', '<=', upTo));
}
