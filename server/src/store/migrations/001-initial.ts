// Accounts, keys, numbers, calls, rate-limit windows and idempotency records.
import type { Kysely, Migration } from 'kysely';

export const m001Initial: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('accounts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('default_caller_id', 'text')
      .addColumn('plan_minutes', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('key_hint', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('default_caller_id', 'text')
      .addColumn('default_voice', 'text')
      .addColumn('rate_limit', 'integer')
      .addColumn('webhook_secret', 'text', (c) => c.notNull())
      .addColumn('previous_webhook_secret', 'text')
      .addColumn('previous_secret_expires_at', 'bigint')
      .addColumn('revoked_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('numbers')
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('e164', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('numbers_pk', ['account_id', 'e164'])
      .execute();
    await db.schema
      .createTable('calls')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('to_number', 'text', (c) => c.notNull())
      .addColumn('objective', 'text', (c) => c.notNull())
      .addColumn('context', 'text')
      .addColumn('fields_json', 'text')
      .addColumn('webhook_url', 'text')
      .addColumn('caller_id', 'text', (c) => c.notNull())
      .addColumn('voice', 'text')
      .addColumn('language', 'text')
      .addColumn('language_source', 'text')
      .addColumn('summary', 'text')
      .addColumn('transcript', 'text')
      .addColumn('extracted_json', 'text')
      .addColumn('recording_path', 'text')
      .addColumn('started_at', 'bigint')
      .addColumn('ended_at', 'bigint')
      .addColumn('duration_sec', 'double precision')
      .addColumn('billed_minutes', 'integer')
      .addColumn('error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('calls_by_key_recent').on('calls').columns(['api_key_id', 'created_at', 'id']).execute();
    await db.schema
      .createTable('rate_windows')
      .addColumn('bucket', 'text', (c) => c.primaryKey())
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('api_key_id', 'text', (c) => c.notNull())
      .addColumn('idem_key', 'text', (c) => c.notNull())
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('response_status', 'integer')
      .addColumn('response_headers_json', 'text')
      .addColumn('response_body', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['api_key_id', 'idem_key'])
      .execute();
  },
};
