// The engine and the webhooks under a steady stream of calls: sandbox calls placed at a steady rate
// (default 50 a second for 60 s) with webhooks to a loopback receiver in this process, on SQLite (one process,
// role both) and on Postgres (one api process and two worker processes). Timed, p50 and p99 of each round:
//   - 202 → dialing: from the 202's arrival here to the engine's `dialing` (the status log's `at`; the service
//     runs on this machine's clock), the measure the goal is stated in; below zero where the call was dialled before this
//     process read its answer;
//   - placed → dialing: the same from the call's created_at, the time the placement began (so it counts the
//     placement's own time too);
//   - status → webhook: from each event's status change (the event is written in the transaction that makes it,
//     at its created_at) to its arrival at the receiver;
//   - status → record: from each status change (the status log's `at`) to the first getCall that shows it, on the
//     calls followed by a getCall every 10 ms, two at a time (each placed after the last one followed ended): 200
//     reads a second in every scenario. (Following one call a second would keep about five followed at once, and
//     their 500 reads a second would be ten times the placements and crowd out the load under test.) A status
//     shorter than the poll may be missed and has no figure.
// Baseline, measured in the same run on the same deployment: one call a second for 30 s, the same paths without
// the load. Medians of the rounds.
//   npx tsx bench/engine-latency.ts [rounds=3] [callsPerSecond=50] [seconds=60] [stores=sqlite,postgres]
//   (SVC_TEST_PG_URL: Postgres; SVC_BENCH_CPU_PROF=<dir>: every service process writes a V8 CPU profile there)
import { startService as startRole, type ServiceProcess } from '../test/scale/support/service-process.js';
import { median, percentile } from './support/harness.js';
import { placementBodies } from './support/seed.js';
import { api, hookReceiver, PROFILE_DIR, seed, startService } from './support/service.js';

