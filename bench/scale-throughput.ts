// placeCall throughput at 50 connections on Postgres with one api process and with two (the load split across
// both, two autocannon instances at once), and on SQLite with one, in the same run; ratios against Postgres with
// one process. Every target gets a fresh store each round (a Postgres schema of its own on the local server), with
// one account and one key whose rate limit and minute cap are raised out of the way. No worker runs: calls stay
// queued, as in bench/place-throughput.ts.
//   npx tsx bench/scale-throughput.ts [rounds=3] [seconds=5]      (SVC_TEST_PG_URL: the Postgres server)
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { addNumber, createAccount, createKey } from '../server/src/accounts/accounts-repo.js';
import { migrate } from '../server/src/store/store.js';
import { openStore } from '../server/src/store/open-store.js';
import { load, printTable, startTarget, type Row, type Sample } from './support/harness.js';
import { seedBenchStore } from './support/seed.js';

const rounds = Number(process.argv[2] ?? 3);
const seconds = Number(process.argv[3] ?? 5);
const PG_URL = process.env.SVC_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CONNECTIONS = 50;

const body = JSON.stringify({
  to: '+14155550123',
  objective: 'Ask whether the shop is open on Sunday and until what time.',
  fields: [
    { name: 'open_sunday', type: 'boolean' },
    { name: 'closing_time', description: 'Closing time on Sunday' },
  ],
});

async function admin(query: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(query);
  await c.end();
}

/** A fresh schema with `accounts` bench accounts, a key each; returns its URL, the keys and how to drop it. */
async function seedPostgres(accounts = 1): Promise<{ url: string; apiKeys: string[]; drop(): Promise<void> }> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  await admin(`create schema ${schema}`);
  const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const store = openStore({ postgresUrl: url, poolSize: 2 });
  await migrate(store);
  const now = Date.now();
  const apiKeys: string[] = [];
  for (let i = 0; i < accounts; i++) {
    const accountId = await createAccount(store.db, { name: `bench-${i}`, planMinutes: 1_000_000_000, defaultCallerId: '+14155550100' }, now);
    await addNumber(store.db, accountId, '+14155550100', now);
    apiKeys.push((await createKey(store.db, { accountId, name: 'bench', rateLimit: 1_000_000_000 }, now)).key);
  }
  await store.close();
  return { url, apiKeys, drop: () => admin(`drop schema ${schema} cascade`) };
}

/** Starts `processes` api processes on one store and loads them at once, the connections split evenly; process i places with key i (mod the keys). */
async function measure(processes: number, env: Record<string, string>, apiKeys: string[]): Promise<Sample> {
  const running = await Promise.all(Array.from({ length: processes }, () => startTarget({ name: `svc ×${processes}`, env: { BENCH_TARGET: 'app', ...env } })));
  const headers = (i: number) => ({ authorization: `Bearer ${apiKeys[i % apiKeys.length]}`, 'content-type': 'application/json' });
  const run = (durationSec: number) =>
    Promise.all(running.map((r, i) => load(r.url, { path: '/v1/agent/calls', method: 'POST', headers: headers(i), body, connections: CONNECTIONS / processes, durationSec })));
  await run(1);
  const samples = await run(seconds);
  await Promise.all(running.map((r) => r.stop()));
  return {
    rps: samples.reduce((a, s) => a + s.rps, 0),
    p99: Math.max(...samples.map((s) => s.p99)),
    non2xx: samples.reduce((a, s) => a + s.non2xx, 0),
  };
}

const rows: Row[] = [
  { name: 'Postgres, 1 api process', samples: [] },
  { name: 'Postgres, 2 api processes', samples: [], baseline: 'Postgres, 1 api process' },
  { name: 'SQLite, 1 api process', samples: [], baseline: 'Postgres, 1 api process' },
  { name: 'Postgres, 2 api processes, an account each', samples: [], baseline: 'Postgres, 1 api process' },
];
// The last row places for two accounts, one per process: placements for one account wait on its minute-cap lock.
for (let r = 0; r < rounds; r++) {
  for (const [row, processes, accounts] of [
    [0, 1, 1],
    [1, 2, 1],
    [3, 2, 2],
  ] as const) {
    const seeded = await seedPostgres(accounts);
    rows[row].samples.push(await measure(processes, { DATABASE_URL: seeded.url }, seeded.apiKeys));
    await seeded.drop();
  }
  const sqlite = await seedBenchStore();
  await sqlite.store.close();
  rows[2].samples.push(await measure(1, { SVC_DATA_DIR: sqlite.dataDir }, [sqlite.apiKey]));
  rmSync(sqlite.dataDir, { recursive: true, force: true });
}
printTable(`placeCall at ${CONNECTIONS} connections (split across the api processes), ${rounds} rounds of ${seconds} s, Node ${process.version}`, rows);
