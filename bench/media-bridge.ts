// How many live calls one process carries through the media bridge. N calls at once, each a Twilio
// Media Stream sending a 20 ms mu-law frame every 20 ms and a realtime (GA) model socket streaming 20 ms of audio
// back every 20 ms, both fakes in this process (bench/support/media-fakes.ts), the middle in another:
//   - baseline, measured in the same run: a bare `ws` relay forwarding every message untouched between the same
//     two fakes (bench/support/bare-relay.ts);
//   - svc: the service itself (server/src/main.ts, role both, SQLite) with the Twilio carrier pointed at a fake
//     of Twilio's REST API here and the realtime agent at the fake model: each call placed through the API,
//     dialled by the engine, answered by signed callbacks, its stream opened where the TwiML says with the token
//     it carries, exactly as on a real line.
// For each N (the calls are added to those already live, so one process serves every N of a round): the middle's
// CPU (share of one core) and the fakes', frame in to frame out over both directions p50/p99 (ms, on the fakes'
// one clock), frames dropped (sent in the window, never out) and late (out more than one frame, 20 ms, after in),
// and resident memory (the median of a reading a second) with its growth per call over the first level's (the
// idle process is no baseline: the garbage of its start-up is collected while the first calls come in; small
// steps are within the garbage collector's noise). Medians of the rounds.
//   npx tsx bench/media-bridge.ts [rounds=3] [levels=50,100,200,300,400,500,600,700,800] [seconds=5]
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { median, percentile } from './support/harness.js';
import { MediaFakes, type Window } from './support/media-fakes.js';
import { cpuSeconds, rssMb } from './support/service.js';
import { startRelay, startTwilioService } from './support/twilio-service.js';

