// Indexes for the call reads a console and a script make every day:
// - calls_by_account_recent (account_id, created_at): getStats aggregates an account's calls of a period by their
//   creation time, on both stores, reading only that period's rows;
// - calls_by_key_status_recent (api_key_id, status, created_at, id): listCalls filtered by status walks the key's
//   calls of that status newest first, instead of every call of the key.
import type { Kysely, Migration } from 'kysely';

export const m041CallListIndexes: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.createIndex('calls_by_account_recent').on('calls').columns(['account_id', 'created_at']).execute();
    await db.schema.createIndex('calls_by_key_status_recent').on('calls').columns(['api_key_id', 'status', 'created_at', 'id']).execute();
  },
};
