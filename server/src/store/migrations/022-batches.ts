// Batches: a batch row is a job on the durable queue (next_run_at and a lease, like a call) whose step
// releases its calls, in order, as calls of the batch end; batch_items holds each call as checked at creation
// until it is released; calls.batch_id names the batch a call belongs to.
import { sql, type Kysely, type Migration } from 'kysely';

export const m022Batches: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('batches')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('total', 'integer', (c) => c.notNull())
      .addColumn('released', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('max_concurrency', 'integer', (c) => c.notNull())
      .addColumn('stop_reason', 'text')
      .addColumn('stop_when_json', 'text')
      .addColumn('matched', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('webhook_url', 'text')
      .addColumn('metadata_json', 'text')
      .addColumn('scheduled_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('started_at', 'bigint')
      .addColumn('ended_at', 'bigint')
      .addColumn('next_run_at', 'bigint')
      .addColumn('lease_owner', 'text')
      .addColumn('lease_expires_at', 'bigint')
      .execute();
    await db.schema.createIndex('batches_due').on('batches').columns(['next_run_at']).execute();
    await db.schema.createIndex('batches_by_key').on('batches').columns(['api_key_id', 'created_at']).execute();
    await db.schema
      .createTable('batch_items')
      .addColumn('batch_id', 'text', (c) => c.notNull().references('batches.id'))
      .addColumn('idx', 'integer', (c) => c.notNull())
      .addColumn('call_json', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('batch_items_pk', ['batch_id', 'idx'])
      .execute();
    await db.schema.alterTable('calls').addColumn('batch_id', 'text').execute();
    // Partial: a call placed on its own has no batch, and its insert should not pay for this index.
    await db.schema.createIndex('calls_by_batch').on('calls').columns(['batch_id', 'status']).where(sql.ref('batch_id'), 'is not', null).execute();
  },
};
