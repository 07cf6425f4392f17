// What abuse at the door costs everyone else: another tenant's getCall, probed 100 times a second on its own
// connections, with no abuse (the baseline, measured in the same run) and while four clients, each with its own
// key (its calls window raised out of the way, so that the window cuts nothing and the loop's cost is what is
// measured), send 15 MiB batches that are refused, each again as soon as it is answered: every call invalid (400
// invalid_batch naming 10,000 calls), or the JSON cut by its last byte (400 invalid_json). One service process
// (role both) over SQLite; the abusers run in a process of their own. Medians of the rounds. Goal: p99 under 100 ms.
//   npx tsx bench/door-abuse.ts [rounds=3] [seconds=10]
import { spawn } from 'node:child_process';
import http from 'node:http';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createAccount, addNumber, createKey } from '../server/src/accounts/accounts-repo.js';
import { killOnExit } from '../test/support/kill-on-exit.js';
import { median, percentile } from './support/harness.js';
import { seedBenchStore } from './support/seed.js';
import { api, startService } from './support/service.js';

const rounds = Number(process.argv[2] ?? 3);
const seconds = Number(process.argv[3] ?? 10);
const PROBES_PER_SEC = 100;
const ABUSER = fileURLToPath(new URL('./support/batch-abuser.ts', import.meta.url));

const { dataDir, store, apiKey } = await seedBenchStore();
const now = Date.now();
const abusers: string[] = [];
for (let i = 0; i < 4; i++) {
  const accountId = await createAccount(store.db, { name: `abuser-${i}`, planMinutes: 1000, defaultCallerId: '+14155550101' }, now);
  await addNumber(store.db, accountId, '+14155550101', now);
  abusers.push((await createKey(store.db, { accountId, name: 'abuser', rateLimit: 1_000_000_000 }, now)).key);
}
await store.close();

/** getCall every 1/PROBES_PER_SEC s for `sec` s, each timed from its send to its last byte, whatever the ones before it do. */
async function probe(url: string, path: string, sec: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const { hostname, port } = new URL(url);
  const one = () =>
    new Promise<number>((resolve, reject) => {
      const t0 = performance.now();
      http
        .get({ host: hostname, port, path, agent, headers: { authorization: `Bearer ${apiKey}` } }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`getCall answered ${res.statusCode}`))));
        })
        .on('error', reject);
    });
  const latencies: Promise<number>[] = [];
  const start = performance.now();
  for (let i = 0; i < sec * PROBES_PER_SEC; i++) {
    const due = start + (i * 1000) / PROBES_PER_SEC;
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    latencies.push(one());
  }
  const all = await Promise.all(latencies);
  agent.destroy();
  return all;
}

/** The abusers, started; stop() ends them and returns how their batches were answered. */
async function abuse(url: string, kind: string): Promise<{ stop(): Promise<Record<string, number>> }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', ABUSER], {
    env: { ...process.env, BENCH_URL: url, BENCH_KEYS: abusers.join(','), BENCH_ABUSE_KIND: kind },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  killOnExit(proc);
  const lines = createInterface({ input: proc.stdout! });
  let answered: Record<string, number> = {};
  const ready = new Promise<void>((resolve) => lines.on('line', (line) => (line === 'ready' ? resolve() : (answered = JSON.parse(line.replace(/^answered /, ''))))));
  await ready;
  return {
    stop: () =>
      new Promise((resolve) => {
        proc.once('close', () => resolve(answered));
        proc.kill('SIGTERM');
      }),
  };
}

interface Figures {
  p50: number;
  p99: number;
  answered: Record<string, number>;
}

const scenarios = [
  { name: 'no abuse', kind: null },
  { name: '4 clients looping 15 MiB batches, every call invalid', kind: 'invalid_calls' },
  { name: '4 clients looping 15 MiB batches, JSON cut short', kind: 'invalid_json' },
] as const;
const results = new Map<string, Figures[]>(scenarios.map((s) => [s.name, []]));

const svc = await startService({ SVC_DATA_DIR: dataDir });
try {
  const placed = await api(svc.url, apiKey, '/v1/agent/calls', { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday and until what time.' });
  if (placed.status !== 202) throw new Error(`placeCall answered ${placed.status}`);
  const path = `/v1/agent/calls/${placed.json.callId}`;
  // Warm-up: the probe's path, and the batch thread (started by the first batch).
  await probe(svc.url, path, 1);
  const warm = await abuse(svc.url, 'invalid_calls');
  await new Promise((r) => setTimeout(r, 5000));
  await warm.stop();
  for (let r = 0; r < rounds; r++) {
    for (const s of scenarios) {
      const abusing = s.kind ? await abuse(svc.url, s.kind) : null;
      // The abusers' first bodies are on their way before the probe starts.
      if (abusing) await new Promise((r) => setTimeout(r, 2000));
      const latencies = await probe(svc.url, path, seconds);
      const answered = (await abusing?.stop()) ?? {};
      results.get(s.name)!.push({ p50: percentile(latencies, 50), p99: percentile(latencies, 99), answered });
      // What the abusers left queued is worked off before the next scenario.
      if (abusing) await new Promise((r) => setTimeout(r, 5000));
    }
  }
} finally {
  await svc.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const fmt = (x: number) => x.toFixed(1);
const base = median(results.get('no abuse')!.map((f) => f.p99));
console.log(`\nAnother tenant's getCall at ${PROBES_PER_SEC}/s, ${rounds} rounds of ${seconds} s, SQLite, Node ${process.version} (medians; goal: p99 under 100 ms)\n`);
console.log('| scenario | getCall p50 ms | getCall p99 ms | p99 ratio | batches answered per round | runs (p99 ms) |');
console.log('|---|---:|---:|---:|---|---|');
for (const s of scenarios) {
  const f = results.get(s.name)!;
  const p99 = median(f.map((x) => x.p99));
  const answers = s.kind
    ? f
        .map((x) =>
          Object.entries(x.answered)
            .map(([k, n]) => `${n}× ${k}`)
            .join(' '),
        )
        .join('; ')
    : '';
  const ratio = s.kind ? `${(p99 / base).toFixed(1)}× no abuse` : 'baseline';
  console.log(`| ${s.name} | ${fmt(median(f.map((x) => x.p50)))} | ${fmt(p99)} | ${ratio} | ${answers} | ${f.map((x) => fmt(x.p99)).join(', ')} |`);
}
