// What a sandbox call costs the process that carries it: the text sandbox (the default: the scripted agent writes
// the conversation, no audio) against the live sandbox (SVC_AGENT=cascaded with nothing else set: the sandbox
// carrier's live line, the callee's lines and the agent's voice spoken by espeak-ng, svc's own detector and
// endpointing, the oracle recogniser, the scripted model behind the chat-model port). For each N, a fresh service
// (server/src/main.ts, role both, SQLite) idles a few seconds, then N calls are placed at once (numbers the sandbox
// answers and completes) and run to their end at the sandbox's pace (SVC_SANDBOX_TIME_SCALE, 1 by default):
//   - CPU per call: the service's CPU from the placements to the last call's end, less its idle rate over that
//     time, over N; and per minute of call (the records' durationSec);
//   - memory: the service's resident memory while the N calls are all live (the median of a reading every half
//     second) above its own just before the placements, and that over N. A process that has carried no live line yet
//     pays for what the first one loads, so N = 1 shows that and larger N what each more call adds.
// The text sandbox is the baseline, measured in the same run. Medians of the rounds.
//   npx tsx bench/sandbox-cost.ts [rounds=3] [levels=1,10] [scale=1]
import { loadavg } from 'node:os';
import { median } from './support/harness.js';
import { placementBodies } from './support/seed.js';
import { api, cpuSeconds, rssMb, seed, startService } from './support/service.js';

const rounds = Number(process.argv[2] ?? 3);
const levels = (process.argv[3] ?? '1,10').split(',').map(Number);
const scale = process.argv[4] ?? '1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const IDLE_MS = 5000;
/** A process using less than this share of a core, three seconds running, has settled after its start. */
const SETTLED_RATE = 0.08;
const TERMINAL = ['completed', 'no_answer', 'voicemail', 'declined', 'failed', 'canceled'];

type TargetName = 'text sandbox' | 'live sandbox';
const TARGETS: Array<{ name: TargetName; env: Record<string, string> }> = [
  { name: 'text sandbox', env: {} },
  { name: 'live sandbox', env: { SVC_AGENT: 'cascaded' } },
];

interface Measures {
  cpuMsPerCall: number;
  cpuMsPerCallMinute: number;
  /** Resident memory of the idle process, and while all N calls were live above it (MB). */
  idleRssMb: number;
  rssGrowthMb: number;
  /** Seconds from the placements to the last call's end, and the calls' mean length (call time). */
  wallSec: number;
  callSec: number;
  completed: number;
}

async function level(target: (typeof TARGETS)[number], n: number): Promise<Measures> {
  const seeded = await seed('sqlite');
  const service = await startService({ ...seeded.env, SVC_SANDBOX_TIME_SCALE: scale, ...target.env });
  const pid = service.proc.pid!;
  // The process's start (the language detector, espeak-ng's warm-up) takes some seconds of CPU: idle is after it.
  for (let quiet = 0, waited = 0; quiet < 3 && waited < 60; waited++) {
    const c = cpuSeconds(pid);
    await sleep(1000);
    quiet = cpuSeconds(pid) - c < SETTLED_RATE ? quiet + 1 : 0;
  }
  const idle0 = cpuSeconds(pid);
  await sleep(IDLE_MS);
  const idleRate = (cpuSeconds(pid) - idle0) / (IDLE_MS / 1000);
  const rssBefore = rssMb(pid);
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  const ids = await Promise.all(
    placementBodies(n).map(async (body) => {
      const r = await api(service.url, seeded.apiKey, '/v1/agent/calls', JSON.parse(body));
      if (r.status !== 202) throw new Error(`placeCall answered ${r.status}: ${JSON.stringify(r.json)}`);
      return String(r.json.callId);
    }),
  );
  // The calls' rows are read through a connection of the bench's own, so the watching costs the service nothing.
  const reader = seeded.reader();
  const live: number[] = [];
  let rows: Array<{ status: string; duration_sec: number | null }> = [];
  for (const deadline = Date.now() + 20 * 60_000; Date.now() < deadline; ) {
    const rss = rssMb(pid);
    rows = await reader.db.selectFrom('calls').select(['status', 'duration_sec']).where('id', 'in', ids).execute();
    if (rows.length === n && rows.every((r) => r.status === 'in_progress')) live.push(rss);
    if (rows.length === n && rows.every((r) => TERMINAL.includes(r.status))) break;
    await sleep(500);
  }
  const wallSec = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(pid) - cpu0 - idleRate * wallSec;
  await reader.close();
  await service.stop();
  await seeded.drop();
  const callSec = rows.reduce((a, r) => a + (r.duration_sec ?? 0), 0) / n;
  return {
    cpuMsPerCall: (cpu * 1000) / n,
    cpuMsPerCallMinute: callSec > 0 ? (cpu * 1000) / n / (callSec / 60) : Number.NaN,
    idleRssMb: rssBefore,
    rssGrowthMb: live.length ? median(live) - rssBefore : Number.NaN,
    wallSec,
    callSec,
    completed: rows.filter((r) => r.status === 'completed').length,
  };
}

const runs = new Map<string, Measures[]>();
const key = (name: TargetName, n: number) => `${name}@${n}`;
const loads: number[] = [];
for (let r = 0; r < rounds; r++) {
  for (const n of levels) {
    for (const target of TARGETS) {
      loads.push(loadavg()[0]);
      const m = await level(target, n);
      (runs.get(key(target.name, n)) ?? runs.set(key(target.name, n), []).get(key(target.name, n))!).push(m);
      console.error(
        `round ${r + 1} ${target.name} N=${n}: ${m.cpuMsPerCall.toFixed(0)} CPU ms a call (${m.cpuMsPerCallMinute.toFixed(0)} a call-minute), RSS ${m.idleRssMb.toFixed(0)} MB idle, +${m.rssGrowthMb.toFixed(1)} MB with all live, calls of ${m.callSec.toFixed(1)} s over ${m.wallSec.toFixed(1)} s, ${m.completed} completed; load ${loadavg()[0].toFixed(2)}`,
      );
    }
  }
}

const f = (v: number, digits = 0) => (Number.isFinite(v) ? v.toFixed(digits) : '—');
console.log(
  `\nSandbox cost per call: N calls placed at once on a fresh service, SVC_SANDBOX_TIME_SCALE=${scale}; ${rounds} rounds, Node ${process.version}, load average ${median(loads).toFixed(2)} (median at each level's start; 2 cores, shared) — medians of the rounds\n`,
);
console.log('| N | sandbox | call length (s) | completed | CPU ms a call | CPU ms a call-minute | idle RSS (MB) | RSS with all live, above idle (MB) | RSS a live call (MB) | CPU ratio to text |');
console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---|');
for (const n of levels) {
  for (const { name } of TARGETS) {
    const ms = runs.get(key(name, n)) ?? [];
    const base = runs.get(key('text sandbox', n)) ?? [];
    const cpu = median(ms.map((m) => m.cpuMsPerCall));
    const growth = median(ms.map((m) => m.rssGrowthMb));
    console.log(
      `| ${n} | ${name} | ${f(median(ms.map((m) => m.callSec)), 1)} | ${ms.reduce((a, m) => a + m.completed, 0)} of ${n * ms.length} | ${f(cpu)} | ${f(median(ms.map((m) => m.cpuMsPerCallMinute)))} | ${f(median(ms.map((m) => m.idleRssMb)))} | ${f(growth, 1)} | ${f(growth / n, 2)} | ${name === 'text sandbox' ? 'baseline' : f(cpu / median(base.map((m) => m.cpuMsPerCall)), 1)} |`,
    );
  }
}