const rounds = Number(process.argv[2] ?? 3);
const levels = (process.argv[3] ?? '50,100,200,300,400,500,600,700,800').split(',').map(Number);
const seconds = Number(process.argv[4] ?? 5);
const GOAL_P99_MS = 20;
const RELAY = fileURLToPath(new URL('./support/bare-relay.ts', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type TargetName = 'bare ws relay' | 'svc media bridge';
interface Level {
  n: number;
  cpu: number;
  fakesCpu: number;
  p50: number;
  p99: number;
  frames: number;
  dropped: number;
  late: number;
  /** The process's resident memory while these calls were live (the median of a reading a second). */
  rssMb: number;
  /** Its growth per call over the first level's: the start-up's garbage makes the idle process no baseline. */
  rssPerCallKb: number | null;
}

/** The middle under test: its process, and how to open one more call through it. */
interface Middle {
  pid: number;
  open(count: number): Promise<void>;
  stop(): Promise<void>;
}

async function relay(fakes: MediaFakes): Promise<Middle> {
  const r = await startRelay(RELAY, { SVC_REALTIME_URL: fakes.realtimeUrl });
  let opened = 0;
  return {
    pid: r.pid,
    open: async (count) => {
      for (let i = 0; i < count; i++, opened++) await fakes.twilioStream(`ws://127.0.0.1:${r.port}/twilio/media/${opened}`, `CA${randomBytes(16).toString('hex')}`, 'relay');
    },
    stop: r.stop,
  };
}

async function svc(fakes: MediaFakes): Promise<Middle> {
  const service = await startTwilioService(Math.max(...levels), { SVC_REALTIME_URL: fakes.realtimeUrl });
  return {
    pid: service.pid,
    // Placed ten at a time; the engine dials each through the fake REST API; each answered, its stream opened.
    open: async (count) => {
      for (const call of await service.placeAndAnswer(count)) await fakes.twilioStream(call.url, call.callSid, call.token);
    },
    stop: service.stop,
  };
}

async function round(name: TargetName): Promise<Level[]> {
  const fakes = await MediaFakes.start();
  const middle = name === 'bare ws relay' ? await relay(fakes) : await svc(fakes);
  await sleep(1000);
  const out: Level[] = [];
  let live = 0;
  for (const n of levels) {
    await middle.open(n - live);
    live = n;
    const deadline = Date.now() + 60_000;
    while (fakes.modelSessions < n && Date.now() < deadline) await sleep(20);
    if (fakes.modelSessions < n) throw new Error(`${name}: ${fakes.modelSessions} model sessions of ${n}`);
    await sleep(2000); // every stream flowing both ways
    const cpu0 = cpuSeconds(middle.pid);
    const fakes0 = process.cpuUsage();
    const w: Window = fakes.measure(seconds * 1000);
    const rss: number[] = [];
    for (let t = 0; t < seconds; t++) {
      await sleep(1000);
      rss.push(rssMb(middle.pid));
    }
    const cpu = (cpuSeconds(middle.pid) - cpu0) / seconds;
    const fakesUsage = process.cpuUsage(fakes0);
    await sleep(1000); // the window's last frames come out
    const lat = w.latencies;
    out.push({
      n,
      cpu,
      fakesCpu: (fakesUsage.user + fakesUsage.system) / 1e6 / seconds,
      p50: percentile(lat, 50),
      p99: percentile(lat, 99),
      frames: w.sent,
      dropped: w.sent - lat.length,
      late: lat.filter((x) => x > GOAL_P99_MS).length,
      rssMb: median(rss),
      rssPerCallKb: out.length === 0 ? null : ((median(rss) - out[0].rssMb) * 1024) / (n - out[0].n),
    });
    console.error(`${name} N=${n}: cpu ${(cpu * 100).toFixed(0)}% p50 ${out.at(-1)!.p50.toFixed(2)} p99 ${out.at(-1)!.p99.toFixed(2)} ms, ${w.sent} frames, ${w.sent - lat.length} dropped`);
    if (out.at(-1)!.p99 > 10 * GOAL_P99_MS) break; // far past the goal: larger N says nothing more
  }
  await middle.stop();
  await fakes.close();
  return out;
}

const runs = new Map<TargetName, Level[][]>([
  ['bare ws relay', []],
  ['svc media bridge', []],
]);
for (let r = 0; r < rounds; r++) for (const name of runs.keys()) runs.get(name)!.push(await round(name));

const perCall = (ls: Level[]) => (ls.every((l) => l.rssPerCallKb !== null) ? median(ls.map((l) => l.rssPerCallKb!)).toFixed(0) : '');
const at = (name: TargetName, n: number) =>
  runs
    .get(name)!
    .map((levels) => levels.find((l) => l.n === n))
    .filter((l): l is Level => l !== undefined);
const med = (ls: Level[], f: (l: Level) => number) => median(ls.map(f));
/** The largest N whose median p99 is under the goal (every smaller N too). */
const capacity = (name: TargetName) => {
  let best = 0;
  for (const n of levels) {
    const ls = at(name, n);
    if (ls.length < rounds || med(ls, (l) => l.p99) >= GOAL_P99_MS) break;
    best = n;
  }
  return best;
};

console.log(`\nMedia bridge: N live calls, 20 ms frames both ways in real time, ${seconds} s windows, ${rounds} rounds, Node ${process.version} (medians of the rounds)\n`);
console.log('| N | middle | CPU (of one core) | fakes CPU | p50 ms | p99 ms | frames | dropped | late (>20 ms) | RSS MB | RSS per call KB | p99 ratio to relay | runs (p99 ms) |');
console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|');
for (const n of levels) {
  for (const name of runs.keys()) {
    const ls = at(name, n);
    if (ls.length === 0) continue;
    const base = at('bare ws relay', n);
    const ratio = name === 'bare ws relay' ? 'baseline' : base.length ? (med(ls, (l) => l.p99) / med(base, (l) => l.p99)).toFixed(2) : '';
    console.log(
      `| ${n} | ${name} | ${(med(ls, (l) => l.cpu) * 100).toFixed(0)}% | ${(med(ls, (l) => l.fakesCpu) * 100).toFixed(0)}% | ${med(ls, (l) => l.p50).toFixed(2)} | ${med(ls, (l) => l.p99).toFixed(2)} | ${med(ls, (l) => l.frames)} | ${med(ls, (l) => l.dropped)} | ${med(ls, (l) => l.late)} | ${med(ls, (l) => l.rssMb).toFixed(0)} | ${perCall(ls)} | ${ratio} | ${ls.map((l) => l.p99.toFixed(1)).join(', ')} |`,
    );
  }
}
const relayCap = capacity('bare ws relay');
const svcCap = capacity('svc media bridge');
const top = levels.at(-1)!;
const shown = (c: number) => (c === top ? `≥ ${c}` : String(c));
console.log(
  `\nLargest N with p99 under ${GOAL_P99_MS} ms: bare relay ${shown(relayCap)}, svc ${shown(svcCap)}; ratio ${relayCap ? (svcCap / relayCap).toFixed(2) : 'n/a'}${relayCap === top ? ' (the relay was not pushed past the levels measured)' : ''}`,
);
