// Many open live streams of one key, and what they cost another tenant: a service process (role both) whose key A
// has a history of 2,000 sandbox calls, and then:
//   - 2,000 streams of /v1/agent/stream open, half reading as events come and half never reading, while A places
//     sandbox calls (changes for every stream to carry), 1 a second and then 10 a second;
//   - 100 streams that never read and ask for a replay from the start (Last-Event-ID: 0);
// while key B polls getCall, 100 times a second. B's getCall p50/p99 is measured with no stream open (the baseline) and in each scenario,
// in the same round; svc's resident memory idle, with the streams open, and 10 s after they close.
//   npx tsx bench/stream-fanout.ts [rounds=3] [streams=2000] [seconds=10] [sqlite|postgres]
import http from 'node:http';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createKey } from '../server/src/accounts/accounts-repo.js';
import { median, percentile } from './support/harness.js';
import { placementBodies } from './support/seed.js';
import { api, cpuSeconds, rssMb, seed, startService } from './support/service.js';

const rounds = Number(process.argv[2] ?? 3);
const streams = Number(process.argv[3] ?? 2000);
const seconds = Number(process.argv[4] ?? 10);
const kind = (process.argv[5] ?? 'sqlite') as 'sqlite' | 'postgres';
const HISTORY = 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Latency {
  p50: number;
  p99: number;
  rps: number;
}

interface Scenario {
  latency: Latency;
  /** svc's CPU while getCall was measured, in cores. */
  cpu: number;
  rssDuring: number;
  rssAfter: number;
  events: number;
}

interface Round {
  base: Latency;
  baseCpu: number;
  rssIdle: number;
  fanout: Scenario;
  busy: Scenario;
  replays: Scenario;
}

const CLIENTS = fileURLToPath(new URL('./support/stream-clients.ts', import.meta.url));
const REPLAYS = 100;
/** getCall requests a second the other tenant sends. */
const RATE = 100;

/** The other tenant polls getCall at a steady 100 requests a second (each sent on time, whatever the last took). */
async function getCallLoad(url: string, key: string, id: string): Promise<Latency> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const latencies: number[] = [];
  const get = () =>
    new Promise<void>((resolve, reject) => {
      const t0 = performance.now();
      http
        .get(`${url}/v1/agent/calls/${id}`, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode !== 200) reject(new Error(`getCall answered ${res.statusCode}`));
            latencies.push(performance.now() - t0);
            resolve();
          });
        })
        .on('error', reject);
    });
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < seconds * RATE; i++) {
    const due = start + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(get());
  }
  await Promise.all(inFlight);
  agent.destroy();
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), rps: latencies.length / seconds };
}

/** The stream clients' process (support/stream-clients.ts), once every stream it opened has its answer. */
async function streamClients(url: string, key: string, n: number, readers: 'half' | 'none', replay: boolean) {
  const proc = spawn(process.execPath, ['--import', 'tsx', CLIENTS, url, key, String(n), readers, replay ? 'replay' : ''], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: proc.stdout! });
  const next = (prefix: string) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`stream clients: no "${prefix}" within 120 s`)), 120_000);
      const on = (line: string) => {
        if (!line.startsWith(prefix)) return;
        clearTimeout(timer);
        lines.off('line', on);
        resolve(line);
      };
      lines.on('line', on);
    });
  const opened = await next('opened');
  if (!opened.startsWith(`opened ${n} `)) throw new Error(`stream clients (${n} streams, ${readers} reading${replay ? ', replaying' : ''}): ${opened}`);
  return {
    events: async () => Number((await (proc.stdin!.write('count\n'), next('events'))).split(' ')[1]),
    close: () => new Promise<void>((resolve) => (proc.once('exit', () => resolve()), proc.stdin!.write('close\n'))),
  };
}

