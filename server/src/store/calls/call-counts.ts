// Counts of calls for the metrics, read at scrape time.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** How many calls are in each status (statuses with none are left out). */
export async function countCallsByStatus(db: Kysely<Database>): Promise<{ status: string; n: number }[]> {
  return db
    .selectFrom('calls')
    .select(['status', sql<number>`count(*)`.as('n')])
    .groupBy('status')
    .execute();
}

/** How many calls in none of the `terminal` statuses are due by `now`, and the oldest due time among them (null for none). */
export async function readDueCalls(db: Kysely<Database>, terminal: readonly string[], now: number): Promise<{ n: number; oldest: number | null }> {
  return db
    .selectFrom('calls')
    .select([sql<number>`count(*)`.as('n'), sql<number | null>`min(next_run_at)`.as('oldest')])
    .where('status', 'not in', terminal)
    .where('next_run_at', '<=', now)
    .executeTakeFirstOrThrow();
}
