// Fewer index entries written per call. calls_by_account_status served minute-usage sums, which the counters of
// migrations 006 and 007 serve; nothing reads by it, and every placement and every status change pays an entry in
// it, so it is dropped. calls_by_lease is made partial, leased calls only: the engine looks calls up by their lease
// owner, never for a call without one, so a queued call need not write a NULL entry.
import { sql, type Kysely, type Migration } from 'kysely';

export const m008LeanCallIndexes: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.dropIndex('calls_by_account_status').execute();
    await db.schema.dropIndex('calls_by_lease').execute();
    await db.schema.createIndex('calls_by_lease').on('calls').columns(['lease_owner']).where(sql.ref('lease_owner'), 'is not', null).execute();
  },
};