async function round(): Promise<Round> {
  const seeded = await seed(kind);
  const reader = seeded.reader();
  const account = await reader.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow();
  const other = await createKey(reader.db, { accountId: account.id, name: 'other tenant', rateLimit: 1_000_000 }, Date.now());
  await reader.close();
  const svc = await startService({
    ...seeded.env,
    SVC_SANDBOX_TIME_SCALE: '0.05',
    SVC_STREAMS_PER_KEY: String(streams + 100),
    SVC_KEY_REQUEST_LIMIT: String(streams * 10),
  });
  const pid = svc.proc.pid!;
  // A's history (replayed to the silent streams) and B's call to read.
  const bodies = placementBodies(HISTORY + 4 * seconds * 10 + 1);
  const placed: string[] = [];
  for (let i = 0; i < HISTORY; i += 50) {
    const results = await Promise.all(bodies.slice(i, i + 50).map((b) => api(svc.url, seeded.apiKey, '/v1/agent/calls', JSON.parse(b))));
    for (const r of results) placed.push(r.json.callId);
  }
  const { json: bCall } = await api(svc.url, other.key, '/v1/agent/calls', JSON.parse(bodies[HISTORY]));
  await sleep(15_000); // the history's sandbox calls run to their ends
  const rssIdle = rssMb(pid);
  const baseCpu0 = cpuSeconds(pid);
  const baseT0 = Date.now();
  const base = await getCallLoad(svc.url, other.key, bCall.callId);
  const baseCpu = (cpuSeconds(pid) - baseCpu0) / ((Date.now() - baseT0) / 1000);

  /** Opens the streams, places A's calls at 10 a second while B's getCall is measured, closes them, waits 10 s. */
  const scenario = async (n: number, readers: 'half' | 'none', replay: boolean, callsPerSecond: number): Promise<Scenario> => {
    const clients = await streamClients(svc.url, seeded.apiKey, n, readers, replay);
    let placing = true;
    const placer = (async () => {
      for (let i = HISTORY + 1; placing && i < bodies.length; i++) {
        await api(svc.url, seeded.apiKey, '/v1/agent/calls', JSON.parse(bodies[i]));
        await sleep(1000 / callsPerSecond);
      }
    })();
    let rssDuring = rssMb(pid);
    const sampler = setInterval(() => (rssDuring = Math.max(rssDuring, rssMb(pid))), 200);
    const cpu0 = cpuSeconds(pid);
    const t0 = Date.now();
    const latency = await getCallLoad(svc.url, other.key, bCall.callId);
    const cpu = (cpuSeconds(pid) - cpu0) / ((Date.now() - t0) / 1000);
    placing = false;
    await placer;
    clearInterval(sampler);
    const events = await clients.events();
    await clients.close();
    await sleep(10_000);
    return { latency, cpu, rssDuring, rssAfter: rssMb(pid), events };
  };
  const fanout = await scenario(streams, 'half', false, 1);
  const busy = await scenario(streams, 'half', false, 10);
  const replays = await scenario(REPLAYS, 'none', true, 1);
  await svc.stop();
  await seeded.drop();
  return { base, baseCpu, rssIdle, fanout, busy, replays };
}

const runs: Round[] = [];
for (let r = 0; r < rounds; r++) runs.push(await round());
const m = (f: (r: Round) => number) => median(runs.map(f));
const fmt = (x: number) => x.toFixed(1);
const ms = (x: number) => x.toFixed(1);
const scenarios: [string, (r: Round) => Latency, (r: Round) => number][] = [
  ['no streams (baseline)', (r) => r.base, (r) => r.baseCpu],
  [`${streams} streams open, half never reading; 1 call a second`, (r) => r.fanout.latency, (r) => r.fanout.cpu],
  [`${streams} streams open, half never reading; 10 calls a second`, (r) => r.busy.latency, (r) => r.busy.cpu],
  [`${REPLAYS} streams replaying from Last-Event-ID 0, never reading; 1 call a second`, (r) => r.replays.latency, (r) => r.replays.cpu],
];
console.log(
  `\nAnother tenant's getCall (${RATE} a second for ${seconds} s) beside one key's open live streams (${HISTORY} calls of history; the key places calls meanwhile), ${kind}, ${rounds} rounds, Node ${process.version} (medians)\n`,
);
console.log('| scenario | getCall p50 ms | getCall p99 ms | getCall answered/s | p99 ratio to baseline | svc CPU (cores) | runs (p50/p99 ms) |');
console.log('|---|---:|---:|---:|---:|---:|---|');
for (const [name, f, cpu] of scenarios) {
  const ratio = f === scenarios[0][1] ? 'baseline' : (m((r) => f(r).p99) / m((r) => r.base.p99)).toFixed(2);
  console.log(
    `| ${name} | ${fmt(m((r) => f(r).p50))} | ${fmt(m((r) => f(r).p99))} | ${Math.round(m((r) => f(r).rps))} | ${ratio} | ${m(cpu).toFixed(2)} | ${runs.map((r) => `${ms(f(r).p50)}/${ms(f(r).p99)}`).join(', ')} |`,
  );
}
console.log('\n| svc RSS | MB (median) | ratio to idle | runs (MB) |');
console.log('|---|---:|---:|---|');
const rss: [string, (r: Round) => number][] = [
  ['idle, before any stream', (r) => r.rssIdle],
  [`peak with ${streams} streams open, 1 call a second`, (r) => r.fanout.rssDuring],
  ['10 s after they close', (r) => r.fanout.rssAfter],
  [`peak with ${streams} streams open, 10 calls a second`, (r) => r.busy.rssDuring],
  ['10 s after they close', (r) => r.busy.rssAfter],
  [`peak with ${REPLAYS} replays from 0`, (r) => r.replays.rssDuring],
  ['10 s after they close', (r) => r.replays.rssAfter],
];
for (const [name, f] of rss) console.log(`| ${name} | ${fmt(m(f))} | ${(m(f) / m((r) => r.rssIdle)).toFixed(2)} | ${runs.map((r) => fmt(f(r))).join(', ')} |`);
console.log(
  `\nEvents received by the ${streams / 2} reading streams while getCall was measured (all of them, median): ${Math.round(m((r) => r.fanout.events))} at 1 call a second, ${Math.round(m((r) => r.busy.events))} at 10`,
);
