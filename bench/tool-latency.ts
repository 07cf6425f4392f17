// How much of a client tool's round trip is svc's own: the time from the model's function call to its output
// reaching the model, N calls at once, beside a bare HTTPS POST of the same body to the same tool server measured
// in the same run. Three processes, as on a real line: svc (bench/support/tool-agent.ts: N sessions of the
// realtime agent as main.ts builds it, on a store made here, SQLite unless told, each joined to a line that plays
// at once); the client's tool server (bench/support/tool-server.ts: test/support/fake-tool-server.ts over https
// with a self-signed certificate made here with openssl, answering at once); and this one, the model
// (test/support/fake-realtime.ts), whose `call` step calls the client's tool and times its output from the moment
// it sent the call. The loopback address needs SVC_WEBHOOK_ALLOW_PRIVATE's rule, which svc's process is given.
//   - bare: N `https.request` POSTs at once of the body svc sends, from the agent's process over a kept-alive
//     agent, each timed to its answer's JSON parsed;
//   - svc: each session's tool call at once (the model's function call over the socket, then svc: the key's
//     signing secrets, the body signed, the SSRF guard, the POST over a kept-alive agent, the answer read and
//     parsed, the function_call_output sent back, the use's write to the call's record after the burst), timed by
//     the model.
// svc's own share is svc's less the bare POST's, at p50 and at p99, each round; both sockets' transit is in it. A
// warm-up round opens the connections first (TLS handshakes are the tool's cost, not a round trip's). Medians of
// the rounds. Beside the times, the CPU time svc's process spends per call in each kind of round (from the round's
// start to its last answer, the callee's turn and the model's answer included in svc's): on a busy machine the
// times swing with the load, and svc's p99 is about a hundred times its own work per call, which this shows.
//   npx tsx bench/tool-latency.ts [rounds=7] [calls=100] [store=sqlite|postgres]
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addNumber, createAccount, createKey } from '../server/src/accounts/accounts-repo.js';
import { openStore } from '../server/src/store/open-store.js';
import { NOT_STARTED } from '../server/src/store/calls-repo.js';
import { migrate, type Store } from '../server/src/store/store.js';
import { FakeRealtime, type RealtimeStep } from '../test/support/fake-realtime.js';
import { PG_URL } from '../test/support/stores.js';
import { median, percentile } from './support/harness.js';
import type { AgentCommand } from './support/tool-agent.js';

