// Signed webhook deliveries per second to a loopback receiver answering 200, beside bare node:http POSTs of the
// same bodies at the same concurrency (no store, no signing, no SSRF check), measured in the same run; and the
// signing cost per event. Target: at least 1,000 deliveries/s on one process.
//   npx tsx bench/webhook-throughput.ts [rounds=3] [events=5000]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { addNumber, createAccount, createKey } from '../server/src/accounts/accounts-repo.js';
import { systemClock } from '../server/src/clock.js';
import { migrate, type Store } from '../server/src/store/store.js';
import { openStore } from '../server/src/store/open-store.js';
import { createWebhookDispatcher } from '../server/src/webhooks/dispatcher.js';
import { signatureHeader } from '../server/src/webhooks/signature.js';
import { postgresAvailable, freshStore } from '../test/support/stores.js';
import { median } from './support/harness.js';

const rounds = Number(process.argv[2] ?? 3);
const events = Number(process.argv[3] ?? 5000);
const CONCURRENCY = 32;

const receiver = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./webhook-receiver.ts', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise<number>((resolve) => {
  createInterface({ input: receiver.stdout! }).on('line', (l) => {
    const m = /^ready (\d+)$/.exec(l);
    if (m) resolve(Number(m[1]));
  });
});
const url = `http://127.0.0.1:${port}/hooks`;

function body(i: number): string {
  const callId = crypto.randomUUID();
  const at = Date.now() + i;
  return JSON.stringify({
    event: 'call.completed',
    eventId: `${callId}:call.completed:${at}`,
    timestamp: new Date(at).toISOString(),
    callId,
    status: 'completed',
    to: '+14155550123',
    objective: 'Ask whether the shop is open on Sunday and until what time',
    startedAt: new Date(at - 61_000).toISOString(),
    endedAt: new Date(at).toISOString(),
    durationSec: 60,
    summary: 'The shop is open on Sunday until 4 pm.',
    extracted: { open_sunday: true, closing_time: '16:00' },
    error: null,
  });
}
const bodies = Array.from({ length: events }, (_x, i) => body(i));

/** Baseline: the same bodies POSTed with a kept-alive agent, CONCURRENCY at a time. */
async function bare(): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < bodies.length) {
      const b = bodies[next++];
      await new Promise<void>((resolve, reject) => {
        const req = http.request(url, { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(b) } }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
        });
        req.on('error', reject);
        req.end(b);
      });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const rate = events / ((performance.now() - started) / 1000);
  agent.destroy();
  return rate;
}

/** svc: the events in the outbox, delivered by the real dispatcher (claim, check, sign, send, record). */
async function dispatched(store: Store): Promise<number> {
  const now = Date.now();
  const accountId = await createAccount(store.db, { name: `bench-${now}-${Math.random()}`, planMinutes: 10 }, now);
  await addNumber(store.db, accountId, '+14155550100', now);
  const { row } = await createKey(store.db, { accountId, name: 'bench' }, now);
  await store.db.deleteFrom('webhook_events').execute();
  await store.db.deleteFrom('webhook_attempts').execute();
  for (let i = 0; i < events; i += 200) {
    await store.db
      .insertInto('webhook_events')
      .values(
        bodies.slice(i, i + 200).map((b) => {
          const p = JSON.parse(b) as { eventId: string; callId: string };
          return {
            event_id: p.eventId,
            call_id: p.callId,
            api_key_id: row.id,
            event: 'call.completed',
            url,
            body: b,
            state: 'pending',
            attempts: 0,
            next_attempt_at: now,
            lease_owner: null,
            lease_expires_at: null,
            last_status: null,
            last_error: null,
            delivered_at: null,
            created_at: now,
          };
        }),
      )
      .execute();
  }
  const d = createWebhookDispatcher({
    store,
    clock: systemClock,
    concurrency: CONCURRENCY,
    config: { webhookRetrySchedule: [0, 5], webhookTimeoutMs: 15000, webhookAllowPrivate: true },
  });
  const started = performance.now();
  const n = await d.tick();
  const rate = events / ((performance.now() - started) / 1000);
  await d.stop();
  const delivered = await store.db
    .selectFrom('webhook_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', '=', 'delivered')
    .executeTakeFirstOrThrow();
  if (n !== events || Number(delivered.n) !== events) throw new Error(`expected ${events} deliveries, made ${n}, ${delivered.n} delivered`);
  return rate;
}

/** µs per signature header, over the same bodies. */
function signing(secrets: string[]): number {
  const t = Math.floor(Date.now() / 1000);
  const started = performance.now();
  for (const b of bodies) signatureHeader(b, secrets, t);
  return ((performance.now() - started) * 1000) / events;
}

const dir = mkdtempSync(join(tmpdir(), 'svc-webhook-bench-'));
const sqlite = openStore({ sqlitePath: join(dir, 'svc.db') });
await migrate(sqlite);
const pg = (await postgresAvailable()) ? await freshStore('postgres') : null;

const samples: Record<string, number[]> = { bare: [], sqlite: [], postgres: [], sign1: [], sign2: [] };
await bare(); // warm-up: connections, JIT
for (let r = 0; r < rounds; r++) {
  samples.bare.push(await bare());
  samples.sqlite.push(await dispatched(sqlite));
  if (pg) samples.postgres.push(await dispatched(pg.store));
  samples.sign1.push(signing([`whsec_${'a'.repeat(43)}`]));
  samples.sign2.push(signing([`whsec_${'a'.repeat(43)}`, `whsec_${'b'.repeat(43)}`]));
}

const base = median(samples.bare);
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
console.log(`\nWebhook deliveries to a loopback receiver answering 200: ${events} events, ${CONCURRENCY} in flight, median of ${rounds} runs, Node ${process.version}\n`);
console.log('| target | deliveries/s (median) | runs | vs baseline |');
console.log('|---|---:|---|---:|');
console.log(`| bare node:http POST, same bodies (baseline) | ${fmt(base)} | ${samples.bare.map(fmt).join(' / ')} | 1.00 |`);
for (const [key, name] of [
  ['sqlite', 'svc dispatcher, SQLite'],
  ['postgres', 'svc dispatcher, Postgres'],
] as const) {
  if (samples[key].length) console.log(`| ${name} | ${fmt(median(samples[key]))} | ${samples[key].map(fmt).join(' / ')} | ${(median(samples[key]) / base).toFixed(2)} |`);
}
console.log(
  `\nSigning cost per event (HMAC-SHA256 over t.body, ${Buffer.byteLength(bodies[0])}-byte body): one secret ${median(samples.sign1).toFixed(1)} µs, two secrets (rotation) ${median(samples.sign2).toFixed(1)} µs\n`,
);

await sqlite.close();
await pg?.drop();
rmSync(dir, { recursive: true, force: true });
receiver.kill('SIGTERM');
