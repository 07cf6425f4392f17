// A real service process (server/src/main.ts, role both) over a freshly seeded store of either kind, for the
// benchmarks that measure the whole service: one account with a number and a key with a rate limit no bench meets.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { addNumber, createAccount, createKey } from '../../server/src/accounts/accounts-repo.js';
import { migrate, type Store } from '../../server/src/store/store.js';
import { openStore } from '../../server/src/store/open-store.js';
import { freePort } from '../../test/support/free-port.js';
import { killOnExit } from '../../test/support/kill-on-exit.js';
import { seedBenchStore } from './seed.js';

const MAIN = fileURLToPath(new URL('../../server/src/main.ts', import.meta.url));
/**
 * SVC_BENCH_CPU_PROF=<dir>: the service runs under V8's profiler and is stopped with SIGTERM, so that it writes its
 * .cpuprofile there as it exits (how the profiles in docs/performance.md were taken).
 */
export const PROFILE_DIR = process.env.SVC_BENCH_CPU_PROF;
const PG_URL = process.env.SVC_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface Seeded {
  env: Record<string, string>;
  apiKey: string;
  /** A connection of the bench's own to the service's store, to count the calls that have ended. */
  reader(): Store;
  drop(): Promise<void>;
}

export async function seed(kind: 'sqlite' | 'postgres'): Promise<Seeded> {
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

/** Starts the service on `port` (a free one when not given: a Twilio bench needs the port for SVC_PUBLIC_BASE_URL). */
export async function startService(env: Record<string, string>, port?: number): Promise<{ proc: ChildProcess; url: string; stop(): Promise<void> }> {
  port ??= await freePort();
  const proc = spawn(process.execPath, [...(PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []), '--import', 'tsx', MAIN], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', SVC_ROLE: 'both', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  killOnExit(proc);
  await new Promise<void>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (c) => {
      if (out.length > 100_000) return; // the banner is long since read; the rest is drained and dropped
      out += c;
      if (/call engine and webhook dispatcher running/.test(out)) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`service exited with ${code}: ${out}`)));
  });
  return { proc, url: `http://127.0.0.1:${port}`, stop: () => new Promise((resolve) => (proc.once('exit', () => resolve()), proc.kill(PROFILE_DIR ? 'SIGTERM' : 'SIGKILL'))) };
}

/** The process's resident memory now, in MB. */
export const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** CPU seconds a process has used so far (user and system, every thread). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime and stime, in clock ticks of 1/100 s
}

export const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** A loopback webhook receiver in this process: each event's arrival time (Date.now()), by eventId. */
export async function hookReceiver(): Promise<{ url: string; arrivals: Map<string, number>; close(): Promise<void> }> {
  const arrivals = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      arrivals.set(JSON.parse(Buffer.concat(chunks).toString('utf8')).eventId, Date.now());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export async function api(url: string, apiKey: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}
