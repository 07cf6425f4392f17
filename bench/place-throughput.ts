// placeCall throughput and p99 at 50 connections (rate limit and minute cap raised out of the way), beside bare
// Koa answering the same 202 from memory, in the same run. Target: at least 35% of bare Koa. And the same
// placements under a calling window (09:00-20:00 in the callee's zones), beside those without.
//   npx tsx bench/place-throughput.ts [rounds=3] [seconds=5]
import { rmSync } from 'node:fs';
import { load, printTable, startTarget, type Row } from './support/harness.js';
import { placementBodies, seedBenchStore } from './support/seed.js';

const rounds = Number(process.argv[2] ?? 3);
const seconds = Number(process.argv[3] ?? 5);
const { dataDir, store, apiKey } = await seedBenchStore();
await store.close();

// Every request differs (its number, its shop), so nothing the service keeps from one request flatters the next.
const bodies = placementBodies(5000);
const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
const bare = { name: 'bare Koa', env: { BENCH_TARGET: 'bare', BENCH_RECORD: JSON.stringify({ id: crypto.randomUUID() }) } };
const app = { name: 'svc', env: { BENCH_TARGET: 'app', SVC_DATA_DIR: dataDir } };
const windowed = bodies.map((b) => JSON.stringify({ ...JSON.parse(b), callingWindow: { start: '09:00', end: '20:00' } }));
const rows: Row[] = [
  { name: 'bare Koa POST /calls', samples: [] },
  { name: 'svc placeCall (SQLite)', samples: [], baseline: 'bare Koa POST /calls' },
  { name: 'svc placeCall, callingWindow', samples: [], baseline: 'svc placeCall (SQLite)' },
];
const runs = [
  { target: bare, bodies },
  { target: app, bodies },
  { target: app, bodies: windowed },
];
for (let r = 0; r < rounds; r++) {
  for (const [i, run] of runs.entries()) {
    const running = await startTarget(run.target);
    await load(running.url, { path: '/v1/agent/calls', method: 'POST', headers, bodies: run.bodies, durationSec: 1 });
    rows[i].samples.push(await load(running.url, { path: '/v1/agent/calls', method: 'POST', headers, bodies: run.bodies, durationSec: seconds }));
    await running.stop();
  }
}
printTable(`placeCall at 50 connections, ${rounds} rounds of ${seconds} s, Node ${process.version}`, rows);
rmSync(dataDir, { recursive: true, force: true });
