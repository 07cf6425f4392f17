// On Postgres, indexes for the two queues that stay quick while their tables carry the dead row versions every
// update leaves until VACUUM removes them (a call is updated at each of its steps, an event as it is claimed and
// delivered; a busy minute leaves thousands of dead versions in calls, and autovacuum, when it is on at all,
// passes once a minute):
// - calls_claimable_at: when a call can next be claimed (its due time, or its lease's expiry if that is later),
//   the worker loop's next-due look (jobs/job-queue.ts nextDueAt). Without it that look reads the whole table,
//   dead versions included.
// - webhook_events_pending replaces webhook_events_due (state, next_attempt_at): only pending events are claimed
//   or looked for, so a delivered event's version adds no entry (a bitmap scan still reads the entries of delivered
//   events until VACUUM).
// SQLite rewrites a row in place and leaves no dead versions, so it keeps its indexes.
import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

export const m026QueueIndexesOnPostgres: Migration = {
  async up(db: Kysely<any>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`create index calls_claimable_at on calls ((case when lease_expires_at > next_run_at then lease_expires_at else next_run_at end)) where next_run_at is not null`.execute(db);
    await sql`create index webhook_events_pending on webhook_events (next_attempt_at) where state = 'pending'`.execute(db);
    await sql`drop index webhook_events_due`.execute(db);
  },
};