const rounds = Number(process.argv[2] ?? 3);
const rate = Number(process.argv[3] ?? 50);
const seconds = Number(process.argv[4] ?? 60);
const kinds = (process.argv[5] ?? 'sqlite,postgres').split(',') as Kind[];
const BASELINE = { rate: 1, seconds: 30 };
const POLL_MS = 10;
const FOLLOWED_AT_ONCE = 2;
const TIME_SCALE = '0.1';
const TERMINAL = new Set(['completed', 'no_answer', 'voicemail', 'declined', 'failed', 'canceled']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Path = '202 → dialing' | 'placed → dialing' | 'status → webhook' | 'status → record';
const PATHS: Path[] = ['202 → dialing', 'placed → dialing', 'status → webhook', 'status → record'];
type Kind = 'sqlite' | 'postgres';

/** The deployment: SQLite in one process; Postgres with an api process and two workers. */
async function deploy(kind: Kind, env: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  if (kind === 'sqlite') {
    const svc = await startService(env);
    return { url: svc.url, stop: svc.stop };
  }
  const options = { cpuProfileDir: PROFILE_DIR };
  const procs: ServiceProcess[] = [await startRole('api', env, options), await startRole('worker', env, options), await startRole('worker', env, options)];
  // A profiled process is stopped, not killed, so that it writes its profile.
  return { url: procs[0].url, stop: async () => void (await Promise.all(procs.map((p) => (PROFILE_DIR ? p.stop() : p.kill())))) };
}

async function round(kind: Kind, callsPerSecond: number, duration: number): Promise<Map<Path, number[]>> {
  const seeded = await seed(kind);
  const receiver = await hookReceiver();
  try {
    const svc = await deploy(kind, { SVC_SANDBOX_TIME_SCALE: TIME_SCALE, SVC_WEBHOOK_ALLOW_PRIVATE: '1', ...seeded.env });
    try {
      return await measure(svc.url, seeded, receiver, callsPerSecond, duration);
    } finally {
      // A round that fails leaves no service behind it to load the rounds after it.
      await svc.stop();
    }
  } finally {
    await receiver.close();
    await seeded.drop();
  }
}

async function measure(
  url: string,
  seeded: Awaited<ReturnType<typeof seed>>,
  receiver: Awaited<ReturnType<typeof hookReceiver>>,
  callsPerSecond: number,
  duration: number,
): Promise<Map<Path, number[]>> {
  const { url: webhookUrl, arrivals: hooks } = receiver;
  const seen = new Map<string, number>();
  const follow = async (callId: string) => {
    for (;;) {
      const { json } = await api(url, seeded.apiKey, `/v1/agent/calls/${callId}`);
      const id = `${callId}:${json.status}`;
      if (!seen.has(id)) seen.set(id, Date.now());
      if (TERMINAL.has(json.status)) return;
      await sleep(POLL_MS);
    }
  };

  const bodies = placementBodies(callsPerSecond * duration).map((b) => ({ ...JSON.parse(b), webhookUrl }));
  const answeredAt = new Map<string, number>();
  const followers: Promise<void>[] = [];
  let following = 0;
  const placements: Promise<void>[] = [];
  let failure: Error | undefined;
  const t0 = Date.now();
  for (const [i, body] of bodies.entries()) {
    const due = t0 + (i * 1000) / callsPerSecond;
    if (due > Date.now()) await sleep(due - Date.now());
    placements.push(
      api(url, seeded.apiKey, '/v1/agent/calls', body).then(({ status, json }) => {
        if (status !== 202) {
          failure ??= new Error(`placeCall answered ${status}: ${JSON.stringify(json)}`);
          return;
        }
        answeredAt.set(json.callId, Date.now());
        if (following === FOLLOWED_AT_ONCE) return;
        following++;
        followers.push(follow(json.callId).finally(() => following--));
      }),
    );
  }
  // Every placement is answered before the round fails, so that none is left to reject after its clean-up.
  await Promise.all(placements);
  if (failure) throw failure;
  await Promise.all(followers);

  // Every call ends, and every webhook arrives.
  const reader = seeded.reader();
  const deadline = Date.now() + 120_000;
  for (;;) {
    const live = await reader.db
      .selectFrom('calls')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', 'not in', [...TERMINAL])
      .executeTakeFirstOrThrow();
    const pending = await reader.db
      .selectFrom('webhook_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('state', '=', 'pending')
      .executeTakeFirstOrThrow();
    if (Number(live.n) === 0 && Number(pending.n) === 0) break;
    if (Date.now() > deadline) throw new Error(`${live.n} calls live and ${pending.n} events pending after 120 s`);
    await sleep(200);
  }
  const [created, changes, events] = await Promise.all([
    reader.db.selectFrom('calls').select(['id', 'created_at']).execute(),
    reader.db.selectFrom('call_status_changes').select(['call_id', 'status', 'at']).execute(),
    reader.db.selectFrom('webhook_events').select(['event_id', 'created_at', 'state']).execute(),
  ]);
  await reader.close();

  const placedAt = new Map(created.map((c) => [c.id, Number(c.created_at)]));
  const delivered = events.filter((e) => e.state === 'delivered');
  if (delivered.length !== events.length) throw new Error(`${events.length - delivered.length} events not delivered`);
  const missing = delivered.filter((e) => !hooks.has(e.event_id)).length;
  if (missing) throw new Error(`${missing} webhooks delivered but never seen`);
  return new Map<Path, number[]>([
    ['202 → dialing', changes.filter((c) => c.status === 'dialing').map((c) => Number(c.at) - answeredAt.get(c.call_id)!)],
    ['placed → dialing', changes.filter((c) => c.status === 'dialing').map((c) => Number(c.at) - placedAt.get(c.call_id)!)],
    ['status → webhook', delivered.map((e) => hooks.get(e.event_id)! - Number(e.created_at))],
    ['status → record', changes.filter((c) => seen.has(`${c.call_id}:${c.status}`)).map((c) => seen.get(`${c.call_id}:${c.status}`)! - Number(c.at))],
  ]);
}

const rows: string[] = [];
for (const kind of kinds) {
  const base: Map<Path, number[]>[] = [];
  const load: Map<Path, number[]>[] = [];
  for (let r = 0; r < rounds; r++) {
    base.push(await round(kind, BASELINE.rate, BASELINE.seconds));
    load.push(await round(kind, rate, seconds));
  }
  const stat = (runs: Map<Path, number[]>[], path: Path, p: number) => median(runs.map((m) => percentile(m.get(path)!, p)));
  const deployment = kind === 'sqlite' ? 'SQLite, one process' : 'Postgres, api + 2 workers';
  for (const path of PATHS) {
    const b50 = stat(base, path, 50);
    const b99 = stat(base, path, 99);
    for (const [label, runs] of [
      [`${BASELINE.rate}/s (baseline)`, base],
      [`${rate}/s`, load],
    ] as const) {
      const p50 = stat(runs, path, 50);
      const p99 = stat(runs, path, 99);
      const n = median(runs.map((m) => m.get(path)!.length));
      // A ratio to a baseline at or below zero (a dial before its 202 was read) says nothing.
      const over = (x: number, b: number) => (b > 0 ? (x / b).toFixed(2) : 'n/a');
      const ratio = runs === base ? 'baseline' : `${over(p50, b50)} / ${over(p99, b99)}`;
      const perRound = runs.map((m) => `${Math.round(percentile(m.get(path)!, 50))}/${Math.round(percentile(m.get(path)!, 99))}`).join(', ');
      rows.push(`| ${deployment} | ${path} | ${label} | ${n} | ${Math.round(p50)} | ${Math.round(p99)} | ${ratio} | ${perRound} |`);
    }
  }
}
console.log(
  `\nEngine and webhooks: sandbox calls at ${rate}/s for ${seconds} s (baseline ${BASELINE.rate}/s for ${BASELINE.seconds} s), SVC_SANDBOX_TIME_SCALE=${TIME_SCALE}, ${rounds} rounds, Node ${process.version} (medians of the rounds' p50 and p99)\n`,
);
console.log('| deployment | path | rate | samples per round | p50 ms | p99 ms | ratio to baseline (p50 / p99) | runs (p50/p99 ms) |');
console.log('|---|---|---|---:|---:|---:|---|---|');
for (const row of rows) console.log(row);
