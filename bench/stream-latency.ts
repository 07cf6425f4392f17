// How soon a status change reaches a client, on each store: sandbox calls placed at a steady rate into a
// fresh service process (role both, SVC_SANDBOX_TIME_SCALE=0.05, streams read at the default SVC_STREAM_POLL_MS of
// 250 ms), each change timed from its commit (the status log's `at`, the webhook's build time) to its arrival:
//   - on the key's stream (streamEvents, one open for the run) and on each call's own stream (streamCall);
//   - as a webhook at a loopback receiver in this process;
//   - baseline, measured in the same run: a client polling getCall every 250 ms per live call (what a client
//     without streams gets at the streams' own read interval).
// Turns are timed from when they are heard (call_turns.heard_at). p50 and p99 of each round; medians of the rounds.
//   npx tsx bench/stream-latency.ts [rounds=3] [callsPerSecond=10] [seconds=10]   (SVC_TEST_PG_URL: Postgres)
import { SvcClient, type LiveEvent } from '../sdk/src/index.js';
import { median, percentile } from './support/harness.js';
import { placementBodies } from './support/seed.js';
import { hookReceiver, seed, startService } from './support/service.js';

const rounds = Number(process.argv[2] ?? 3);
const rate = Number(process.argv[3] ?? 10);
const seconds = Number(process.argv[4] ?? 10);
const POLL_MS = 250;
const TERMINAL = new Set(['completed', 'no_answer', 'voicemail', 'declined', 'failed', 'canceled']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Path = 'key stream' | 'call stream' | 'webhook' | 'getCall polled every 250 ms' | 'turn heard → key stream';
const PATHS: Path[] = ['getCall polled every 250 ms', 'key stream', 'call stream', 'webhook', 'turn heard → key stream'];

async function round(kind: 'sqlite' | 'postgres'): Promise<Map<Path, number[]>> {
  const seeded = await seed(kind);
  const receiver = await hookReceiver();
  const { url: webhookUrl, arrivals: hooks } = receiver;
  const svc = await startService({ SVC_SANDBOX_TIME_SCALE: '0.05', SVC_WEBHOOK_ALLOW_PRIVATE: '1', ...seeded.env });
  const sdk = new SvcClient({ apiKey: seeded.apiKey, baseUrl: svc.url });
  const keyArrivals = new Map<string, number>();
  const callArrivals = new Map<string, number>();
  const polled = new Map<string, number>();
  const stop = new AbortController();
  const keyStream = (async () => {
    try {
      for await (const e of sdk.streamEvents({ signal: stop.signal })) if (!keyArrivals.has(e.data.id)) keyArrivals.set(e.data.id, Date.now());
    } catch (err) {
      if (!stop.signal.aborted) throw err;
    }
  })();
  await sleep(500);

  const follow = async (callId: string) => {
    const streamed = (async () => {
      for await (const e of sdk.streamCall(callId) as AsyncGenerator<LiveEvent>) callArrivals.set(e.data.id, Date.now());
    })();
    // The baseline: getCall every 250 ms (from a random phase) until the call is terminal.
    await sleep(Math.random() * POLL_MS);
    for (;;) {
      const { status } = await sdk.getCall(callId);
      const id = `${callId}:status:${status}`;
      if (!polled.has(id)) polled.set(id, Date.now());
      if (TERMINAL.has(status)) break;
      await sleep(POLL_MS);
    }
    await streamed;
  };

  const bodies = placementBodies(rate * seconds).map((b) => ({ ...JSON.parse(b), webhookUrl }));
  const followers: Promise<void>[] = [];
  const t0 = Date.now();
  for (const [i, body] of bodies.entries()) {
    const due = t0 + (i * 1000) / rate;
    if (due > Date.now()) await sleep(due - Date.now());
    const { callId } = await sdk.placeCall(body);
    followers.push(follow(callId));
  }
  await Promise.all(followers);

  // Every webhook has arrived (the events are in the store once the calls are terminal).
  const reader = seeded.reader();
  const events = await reader.db.selectFrom('webhook_events').select(['event_id', 'created_at']).execute();
  const deadline = Date.now() + 60_000;
  while (hooks.size < events.length && Date.now() < deadline) await sleep(50);
  await sleep(2 * POLL_MS);
  stop.abort();
  await keyStream;
  const [created, changes, turns] = await Promise.all([
    reader.db.selectFrom('calls').select(['id', 'created_at']).execute(),
    reader.db.selectFrom('call_status_changes').select(['call_id', 'status', 'at']).execute(),
    reader.db.selectFrom('call_turns').select(['call_id', 'seq', 'heard_at']).execute(),
  ]);
  await reader.close();
  await svc.stop();
  await receiver.close();
  await seeded.drop();

  const statuses = [...created.map((c) => ({ id: `${c.id}:status:queued`, at: Number(c.created_at) })), ...changes.map((c) => ({ id: `${c.call_id}:status:${c.status}`, at: Number(c.at) }))];
  const late = (arrivals: Map<string, number>, xs: { id: string; at: number }[]) => xs.filter((x) => arrivals.has(x.id)).map((x) => arrivals.get(x.id)! - x.at);
  const missing = (arrivals: Map<string, number>, what: string) => {
    const n = statuses.filter((s) => !arrivals.has(s.id)).length;
    if (n > 0) throw new Error(`${n} status changes never arrived on the ${what}`);
  };
  missing(keyArrivals, 'key stream');
  missing(callArrivals, 'call streams');
  if (hooks.size !== events.length) throw new Error(`${events.length - hooks.size} webhooks never arrived`);
  return new Map<Path, number[]>([
    // Polling only sees the statuses a poll lands on; the ones it skipped have no figure.
    ['getCall polled every 250 ms', late(polled, statuses)],
    ['key stream', late(keyArrivals, statuses)],
    ['call stream', late(callArrivals, statuses)],
    ['webhook', events.map((e) => hooks.get(e.event_id)! - Number(e.created_at))],
    [
      'turn heard → key stream',
      late(
        keyArrivals,
        turns.map((t) => ({ id: `${t.call_id}:turn:${t.seq}`, at: Number(t.heard_at) })),
      ),
    ],
  ]);
}

const rows: string[] = [];
for (const kind of ['sqlite', 'postgres'] as const) {
  const runs: Map<Path, number[]>[] = [];
  for (let r = 0; r < rounds; r++) runs.push(await round(kind));
  const stat = (path: Path, p: number) => median(runs.map((m) => percentile(m.get(path)!, p)));
  const base50 = stat('getCall polled every 250 ms', 50);
  const base99 = stat('getCall polled every 250 ms', 99);
  for (const path of PATHS) {
    const p50 = stat(path, 50);
    const p99 = stat(path, 99);
    const n = median(runs.map((m) => m.get(path)!.length));
    const ratio = path === 'getCall polled every 250 ms' ? 'baseline' : `${(p50 / base50).toFixed(2)} / ${(p99 / base99).toFixed(2)}`;
    const perRound = runs.map((m) => `${Math.round(percentile(m.get(path)!, 50))}/${Math.round(percentile(m.get(path)!, 99))}`).join(', ');
    rows.push(`| ${kind} | ${path} | ${n} | ${Math.round(p50)} | ${Math.round(p99)} | ${ratio} | ${perRound} |`);
  }
}
console.log(`\nStatus change to client, ${rate} sandbox calls a second for ${seconds} s, ${rounds} rounds each, Node ${process.version} (medians of the rounds' p50 and p99)\n`);
console.log('| store | path | events per round | p50 ms | p99 ms | ratio to polling (p50 / p99) | runs (p50/p99 ms) |');
console.log('|---|---|---:|---:|---:|---|---|');
for (const row of rows) console.log(row);
