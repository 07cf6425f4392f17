// getStats' figures, aggregated in SQL over the account's calls created in a period (their index,
// calls_by_account_recent, migration 041): one grouped read gives the counts by status, answeredBy and error with
// their minutes and how many calls have timed turns; one the calls per day; and the latency percentiles. Turn
// latency is taken from each call's own p50 and p95 (latency_p50_ms and latency_p95_ms, generated from
// latency_json): the period's p50 is the median of the calls' medians and its p95 the 95th percentile of the calls'
// 95th percentiles, both nearest rank, each read as the value at its rank in order (on Postgres, percentile_disc,
// the same rank, both in one read). Webhook deliveries failed or gone are counted by their events' creation in the
// period, from the account's keys' events in those states (webhook_events_failed).
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
  /** The period's calls grouped by status, answeredBy and error: a few dozen rows however many calls. */
  groups: { status: string; answered_by: string | null; error: string | null; calls: number; minutes: number; timed: number }[];
  days: { day: number; calls: number }[];
  webhooks: { state: string; deliveries: number }[];
  latency: { calls: number; p50Ms: number | null; p95Ms: number | null };
}

async function rows<R>(store: Store, query: RawBuilder<R>): Promise<R[]> {
  const compiled = query.compile(store.db);
  return store.read<R>(compiled.sql, compiled.parameters);
}

export async function readCallStats(store: Store, s: StatsScope): Promise<CallStatsRows> {
  const scope = sql`calls.account_id = ${s.accountId} and calls.created_at >= ${s.from} and calls.created_at < ${s.to}`;
  const [groups, days, webhooks] = await Promise.all([
    rows<CallStatsRows['groups'][number]>(
      store,
      sql`select status, answered_by, error, count(*) as calls, coalesce(sum(billed_minutes), 0) as minutes, count(latency_p50_ms) as timed
          from calls where ${scope} group by status, answered_by, error`,
    ),
    // SQLite is handed JS numbers as REAL: the day's number is cast back to an integer so that a day is one group.
    rows<CallStatsRows['days'][number]>(store, sql`select cast((created_at - ${s.dayOrigin}) / ${sql.lit(DAY_MS)} as integer) as day, count(*) as calls from calls where ${scope} group by 1`),
    rows<CallStatsRows['webhooks'][number]>(
      store,
      sql`select webhook_events.state as state, count(*) as deliveries from api_keys join webhook_events on webhook_events.api_key_id = api_keys.id
          where api_keys.account_id = ${s.accountId} and webhook_events.state in ('failed', 'gone')
            and webhook_events.created_at >= ${s.from} and webhook_events.created_at < ${s.to}
          group by webhook_events.state`,
    ),
  ]);
  const n = groups.reduce((sum, g) => sum + Number(g.timed), 0);
  if (store.kind === 'postgres' && n > 0) {
    // Postgres has the nearest-rank percentile itself: both in one walk.
    const [row] = await rows<{ p50: number; p95: number }>(
      store,
      sql`select percentile_disc(0.5) within group (order by latency_p50_ms) as p50, percentile_disc(0.95) within group (order by latency_p95_ms) as p95
          from calls where ${scope} and latency_p50_ms is not null`,
    );
    return shaped(groups, days, webhooks, { calls: n, p50Ms: row ? Number(row.p50) : null, p95Ms: row ? Number(row.p95) : null });
  }
  const at = async (column: 'latency_p50_ms' | 'latency_p95_ms', p: number): Promise<number | null> => {
    if (n === 0) return null;
    const [row] = await rows<{ v: number }>(store, sql`select ${sql.ref(column)} as v from calls where ${scope} and ${sql.ref(column)} is not null order by 1 limit 1 offset ${Math.ceil(p * n) - 1}`);
    return row === undefined ? null : Number(row.v);
  };
  const [p50Ms, p95Ms] = await Promise.all([at('latency_p50_ms', 0.5), at('latency_p95_ms', 0.95)]);
  return shaped(groups, days, webhooks, { calls: n, p50Ms, p95Ms });
}

/** The rows with their counts as numbers (Postgres gives sums as numeric). */
function shaped(groups: CallStatsRows['groups'], days: CallStatsRows['days'], webhooks: CallStatsRows['webhooks'], latency: CallStatsRows['latency']): CallStatsRows {
  return {
    groups: groups.map((g) => ({ ...g, calls: Number(g.calls), minutes: Number(g.minutes), timed: Number(g.timed) })),
    days: days.map((d) => ({ day: Number(d.day), calls: Number(d.calls) })),
    webhooks: webhooks.map((w) => ({ state: w.state, deliveries: Number(w.deliveries) })),
    latency,
  };
}
