// A batch of sandbox calls (issue 21) beside the same calls placed one by one, on each store, each scenario a fresh
// service process (role both) at SVC_SANDBOX_TIME_SCALE=0.001: the time to create them (the batch's one request;
// the placements at 50 connections), the time until the last of them is terminal, and the process's peak RSS.
// Medians of the rounds; the single placements are the baseline measured in the same run.
//   npx tsx bench/batch-throughput.ts [rounds=3] [calls=10000] [maxConcurrency=100]   (SVC_TEST_PG_URL: Postgres)
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { addNumber, createAccount, createKey } from '../server/src/accounts/accounts-repo.js';
import { migrate, type Store } from '../server/src/store/store.js';
import { openStore } from '../server/src/store/open-store.js';
import { freePort } from '../test/support/free-port.js';
import { median } from './support/harness.js';
import { placementBodies, seedBenchStore } from './support/seed.js';

const MAIN = fileURLToPath(new URL('../server/src/main.ts', import.meta.url));
const PG_URL = process.env.SVC_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const rounds = Number(process.argv[2] ?? 3);
const calls = Number(process.argv[3] ?? 10_000);
const maxConcurrency = Number(process.argv[4] ?? 100);
const TERMINAL = ['completed', 'no_answer', 'voicemail', 'declined', 'failed', 'canceled'];

interface Seeded {
  env: Record<string, string>;
  apiKey: string;
  /** A connection of the bench's own to the service's store, to count the calls that have ended. */
  reader(): Store;
  drop(): Promise<void>;
}

async function seed(kind: 'sqlite' | 'postgres'): Promise<Seeded> {
  if (kind === 'sqlite') {
    const s = await seedBenchStore();
    await s.store.close();
    return {
      env: { SVC_DATA_DIR: s.dataDir },
      apiKey: s.apiKey,
      reader: () => openStore({ sqlitePath: join(s.dataDir, 'svc.db') }),
      drop: async () => rmSync(s.dataDir, { recursive: true, force: true }),
    };
  }
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(q);
    await c.end();
  };
  await admin(`create schema ${schema}`);
  const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const store = openStore({ postgresUrl: url, poolSize: 2 });
  await migrate(store);
  const now = Date.now();
  const accountId = await createAccount(store.db, { name: 'bench', planMinutes: 1_000_000_000, defaultCallerId: '+14155550100' }, now);
  await addNumber(store.db, accountId, '+14155550100', now);
  const { key } = await createKey(store.db, { accountId, name: 'bench', rateLimit: 1_000_000_000 }, now);
  await store.close();
  const dataDir = `/tmp/svc-bench-pg-${schema}`;
  return {
    env: { DATABASE_URL: url, SVC_DATA_DIR: dataDir },
    apiKey: key,
    reader: () => openStore({ postgresUrl: url, poolSize: 1 }),
    drop: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await admin(`drop schema ${schema} cascade`);
    },
  };
}

async function startService(env: Record<string, string>): Promise<{ proc: ChildProcess; url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', SVC_ROLE: 'both', SVC_SANDBOX_TIME_SCALE: '0.001', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (c) => {
      out += c;
      if (/call engine and webhook dispatcher running/.test(out)) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`service exited with ${code}: ${out}`)));
  });
  return { proc, url: `http://127.0.0.1:${port}`, stop: () => new Promise((resolve) => (proc.once('exit', () => resolve()), proc.kill('SIGKILL'))) };
}

const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function api(url: string, apiKey: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

async function until(done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60 * 60_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Figures {
  createSec: number;
  lastTerminalSec: number;
  peakRssMb: number;
}

/** The calls placed one by one at 50 connections; done when every call is terminal. */
async function singles(seeded: Seeded, bodies: string[]): Promise<Figures> {
  const svc = await startService(seeded.env);
  const reader = seeded.reader();
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const body = JSON.parse(bodies[next++]);
      const res = await api(svc.url, seeded.apiKey, '/v1/agent/calls', body);
      if (res.status !== 202) throw new Error(`placement answered ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
  const createSec = (performance.now() - t0) / 1000;
  await until(async () => {
    const row = await reader.db.selectFrom('calls').select((eb) => eb.fn.countAll<number>().as('n')).where('status', 'in', TERMINAL).executeTakeFirst();
    return Number(row?.n ?? 0) >= bodies.length;
  });
  const lastTerminalSec = (performance.now() - t0) / 1000;
  const peak = peakRssMb(svc.proc.pid!);
  await reader.close();
  await svc.stop();
  return { createSec, lastTerminalSec, peakRssMb: peak };
}

/** The same calls as one batch; done when the batch has completed. */
async function batch(seeded: Seeded, bodies: string[]): Promise<Figures> {
  const { apiKey } = seeded;
  const svc = await startService(seeded.env);
  const t0 = performance.now();
  const res = await api(svc.url, apiKey, '/v1/agent/batches', { calls: bodies.map((b) => JSON.parse(b)), maxConcurrency });
  if (res.status !== 202) throw new Error(`createBatch answered ${res.status}: ${JSON.stringify(res.json)}`);
  const createSec = (performance.now() - t0) / 1000;
  await until(async () => (await api(svc.url, apiKey, `/v1/agent/batches/${res.json.batchId}`)).json.status === 'completed');
  const lastTerminalSec = (performance.now() - t0) / 1000;
  const peak = peakRssMb(svc.proc.pid!);
  await svc.stop();
  return { createSec, lastTerminalSec, peakRssMb: peak };
}

const bodies = placementBodies(calls);
const rows: string[] = [];
for (const kind of ['sqlite', 'postgres'] as const) {
  const single: Figures[] = [];
  const batched: Figures[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const [run, into] of [[singles, single], [batch, batched]] as const) {
      const s = await seed(kind);
      try {
        into.push(await run(s, bodies));
      } finally {
        await s.drop();
      }
    }
  }
  const m = (xs: Figures[], k: keyof Figures) => median(xs.map((x) => x[k]));
  const fmt = (x: number) => x.toFixed(1);
  const runs = (xs: Figures[], k: keyof Figures) => xs.map((x) => fmt(x[k])).join(', ');
  rows.push(`| ${kind} | ${calls} single placements | ${fmt(m(single, 'createSec'))} | ${fmt(m(single, 'lastTerminalSec'))} | ${fmt(m(single, 'peakRssMb'))} | baseline | ${runs(single, 'lastTerminalSec')} |`);
  rows.push(
    `| ${kind} | one batch of ${calls}, maxConcurrency ${maxConcurrency} | ${fmt(m(batched, 'createSec'))} | ${fmt(m(batched, 'lastTerminalSec'))} | ${fmt(m(batched, 'peakRssMb'))} | ` +
      `${Math.round((m(batched, 'lastTerminalSec') / m(single, 'lastTerminalSec')) * 100)}% of the singles' time to last terminal | ${runs(batched, 'lastTerminalSec')} |`,
  );
}
console.log(`\n${calls} sandbox calls at SVC_SANDBOX_TIME_SCALE=0.001, ${rounds} rounds each, Node ${process.version} (medians)\n`);
console.log('| store | scenario | create s | to last terminal s | peak RSS MB | ratio | runs (to last terminal s) |');
console.log('|---|---|---:|---:|---:|---|---|');
for (const row of rows) console.log(row);