const rounds = Number(process.argv[2] ?? 7);
const N = Number(process.argv[3] ?? 100);
const storeKind = (process.argv[4] ?? 'sqlite') as 'sqlite' | 'postgres';
const GOAL_SHARE_P99_MS = 20;
const ANSWER = { inStock: true, count: 3 };
const ARGS = { sku: 'kettle-blue' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const AGENT = fileURLToPath(new URL('./support/tool-agent.ts', import.meta.url));
const TOOL_SERVER = fileURLToPath(new URL('./support/tool-server.ts', import.meta.url));

async function until(what: string, test: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** A self-signed certificate for 127.0.0.1, made with openssl in a temporary folder. */
function selfSigned(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tool-bench-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      {
        stdio: 'ignore',
      },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The bench's store, migrated, and how the agent's process opens it. */
async function openBenchStore(): Promise<{ store: Store; target: AgentStart['store']; close(): Promise<void> }> {
  if (storeKind === 'postgres') {
    const schema = `bench_tools_${randomBytes(4).toString('hex')}`;
    const admin = openStore({ postgresUrl: PG_URL, poolSize: 1 });
    await admin.db.schema.createSchema(schema).execute();
    await admin.close();
    const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
    const store = openStore({ postgresUrl: url, poolSize: 10 });
    await migrate(store);
    return {
      store,
      target: { postgresUrl: url },
      async close() {
        await store.close();
        const drop = openStore({ postgresUrl: PG_URL, poolSize: 1 });
        await drop.db.schema.dropSchema(schema).cascade().execute();
        await drop.close();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'svc-tool-bench-db-'));
  const store = openStore({ sqlitePath: join(dir, 'svc.db') });
  await migrate(store);
  return {
    store,
    target: { sqlitePath: join(dir, 'svc.db') },
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type AgentStart = Extract<AgentCommand, { type: 'start' }>;

interface RoundFigures {
  bareP50: number;
  bareP99: number;
  svcP50: number;
  svcP99: number;
  bareCpu: number;
  svcCpu: number;
}

async function main(): Promise<void> {
  const tls = selfSigned();
  const toolServer = spawn(process.execPath, ['--import', 'tsx', TOOL_SERVER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const toolsUrl = await new Promise<string>((resolve, reject) => {
    toolServer.on('message', (m: { type: string; url?: string }) => {
      if (m.type === 'up') toolServer.send({ key: tls.key, cert: tls.cert, answer: ANSWER });
      if (m.type === 'listening') resolve(m.url!);
    });
    toolServer.once('exit', (code) => reject(new Error(`the tool server exited with ${code}`)));
  });
  const { store, target: storeTarget, close } = await openBenchStore();
  const db = store.db;
  const now = Date.now();
  const accountId = await createAccount(db, { name: 'bench', planMinutes: 100_000, defaultCallerId: '+14155550100' }, now);
  await addNumber(db, accountId, '+14155550100', now);
  const { row: key } = await createKey(db, { accountId, name: 'bench', rateLimit: 100_000 }, now);
  const url = `${toolsUrl}/stock`;
  const toolsJson = JSON.stringify([
    { name: 'check_stock', description: 'Checks whether a product is in stock.', parameters: { type: 'object', properties: { sku: { type: 'string' } } }, url, timeoutMs: 5000 },
  ]);
  const ids: string[] = [];
  for (let i = 0; i < N; i++) {
    const id = crypto.randomUUID();
    ids.push(id);
    await db
      .insertInto('calls')
      .values({
        id,
        status: 'in_progress',
        ...NOT_STARTED,
        updated_at: now,
        next_run_at: null,
        account_id: accountId,
        api_key_id: key.id,
        to_number: '+14155550123',
        objective: 'Ask whether the blue kettle is in stock.',
        context: null,
        fields_json: null,
        webhook_url: null,
        caller_id: '+14155550100',
        voice: 'alloy',
        language: 'en-US',
        language_source: 'explicit',
        metadata_json: JSON.stringify({ order: `A-${i}` }),
        voicemail_message: null,
        scheduled_at: null,
        redial_json: null,
        previous_call_id: null,
        calling_window_json: null,
        batch_id: null,
        machine_detection: null,
        created_at: now,
        on_behalf_of: null,
        recording_notice: 1,
        tools_json: toolsJson,
      })
      .execute();
  }

  // Each round: the callee says something, the model calls the tool, and answers once it has the output.
  const script: RealtimeStep[] = [];
  for (let r = 0; r <= rounds; r++) script.push({ callee: 'Is it in stock?', afterBytes: 160 }, { call: 'check_stock', arguments: ARGS }, { agent: 'Yes.', audioBytes: 160 });
  // The model takes 200 ms to answer the callee with its call, as a model's inference does: the callee's turn is
  // written before the calls come, so a round's burst is the tools' own.
  const realtime = await FakeRealtime.start({ script, rateLimits: false, firstAudioDelayMs: 200 });
  const child = spawn(process.execPath, [...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []), '--import', 'tsx', AGENT], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const replies: Array<{ type: string; times?: number[]; micros?: number }> = [];
  child.on('message', (m: { type: string; times?: number[]; micros?: number }) => replies.push(m));
  const ask = async (command: AgentCommand, answer: string) => {
    const from = replies.length;
    child.send(command);
    await until(`the agent's ${answer}`, () => replies.slice(from).some((m) => m.type === answer), 120_000);
    return replies.slice(from).find((m) => m.type === answer)!;
  };
  await until('the agent process', () => replies.some((m) => m.type === 'up'), 60_000);
  await ask({ type: 'start', store: storeTarget, ids, realtimeUrl: realtime.url, ca: tls.cert }, 'ready');
  await until('every session confirmed', () => realtime.connections.length === N && realtime.connections.every((c) => c.sent.some((e) => e.type === 'session.updated')));
  await sleep(500);

  const body = JSON.stringify({ event: 'tool.call', callId: ids[0], tool: 'check_stock', arguments: ARGS, metadata: { order: 'A-0' } });
  const cpu = async () => (await ask({ type: 'cpu' }, 'cpu')).micros!;
  /** The CPU time svc's process spent on the last round of each kind, in ms per call. */
  const cpuPerCall = { bare: 0, svc: 0 };
  const bareRound = async () => {
    const from = await cpu();
    const times = (await ask({ type: 'bare', url, body, n: N }, 'bare')).times!;
    cpuPerCall.bare = ((await cpu()) - from) / 1000 / N;
    return times;
  };
  const svcRound = async (r: number) => {
    const from = await cpu();
    await ask({ type: 'hear' }, 'heard');
    await until(`round ${r}'s outputs`, () => realtime.connections.every((c) => c.functionCalls[r]?.afterMs != null));
    // The model's answer to the output is played before the next round's callee speaks.
    await until(`round ${r}'s answers`, () => realtime.connections.every((c) => c.sent.filter((e) => e.type === 'response.done').length >= 2 * (r + 1)));
    cpuPerCall.svc = ((await cpu()) - from) / 1000 / N;
    return realtime.connections.map((c) => c.functionCalls[r]!.afterMs!);
  };

  // Warm-up: the connections (and their TLS handshakes) for both, and the store's statements.
  await bareRound();
  await svcRound(0);
  const figures: RoundFigures[] = [];
  for (let r = 1; r <= rounds; r++) {
    await sleep(200);
    // Alternate which goes first, so neither always meets the other's leftovers.
    let bare: number[];
    let svc: number[];
    if (r % 2) {
      bare = await bareRound();
      await sleep(100);
      svc = await svcRound(r);
    } else {
      svc = await svcRound(r);
      await sleep(100);
      bare = await bareRound();
    }
    figures.push({ bareP50: percentile(bare, 50), bareP99: percentile(bare, 99), svcP50: percentile(svc, 50), svcP99: percentile(svc, 99), bareCpu: cpuPerCall.bare, svcCpu: cpuPerCall.svc });
  }
  await ask({ type: 'stop' }, 'stopped');
  const rows = await db.selectFrom('calls').select('tool_calls_json').execute();
  const recorded = rows.reduce((n, r) => n + (r.tool_calls_json ? (JSON.parse(r.tool_calls_json) as unknown[]).length : 0), 0);

  const m = (f: (x: RoundFigures) => number) => median(figures.map(f));
  const bareP50 = m((x) => x.bareP50);
  const bareP99 = m((x) => x.bareP99);
  const svcP50 = m((x) => x.svcP50);
  const svcP99 = m((x) => x.svcP99);
  const shareP50 = m((x) => x.svcP50 - x.bareP50);
  const shareP99 = m((x) => x.svcP99 - x.bareP99);
  const f1 = (x: number) => x.toFixed(1);
  const f2 = (x: number) => x.toFixed(2);
  console.log(
    `\nClient tool round trip: ${N} calls at once, a loopback https tool server answering at once, ${rounds} rounds (after a warm-up), store ${storeKind}, Node ${process.version}, load average ${f1(loadavg()[0]!)} — medians of the rounds, ms`,
  );
  console.log("\n| path | p50 | p99 | svc's own share p50 / p99 | p99 ratio to bare | CPU per call (ms) | runs (p99) |");
  console.log('|---|---:|---:|---:|---:|---:|---|');
  console.log(`| bare HTTPS POST of the same body | ${f1(bareP50)} | ${f1(bareP99)} | — | baseline | ${f2(m((x) => x.bareCpu))} | ${figures.map((x) => f1(x.bareP99)).join(', ')} |`);
  console.log(
    `| svc: model's call → output at the model | ${f1(svcP50)} | ${f1(svcP99)} | ${f1(shareP50)} / ${f1(shareP99)} | ${(svcP99 / bareP99).toFixed(2)} | ${f2(m((x) => x.svcCpu))} | ${figures.map((x) => f1(x.svcP99)).join(', ')} |`,
  );
  console.log(`\nUses recorded on the calls: ${recorded} of ${N * (rounds + 1)}. Goal: svc's own share p99 ≤ ${GOAL_SHARE_P99_MS} ms: ${shareP99 <= GOAL_SHARE_P99_MS ? 'met' : 'NOT met'}.`);

  await realtime.close();
  toolServer.send({ type: 'stop' });
  await new Promise((resolve) => toolServer.once('exit', resolve));
  await close();
}

await main();
