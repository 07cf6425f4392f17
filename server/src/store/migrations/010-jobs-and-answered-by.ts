// A table of jobs for timed work that has no row of its own in another table (a hang-up to retry, a recording to
// fetch): the job queue's third table beside calls and the outbox. Its id is the job's key, so the same work asked
// for twice (a callback Twilio repeats) is one job. And calls.answered_by: who picked the line up.
import { sql, type Kysely, type Migration } from 'kysely';

export const m010JobsAndAnsweredBy: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('call_id', 'text')
      .addColumn('payload_json', 'text', (c) => c.notNull())
      // pending while it has work to do; done, or failed once it gave up.
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('run_at', 'bigint')
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('lease_owner', 'text')
      .addColumn('lease_expires_at', 'bigint')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('jobs_due').on('jobs').columns(['run_at']).where(sql.ref('state'), '=', 'pending').execute();
    await db.schema.createIndex('jobs_by_call').on('jobs').columns(['call_id']).execute();
    await db.schema.alterTable('calls').addColumn('answered_by', 'text').execute();
  },
};
