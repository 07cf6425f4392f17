// The webhook outbox: one row per event, written in the same transaction as the status change that caused it,
// and one row per delivery attempt.
import type { Kysely, Migration } from 'kysely';

export const m003WebhookOutbox: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('webhook_events')
      .addColumn('event_id', 'text', (c) => c.primaryKey())
      .addColumn('call_id', 'text', (c) => c.notNull())
      .addColumn('api_key_id', 'text', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
      .addColumn('lease_owner', 'text')
      .addColumn('lease_expires_at', 'bigint')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_events_due').on('webhook_events').columns(['state', 'next_attempt_at']).execute();
    await db.schema.createIndex('webhook_events_by_call').on('webhook_events').columns(['call_id']).execute();
    await db.schema
      .createTable('webhook_attempts')
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('latency_ms', 'integer', (c) => c.notNull())
      .addColumn('error', 'text')
      .addPrimaryKeyConstraint('webhook_attempts_pk', ['event_id', 'attempt'])
      .execute();
  },
};
