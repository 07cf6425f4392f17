// Expired idempotency records are swept (idempotency-sweeper.ts) by their expiry, oldest first, a chunk at a time;
// without this index every chunk would scan the table.
import type { Kysely, Migration } from 'kysely';

export const m009IdempotencyExpiryIndex: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.createIndex('idempotency_keys_by_expiry').on('idempotency_keys').columns(['expires_at']).execute();
  },
};
