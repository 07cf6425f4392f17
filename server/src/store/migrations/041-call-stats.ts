// What getStats reads, kept cheap to write as well as to read (bench/stats-read.ts): every entry below is written
// once, when its row is made or ends badly, never again as a call or a delivery moves on (migration 008's rule).
// - calls_by_account_recent (account_id, created_at): getStats reads an account's calls of a period, and only those;
//   both columns never change, so a call's status changes do not touch it.
// - calls.latency_p50_ms and calls.latency_p95_ms: the call's own turn-latency percentiles, generated from
//   latency_json by the store (virtual on SQLite, which can only add those; stored on Postgres, computed once when
//   the line writes latency_json), so that no writer has to keep them and no read parses JSON.
// - webhook_events_failed (api_key_id, created_at) of the events whose delivery ended failed or gone: getStats counts
//   those of the account's keys in a period from a few entries; an event enters it once, when it ends so, and a
//   delivered one never does.
import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

const GENERATED = [
  ['latency_p50_ms', 'p50Ms'],
  ['latency_p95_ms', 'p95Ms'],
] as const;

export const m041CallStats: Migration = {
  async up(db: Kysely<any>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    for (const [column, key] of GENERATED) {
      if (pg) await sql.raw(`alter table calls add column ${column} bigint generated always as (((latency_json::json) ->> '${key}')::bigint) stored`).execute(db);
      else await sql.raw(`alter table calls add column ${column} integer generated always as (json_extract(latency_json, '$.${key}')) virtual`).execute(db);
    }
    await db.schema.createIndex('calls_by_account_recent').on('calls').columns(['account_id', 'created_at']).execute();
    await sql`create index webhook_events_failed on webhook_events (api_key_id, created_at) where state in ('failed', 'gone')`.execute(db);
  },
};
