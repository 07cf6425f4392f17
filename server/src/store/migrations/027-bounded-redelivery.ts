// What keeps one event from being redelivered without end, and its attempts from growing without end:
// - webhook_events.last_redelivery_requested_at: when a redelivery of the event was last asked for, kept after
//   its attempt is made (redelivery_requested_at is cleared then), so that the next may be refused for a while.
// - webhook_attempts_omitted: an event keeps its first attempt and its last 20; the attempts deleted between them
//   are counted here by outcome (success: a 2xx; http_error: another status; error: no response), so /metrics
//   still counts every attempt made. The rule and its number are the dispatcher's (webhooks/attempt-bound.ts);
//   the events that already hold more are cut to it here, with the numbers as they are now.
import { sql, type Kysely, type Migration } from 'kysely';

export const m027BoundedRedelivery: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('webhook_events').addColumn('last_redelivery_requested_at', 'bigint').execute();
    await db.schema
      .createTable('webhook_attempts_omitted')
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('webhook_attempts_omitted_pk', ['event_id', 'outcome'])
      .execute();
    await sql`insert into webhook_attempts_omitted (event_id, outcome, attempts)
      select a.event_id, case when a.status_code between 200 and 299 then 'success' when a.status_code is null then 'error' else 'http_error' end, count(*)
      from webhook_attempts a
      where a.attempt > 1 and a.attempt <= (select max(m.attempt) from webhook_attempts m where m.event_id = a.event_id) - 20
      group by 1, 2`.execute(db);
    await sql`delete from webhook_attempts
      where attempt > 1 and attempt <= (select max(m.attempt) from webhook_attempts m where m.event_id = webhook_attempts.event_id) - 20`.execute(db);
  },
};
