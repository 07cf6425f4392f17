// The webhook_attempts table (one row per delivery attempt kept) and webhook_attempts_omitted (attempts deleted
// past the bound, counted by outcome; webhooks/attempt-bound.ts has the rule).
import { sql, type Kysely, type Selectable } from 'kysely';
import { runQuery } from '../prepared-query.js';
import type { Database, WebhookAttemptsTable } from '../schema.js';
import type { Executor } from '../store.js';

export type AttemptRow = Selectable<WebhookAttemptsTable>;

/** An attempt's outcome as /metrics counts it: success (a 2xx), http_error (another status), error (no response). */
export const attemptOutcome = sql<string>`case when status_code between 200 and 299 then 'success' when status_code is null then 'error' else 'http_error' end`;

/**
 * Deletes the event's attempts numbered 2 to `upTo` and adds them, by outcome, to its omitted counts: two
 * statements, on the executor of the transaction that records the attempt past the bound.
 */
export async function omitAttemptsUpTo(ex: Executor, eventId: string, upTo: number): Promise<void> {
  const db = ex.compiler;
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

/** The kept attempts of these events (at least one id), in attempt order. */
export async function attemptsOfEvents(db: Kysely<Database>, eventIds: string[]): Promise<AttemptRow[]> {
  return db.selectFrom('webhook_attempts').selectAll().where('event_id', 'in', eventIds).orderBy('attempt').execute();
}

/** The kept attempts of one event, in attempt order, on an executor. */
export async function attemptsOfEvent(ex: Executor, eventId: string): Promise<AttemptRow[]> {
  return (await runQuery(ex, ex.compiler.selectFrom('webhook_attempts').selectAll().where('event_id', '=', eventId).orderBy('attempt'))) as AttemptRow[];
}

/** Every attempt ever made, by outcome: the kept ones (counted) and the omitted ones (summed), as two lists. */
export async function attemptCountsByOutcome(db: Kysely<Database>): Promise<{ kept: { outcome: string; n: number }[]; omitted: { outcome: string; n: number }[] }> {
  const kept = await db
    .selectFrom('webhook_attempts')
    .select([attemptOutcome.as('outcome'), sql<number>`count(*)`.as('n')])
    .groupBy(sql`1`)
    .execute();
  const omitted = await db
    .selectFrom('webhook_attempts_omitted')
    .select(['outcome', sql<number>`sum(attempts)`.as('n')])
    .groupBy('outcome')
    .execute();
  return { kept, omitted };
}
