// stream_leases: the live streams open across every process, one row each, so a key's open streams can be
// counted against its cap whichever process serves them. A process renews its rows' expires_at while their
// streams stay open and deletes a row when its stream ends; a process that dies leaves rows that expire.
import type { Kysely, Migration } from 'kysely';

export const m028StreamLeases: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('stream_leases')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('api_key_id', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('stream_leases_by_key').on('stream_leases').columns(['api_key_id', 'expires_at']).execute();
  },
};
