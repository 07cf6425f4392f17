// getStats' figures, aggregated in SQL over the account's calls created in a period (the account's recent-calls
// index, migration 041): a handful of grouped reads whose answers are a few rows each, however many calls the
// period holds. Turn latency is taken from each call's own p50 and p95 (its latency_json): the period's p50 is the
// median of the calls' medians and its p95 the 95th percentile of the calls' 95th percentiles, both nearest rank,
// each found by counting the values and reading the one at its rank in order.
import { sql, type RawBuilder } from 'kysely';
import type { Store } from '../store.js';

export const DAY_MS = 86_400_000;

export interface StatsScope {
  accountId: string;
  from: number;
  to: number;
  /** The first millisecond of the UTC day `from` falls on; days are counted from it. */
  dayOrigin: number;
}

export interface CallStatsRows {
  groups: { status: string; answered_by: string | null; calls: number; minutes: number }[];
  days: { day: number; calls: number }[];
  errors: { error: string; calls: number }[];
  webhooks: { state: string; deliveries: number }[];
  latency: { calls: number; p50Ms: number | null; p95Ms: number | null };
}

// SQLite is handed JS numbers as REAL: the day's number is cast back to an integer so that a day is one group.

async function rows<R>(store: Store, query: RawBuilder<R>): Promise<R[]> {
  const compiled = query.compile(store.db);
  return store.read<R>(compiled.sql, compiled.parameters);
}

export async function readCallStats(store: Store, s: StatsScope): Promise<CallStatsRows> {
  const scope = sql`calls.account_id = ${s.accountId} and calls.created_at >= ${s.from} and calls.created_at < ${s.to}`;
  const pg = store.kind === 'postgres';
  const p50 = pg ? sql.raw(`((calls.latency_json::json ->> 'p50Ms')::bigint)`) : sql.raw(`json_extract(calls.latency_json, '$.p50Ms')`);
  const p95 = pg ? sql.raw(`((calls.latency_json::json ->> 'p95Ms')::bigint)`) : sql.raw(`json_extract(calls.latency_json, '$.p95Ms')`);
  const [groups, days, errors, webhooks, [timed]] = await Promise.all([
    rows<CallStatsRows['groups'][number]>(
      store,
      sql`select status, answered_by, count(*) as calls, coalesce(sum(billed_minutes), 0) as minutes from calls where ${scope} group by status, answered_by`,
    ),
    rows<CallStatsRows['days'][number]>(store, sql`select cast((created_at - ${s.dayOrigin}) / ${sql.lit(DAY_MS)} as integer) as day, count(*) as calls from calls where ${scope} group by 1`),
    rows<CallStatsRows['errors'][number]>(store, sql`select error, count(*) as calls from calls where ${scope} and error is not null group by error order by count(*) desc, error asc limit 5`),
    rows<CallStatsRows['webhooks'][number]>(
      store,
      sql`select webhook_events.state as state, count(*) as deliveries from calls join webhook_events on webhook_events.call_id = calls.id
          where ${scope} and webhook_events.state in ('failed', 'gone') group by webhook_events.state`,
    ),
    rows<{ calls: number }>(store, sql`select count(*) as calls from calls where ${scope} and calls.latency_json is not null and ${p50} is not null`),
  ]);
  const n = Number(timed?.calls ?? 0);
  const at = async (value: RawBuilder<unknown>, p: number): Promise<number | null> => {
    if (n === 0) return null;
    const [row] = await rows<{ v: number }>(
      store,
      sql`select ${value} as v from calls where ${scope} and calls.latency_json is not null and ${value} is not null order by ${value} limit 1 offset ${Math.ceil(p * n) - 1}`,
    );
    return row === undefined ? null : Number(row.v);
  };
  const [p50Ms, p95Ms] = await Promise.all([at(p50, 0.5), at(p95, 0.95)]);
  return {
    groups: groups.map((g) => ({ ...g, calls: Number(g.calls), minutes: Number(g.minutes) })),
    days: days.map((d) => ({ day: Number(d.day), calls: Number(d.calls) })),
    errors: errors.map((e) => ({ error: e.error, calls: Number(e.calls) })),
    webhooks: webhooks.map((w) => ({ state: w.state, deliveries: Number(w.deliveries) })),
    latency: { calls: n, p50Ms, p95Ms },
  };
}
