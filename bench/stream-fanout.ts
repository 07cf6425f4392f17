// Many open live streams of one key, and what they cost another tenant: a service process (role both) whose key A
// has 2,000 streams of /v1/agent/stream open — half read as events come, half never read and ask for a replay from
// the start (Last-Event-ID: 0) of a history of calls — while A places sandbox calls (changes for the streams to
// carry) and key B polls getCall. B's getCall p50/p99 is measured with no stream open (the baseline) and with the
// 2,000 open, in the same round; svc's resident memory idle, with the streams open, and after they close.
//   npx tsx bench/stream-fanout.ts [rounds=3] [streams=2000] [seconds=10]   (sqlite; `postgres` as a 4th argument)
import autocannon from 'autocannon';
import { connect, type Socket } from 'node:net';
import { createKey } from '../server/src/accounts/accounts-repo.js';
import { median } from './support/harness.js';
import { placementBodies } from './support/seed.js';
import { api, rssMb, seed, startService } from './support/service.js';

const rounds = Number(process.argv[2] ?? 3);
const streams = Number(process.argv[3] ?? 2000);
const seconds = Number(process.argv[4] ?? 10);
const kind = (process.argv[5] ?? 'sqlite') as 'sqlite' | 'postgres';
const HISTORY = 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Round {
  base: { p50: number; p99: number; rps: number };
  loaded: { p50: number; p99: number; rps: number };
  rssIdle: number;
  rssDuring: number;
  rssAfter: number;
  events: number;
}

async function getCallLoad(url: string, key: string, id: string): Promise<Round['base']> {
  const r = await autocannon({ url: `${url}/v1/agent/calls/${id}`, headers: { authorization: `Bearer ${key}` }, connections: 4, duration: seconds });
  if (r.non2xx > 0) throw new Error(`${r.non2xx} getCall answers were not 2xx`);
  return { p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average };
}

/** A stream client on a raw socket: one that reads every byte (counting the events), or one that never reads. */
function open(url: string, key: string, reads: boolean, counter: { events: number; opened: number }): Socket {
  const { port } = new URL(url);
  const s = connect(Number(port), '127.0.0.1');
  s.on('error', () => {});
  if (!reads) s.pause();
  const lastEventId = reads ? '' : 'Last-Event-ID: 0\r\n';
  s.write(`GET /v1/agent/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n${lastEventId}\r\n`);
  let head = true;
  s.on('data', (chunk: Buffer) => {
    const text = chunk.toString('latin1');
    if (head && text.startsWith('HTTP/1.1 200')) {
      head = false;
      counter.opened++;
    }
    for (let i = text.indexOf('\nevent: '); i !== -1; i = text.indexOf('\nevent: ', i + 1)) counter.events++;
  });
  return s;
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
  const bodies = placementBodies(HISTORY + seconds * 10 + 1);
  const placed: string[] = [];
  for (let i = 0; i < HISTORY; i += 50) {
    const results = await Promise.all(bodies.slice(i, i + 50).map((b) => api(svc.url, seeded.apiKey, '/v1/agent/calls', JSON.parse(b))));
    for (const r of results) placed.push(r.json.callId);
  }
  const { json: bCall } = await api(svc.url, other.key, '/v1/agent/calls', JSON.parse(bodies[HISTORY]));
  await sleep(15_000); // the history's sandbox calls run to their ends
  const rssIdle = rssMb(pid);
  const base = await getCallLoad(svc.url, other.key, bCall.callId);

  const counter = { events: 0, opened: 0 };
  const sockets: Socket[] = [];
  for (let i = 0; i < streams; i++) {
    sockets.push(open(svc.url, seeded.apiKey, i % 2 === 0, counter));
    if (i % 100 === 99) await sleep(20);
  }
  const deadline = Date.now() + 60_000;
  while (counter.opened < streams && Date.now() < deadline) await sleep(50);
  if (counter.opened < streams) throw new Error(`only ${counter.opened} of ${streams} streams opened`);
  // A places calls at 10 a second through the measurement: changes for every reading stream.
  let placing = true;
  const placer = (async () => {
    for (let i = HISTORY + 1; placing && i < bodies.length; i++) {
      await api(svc.url, seeded.apiKey, '/v1/agent/calls', JSON.parse(bodies[i]));
      await sleep(100);
    }
  })();
  let rssDuring = rssMb(pid);
  const sampler = setInterval(() => (rssDuring = Math.max(rssDuring, rssMb(pid))), 200);
  const loaded = await getCallLoad(svc.url, other.key, bCall.callId);
  placing = false;
  await placer;
  clearInterval(sampler);
  const events = counter.events;
  for (const s of sockets) s.destroy();
  await sleep(10_000);
  const rssAfter = rssMb(pid);
  await svc.stop();
  await seeded.drop();
  return { base, loaded, rssIdle, rssDuring, rssAfter, events };
}

const runs: Round[] = [];
for (let r = 0; r < rounds; r++) runs.push(await round());
const m = (f: (r: Round) => number) => median(runs.map(f));
const fmt = (x: number) => x.toFixed(1);
console.log(`\nAnother tenant's getCall (4 connections, ${seconds} s) beside ${streams} open streams of one key (half never reading, from Last-Event-ID 0 over ${HISTORY} calls), ${kind}, ${rounds} rounds, Node ${process.version} (medians)\n`);
console.log('| scenario | getCall p50 ms | getCall p99 ms | getCall req/s | p99 ratio to baseline | runs (p50/p99 ms) |');
console.log('|---|---:|---:|---:|---:|---|');
console.log(`| no streams (baseline) | ${fmt(m((r) => r.base.p50))} | ${fmt(m((r) => r.base.p99))} | ${Math.round(m((r) => r.base.rps))} | baseline | ${runs.map((r) => `${r.base.p50}/${r.base.p99}`).join(', ')} |`);
console.log(
  `| ${streams} streams open | ${fmt(m((r) => r.loaded.p50))} | ${fmt(m((r) => r.loaded.p99))} | ${Math.round(m((r) => r.loaded.rps))} | ${(m((r) => r.loaded.p99) / m((r) => r.base.p99)).toFixed(2)} | ${runs.map((r) => `${r.loaded.p50}/${r.loaded.p99}`).join(', ')} |`,
);
console.log('\n| svc RSS | MB (median) | ratio to idle | runs (MB) |');
console.log('|---|---:|---:|---|');
for (const [name, f] of [
  ['idle, before the streams', (r: Round) => r.rssIdle],
  ['peak with the streams open', (r: Round) => r.rssDuring],
  ['10 s after they close', (r: Round) => r.rssAfter],
] as const) {
  console.log(`| ${name} | ${fmt(m(f))} | ${(m(f) / m((r) => r.rssIdle)).toFixed(2)} | ${runs.map((r) => fmt(f(r))).join(', ')} |`);
}
console.log(`\nEvents the reading streams received during the measurement (all streams, median): ${Math.round(m((r) => r.events))}`);
