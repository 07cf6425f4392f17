// getStats on an account with 100,000 calls in the period, on SQLite and Postgres, beside getCall and listCalls
// (100) on the same store, measured in the same run: one request at a time over HTTP, median latency of each
// round, median of the rounds. The calls: 30 days of them, 60% completed (each with its turn latency), the rest
// no answer, voicemail, declined and failed (with an error), 2% with a failed webhook delivery; another account's
// 10,000 calls beside them, never counted. Also listCalls with a search (q) and with a status filter.
//   npx tsx bench/stats-read.ts [rounds=5] [requests=20] [stores=sqlite,postgres] [calls=100000]
//   (SVC_TEST_PG_URL: Postgres, default postgres://postgres@127.0.0.1:5432/test)
import { sql } from 'kysely';
import type { CallRow } from '../server/src/store/calls-repo.js';
import type { Store } from '../server/src/store/store.js';
import { testCallRow } from '../test/support/calls.js';
import { startServer, type TestServer, type TestTenant } from '../test/support/server.js';
import { median, percentile } from './support/harness.js';

const rounds = Number(process.argv[2] ?? 5);
const requests = Number(process.argv[3] ?? 20);
const kinds = (process.argv[4] ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
const total = Number(process.argv[5] ?? 100_000);
const DAY = 86_400_000;
const OUTCOMES = ['no_answer', 'voicemail', 'declined', 'failed'] as const;

async function seed(store: Store, tenant: TestTenant, n: number, now: number): Promise<string> {
  let probe = '';
  const chunk = 250;
  for (let start = 0; start < n; start += chunk) {
    const rows: CallRow[] = [];
    const events: Record<string, unknown>[] = [];
    for (let i = start; i < Math.min(n, start + chunk); i++) {
      const created = now - Math.floor((i / n) * 30 * DAY) - 1;
      const completed = i % 5 < 3;
      const status = completed ? 'completed' : OUTCOMES[i % 4]!;
      const p50 = 400 + (i % 700);
      const row = testCallRow(tenant, {
        created_at: created,
        status,
        to_number: `+1415${String(2000000 + (i % 7999999)).padStart(7, '0')}`,
        objective: `Ask whether the shop ${i} is open on Sunday and until what time.`,
        metadata_json: JSON.stringify({ order_id: `ORD-${i}`, campaign: `c${i % 40}` }),
        answered_by: completed ? 'human' : status === 'voicemail' ? 'machine' : null,
        error: status === 'failed' ? ['placement_failed', 'carrier_unreachable', 'agent_unavailable'][i % 3]! : null,
        billed_minutes: completed ? 1 + (i % 4) : 0,
        latency_json: completed ? JSON.stringify({ firstAudioMs: 350, turns: [{ atMs: 4000, afterMs: p50 }], p50Ms: p50, p95Ms: p50 + 300, bargeIns: [] }) : null,
      });
      rows.push(row);
      if (i % 50 === 0) {
        events.push({
          event_id: `${row.id}:call.completed:${created}`,
          call_id: row.id,
          api_key_id: tenant.keyId,
          event: 'call.completed',
          url: 'https://example.com/hook',
          body: '{}',
          state: i % 100 === 0 ? 'failed' : 'gone',
          attempts: 8,
          next_attempt_at: created,
          lease_owner: null,
          lease_expires_at: null,
          last_status: 500,
          last_error: null,
          delivered_at: null,
          created_at: created,
          redelivery_requested_at: null,
          last_redelivery_requested_at: null,
        });
      }
      if (i === Math.floor(n / 2)) probe = row.id;
    }
    await store.db.transaction().execute(async (tx) => {
      await tx.insertInto('calls').values(rows).execute();
      if (events.length)
        await tx
          .insertInto('webhook_events')
          .values(events as never)
          .execute();
    });
  }
  return probe;
}

async function timed(srv: TestServer, key: string, path: string): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < requests; i++) {
    const t0 = performance.now();
    const res = await fetch(`${srv.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    ms.push(performance.now() - t0);
  }
  return ms;
}

console.log(`\ngetStats over ${total.toLocaleString('en')} calls of one account (and 10% as many of another), ${rounds} rounds of ${requests} requests, one at a time, Node ${process.version}`);
console.log('| store | read | median ms | p95 ms | ratio to getCall (median of per-round ratios) |');
console.log('|---|---|---:|---:|---:|');
for (const kind of kinds) {
  const srv = await startServer(kind);
  try {
    const alice = await srv.tenant({ planMinutes: 1_000_000 });
    const bob = await srv.tenant();
    const now = srv.clock.now();
    const t0 = performance.now();
    const probe = await seed(srv.deps.store, alice, total, now);
    await seed(srv.deps.store, bob, Math.floor(total / 10), now);
    // As autovacuum leaves a table after a bulk load: its statistics read and its visibility map set.
    if (kind === 'postgres') await sql`vacuum analyze`.execute(srv.deps.store.db);
    console.error(`${kind}: seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const reads: [string, string][] = [
      ['getCall', `/v1/agent/calls/${probe}`],
      ['listCalls (100)', '/v1/agent/calls?limit=100'],
      ['listCalls (100, status=failed)', '/v1/agent/calls?limit=100&status=failed'],
      ['listCalls (100, q=ord-4999)', '/v1/agent/calls?limit=100&q=ord-4999'],
      ['getStats (30 days)', '/v1/agent/stats'],
      ['getStats (7 days)', `/v1/agent/stats?createdFrom=${new Date(now - 7 * DAY).toISOString()}`],
    ];
    const samples = new Map<string, { medians: number[]; all: number[] }>(reads.map(([name]) => [name, { medians: [], all: [] }]));
    for (const [, path] of reads) await timed(srv, alice.key, path); // warm-up
    for (let r = 0; r < rounds; r++) {
      for (const [name, path] of reads) {
        const ms = await timed(srv, alice.key, path);
        samples.get(name)!.medians.push(median(ms));
        samples.get(name)!.all.push(...ms);
      }
    }
    const base = samples.get('getCall')!.medians;
    for (const [name] of reads) {
      const s = samples.get(name)!;
      const ratio = name === 'getCall' ? 'baseline' : `${median(s.medians.map((m, i) => m / base[i]!)).toFixed(1)}×`;
      console.log(`| ${kind} | ${name} | ${median(s.medians).toFixed(1)} | ${percentile(s.all, 95).toFixed(1)} | ${ratio} |`);
    }
  } finally {
    await srv.close();
  }
}
