// The call engine at scale, on the embedded SQLite store, each scenario a fresh service process:
//  1. 1,000 calls placed over HTTP and driven to a terminal status at SVC_SANDBOX_TIME_SCALE=0.001 (each
//     completes with transcript and analysis; its recording is rendered only when fetched): calls per second end
//     to end and the process's peak RSS; beside the same 1,000 placements to an API-only process (no engine), the
//     baseline.
//  2. 10,000 long calls held in progress at once (scale 1, so none ends during the run): peak RSS, and RSS per
//     call above the idle process measured in the same run. Target: under 500 MB.
//   npx tsx bench/engine-throughput.ts [rounds=3] [calls=1000] [held=10000]
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from '../server/src/store/store.js';
import { openStore } from '../server/src/store/open-store.js';
import { median } from './support/harness.js';
import { seedBenchStore } from './support/seed.js';
import { freePort } from '../test/support/free-port.js';

const MAIN = fileURLToPath(new URL('../server/src/main.ts', import.meta.url));
const rounds = Number(process.argv[2] ?? 3);
const calls = Number(process.argv[3] ?? 1000);
const held = Number(process.argv[4] ?? 10_000);

interface Service {
  proc: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

async function startService(dataDir: string, env: Record<string, string>): Promise<Service> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (c) => {
      out += c;
      if (/svc listening|call engine and webhook dispatcher running/.test(out)) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`service exited with ${code}: ${out}`)));
  });
  return {
    proc,
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGKILL');
      }),
  };
}

/** Peak resident set size of a process, MB (Linux VmHWM). */
const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function placeAll(url: string, apiKey: string, n: number, to: string): Promise<void> {
  const body = JSON.stringify({
    to,
    objective: 'Ask whether the shop is open on Sunday and until what time.',
    fields: [
      { name: 'open_sunday', type: 'boolean' },
      { name: 'closing_time', description: 'the closing time on Sunday' },
    ],
  });
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const res = await fetch(`${url}/v1/agent/calls`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body });
      if (res.status !== 202) throw new Error(`placement answered ${res.status}: ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
}

async function waitUntil(store: Store, what: string, done: (counts: Map<string, number>) => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await store.db
      .selectFrom('calls')
      .select(['status', (eb) => eb.fn.countAll().as('n')])
      .groupBy('status')
      .execute();
    const counts = new Map(rows.map((r) => [r.status, Number(r.n)]));
    if (done(counts)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify([...counts])}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const terminal = (c: Map<string, number>) => ['completed', 'no_answer', 'voicemail', 'declined', 'failed'].reduce((a, s) => a + (c.get(s) ?? 0), 0);

const placeOnly: number[] = [];
const endToEnd: number[] = [];
const peakE2E: number[] = [];
const idleRss: number[] = [];
const heldPeak: number[] = [];
for (let r = 0; r < rounds; r++) {
  {
    const seeded = await seedBenchStore();
    await seeded.store.close();
    const api = await startService(seeded.dataDir, { SVC_ROLE: 'api' });
    const t0 = performance.now();
    await placeAll(api.url, seeded.apiKey, calls, '+14155550123');
    placeOnly.push(calls / ((performance.now() - t0) / 1000));
    await api.stop();
    rmSync(seeded.dataDir, { recursive: true, force: true });
  }
  {
    const seeded = await seedBenchStore();
    await seeded.store.close();
    const svc = await startService(seeded.dataDir, { SVC_ROLE: 'both', SVC_SANDBOX_TIME_SCALE: '0.001' });
    const reader = openStore({ sqlitePath: join(seeded.dataDir, 'svc.db') });
    const t0 = performance.now();
    await placeAll(svc.url, seeded.apiKey, calls, '+14155550123');
    await waitUntil(reader, `${calls} terminal calls`, (c) => terminal(c) === calls, 30 * 60_000);
    endToEnd.push(calls / ((performance.now() - t0) / 1000));
    peakE2E.push(peakRssMb(svc.proc.pid!));
    await reader.close();
    await svc.stop();
    rmSync(seeded.dataDir, { recursive: true, force: true });
  }
  {
    // Long calls (555-0115) at real time: answered after 4 s, then talking for ten minutes. The worker starts on an
    // empty store so its idle size is measured first; the calls are written while it runs.
    const seeded = await seedBenchStore();
    const svc = await startService(seeded.dataDir, { SVC_ROLE: 'worker', SVC_ENGINE_CONCURRENCY: '64' });
    await new Promise((r) => setTimeout(r, 1000));
    idleRss.push(rssMb(svc.proc.pid!));
    const now = Date.now();
    const accountId = (await seeded.store.db.selectFrom('api_keys').select('account_id').where('id', '=', seeded.keyId).executeTakeFirstOrThrow()).account_id;
    for (let i = 0; i < held; i += 500) {
      await seeded.store.db
        .insertInto('calls')
        .values(
          Array.from({ length: Math.min(500, held - i) }, (_, j) => ({
            id: crypto.randomUUID(),
            account_id: accountId,
            api_key_id: seeded.keyId,
            status: 'queued',
            to_number: '+14155550115',
            objective: 'Ask whether the shop is open on Sunday and until what time.',
            context: null,
            fields_json: '[{"name":"open_sunday","type":"boolean"}]',
            webhook_url: null,
            caller_id: '+14155550100',
            voice: 'alloy',
            language: 'en-US',
            language_source: 'inferred',
            summary: null,
            transcript: null,
            extracted_json: null,
            recording_path: null,
            started_at: null,
            ended_at: null,
            duration_sec: null,
            billed_minutes: null,
            error: null,
            created_at: now + i + j,
            updated_at: now,
            next_run_at: now,
            lease_owner: null,
            lease_expires_at: null,
            dial_attempted_at: null,
            carrier_ref: null,
            engine_state: null,
          })),
        )
        .execute();
    }
    await seeded.store.close();
    const reader = openStore({ sqlitePath: join(seeded.dataDir, 'svc.db') });
    await waitUntil(reader, `${held} calls in progress`, (c) => (c.get('in_progress') ?? 0) === held, 30 * 60_000);
    heldPeak.push(peakRssMb(svc.proc.pid!));
    await reader.close();
    await svc.stop();
    rmSync(seeded.dataDir, { recursive: true, force: true });
  }
}

const f = (x: number) => x.toFixed(1);
console.log(`\nCall engine, SQLite, ${rounds} rounds, Node ${process.version} (medians; runs in brackets)`);
console.log('| scenario | value (median) | baseline (median) | ratio | runs |');
console.log('|---|---:|---:|---:|---|');
console.log(
  `| ${calls} calls placed and driven to terminal, calls/s | ${f(median(endToEnd))} | ${f(median(placeOnly))} (placement only, no engine) | ${((median(endToEnd) / median(placeOnly)) * 100).toFixed(0)}% | ${endToEnd.map(f).join(', ')} |`,
);
console.log(`| peak RSS driving ${calls} calls, MB | ${f(median(peakE2E))} | | | ${peakE2E.map(f).join(', ')} |`);
console.log(`| ${held} calls in progress at once, peak RSS MB | ${f(median(heldPeak))} | ${f(median(idleRss))} (idle worker) | target < 500 MB | ${heldPeak.map(f).join(', ')} |`);
console.log(`| RSS per call held, KB | ${f(((median(heldPeak) - median(idleRss)) * 1024) / held)} | | | |`);
