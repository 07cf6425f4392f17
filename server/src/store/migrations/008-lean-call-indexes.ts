// Fewer index entries written per call. calls_by_account_status served the minute-usage sums, which the counters
// of migrations 006 and 007 replaced; nothing reads by it any more, and every placement and every status change
// paid an entry in it. calls_by_lease now holds only leased calls: the engine looks calls up by their lease owner,
// never for a call without one, and a queued call no longer writes a NULL entry.
import { sql, type Kysely, type Migration } from 'kysely';

export const m008LeanCallIndexes: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.dropIndex('calls_by_account_status').execute();
    await db.schema.dropIndex('calls_by_lease').execute();
    await db.schema.createIndex('calls_by_lease').on('calls').columns(['lease_owner']).where(sql.ref('lease_owner'), 'is not', null).execute();
  },
};
