// What getStats and listCalls' filters read, kept fast on an account of 100,000 calls (bench/stats-read.ts):
// - calls.latency_p50_ms and calls.latency_p95_ms: the call's own turn-latency percentiles, generated from
//   latency_json by the store itself (virtual on SQLite, which can only add those; stored on Postgres), so that no
//   writer has to keep them and no read parses JSON;
// - calls_by_account_recent (account_id, created_at, then everything getStats counts): getStats reads an account's
//   calls of a period from this index alone, never the rows;
// - calls_by_key_status_recent (api_key_id, status, created_at, id): listCalls filtered by status walks the key's
//   calls of that status newest first, instead of every call of the key;
// - webhook_events_by_key_state (api_key_id, state, created_at): getStats counts the account's deliveries failed or
//   gone in a period from the few such events, not by visiting every call's events.
import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

const GENERATED = [
  ['latency_p50_ms', 'p50Ms'],
  ['latency_p95_ms', 'p95Ms'],
] as const;

export const m041CallListIndexes: Migration = {
  async up(db: Kysely<any>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    for (const [column, key] of GENERATED) {
      if (pg) await sql.raw(`alter table calls add column ${column} bigint generated always as (((latency_json::json) ->> '${key}')::bigint) stored`).execute(db);
      else await sql.raw(`alter table calls add column ${column} integer generated always as (json_extract(latency_json, '$.${key}')) virtual`).execute(db);
    }
    await db.schema
      .createIndex('calls_by_account_recent')
      .on('calls')
      .columns(['account_id', 'created_at', 'status', 'answered_by', 'billed_minutes', 'error', 'latency_p50_ms', 'latency_p95_ms'])
      .execute();
    await db.schema.createIndex('calls_by_key_status_recent').on('calls').columns(['api_key_id', 'status', 'created_at', 'id']).execute();
    await db.schema.createIndex('webhook_events_by_key_state').on('webhook_events').columns(['api_key_id', 'state', 'created_at']).execute();
  },
};
