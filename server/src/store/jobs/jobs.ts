// The jobs table: timed work with no row of its own elsewhere (jobs/job-runner.ts).
import type { Insertable, Kysely } from 'kysely';
import type { Database, JobsTable } from '../schema.js';

/** Inserts the job unless one with its id exists; true when it was inserted. */
export async function insertJobIfAbsent(db: Kysely<Database>, row: Insertable<JobsTable>): Promise<boolean> {
  const r = await db
    .insertInto('jobs')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
}
