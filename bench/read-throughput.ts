// getCall and listCalls throughput and p99 at 50 connections, beside bare Koa answering the same JSON from
// memory, measured in the same run. Target: getCall at least 60% of bare Koa.
//   npx tsx bench/read-throughput.ts [rounds=3] [seconds=5]
import { rmSync } from 'node:fs';
import { findCallForKey, listCallsForKey, toCallRecord, toCallSummary } from '../server/src/store/calls-repo.js';
import { load, printTable, startTarget, type Row } from './support/harness.js';
import { seedBenchStore } from './support/seed.js';

const rounds = Number(process.argv[2] ?? 3);
const seconds = Number(process.argv[3] ?? 5);
const { dataDir, store, keyId, apiKey } = await seedBenchStore();
const accountId = (await store.db.selectFrom('api_keys').select('account_id').where('id', '=', keyId).executeTakeFirstOrThrow()).account_id;
const now = Date.now();
const ids: string[] = [];
for (let i = 0; i < 1000; i++) {
  const id = crypto.randomUUID();
  ids.push(id);
  await store.db
    .insertInto('calls')
    .values({
      id,
      account_id: accountId,
      api_key_id: keyId,
      status: 'completed',
      to_number: '+14155550123',
      objective: 'Ask whether the shop is open on Sunday and until what time',
      context: null,
      fields_json: '[{"name":"open_sunday","type":"boolean"}]',
      webhook_url: null,
      caller_id: '+14155550100',
      voice: 'alloy',
      language: 'en-US',
      language_source: 'inferred',
      summary: 'The shop is open on Sunday until 4 pm.',
      transcript: 'Agent: Hello, is the shop open on Sunday?\nCallee: Yes, until 4 pm.',
      extracted_json: '{"open_sunday":true}',
      recording_path: null,
      started_at: now + i,
      ended_at: now + i + 60_000,
      duration_sec: 60,
      billed_minutes: 1,
      error: null,
      created_at: now + i,
      updated_at: now + i,
      next_run_at: null,
      lease_owner: null,
      lease_expires_at: null,
      dial_attempted_at: null,
      carrier_ref: null,
      engine_state: null,
    })
    .execute();
}
const probe = ids[500];
const baseUrl = 'http://localhost:8080';
const record = toCallRecord((await findCallForKey(store, keyId, probe))!, baseUrl);
const list = { calls: (await listCallsForKey(store, keyId, 20)).map(toCallSummary) };
await store.close();

const auth = { authorization: `Bearer ${apiKey}` };
const bare = { name: 'bare Koa', env: { BENCH_TARGET: 'bare', BENCH_RECORD: JSON.stringify(record), BENCH_LIST: JSON.stringify(list) } };
const app = { name: 'svc', env: { BENCH_TARGET: 'app', SVC_DATA_DIR: dataDir, SVC_PUBLIC_BASE_URL: baseUrl } };

const rows: Record<string, Row> = {
  'bare Koa GET /calls/{id}': { name: 'bare Koa GET /calls/{id}', samples: [] },
  'svc getCall': { name: 'svc getCall', samples: [], baseline: 'bare Koa GET /calls/{id}' },
  'bare Koa GET /calls': { name: 'bare Koa GET /calls', samples: [] },
  'svc listCalls (20)': { name: 'svc listCalls (20)', samples: [], baseline: 'bare Koa GET /calls' },
};
for (let r = 0; r < rounds; r++) {
  for (const t of [bare, app]) {
    const running = await startTarget(t);
    await load(running.url, { path: `/v1/agent/calls/${probe}`, headers: auth, durationSec: 1 }); // warm-up
    const one = await load(running.url, { path: `/v1/agent/calls/${probe}`, headers: auth, durationSec: seconds });
    const many = await load(running.url, { path: '/v1/agent/calls', headers: auth, durationSec: seconds });
    rows[t === bare ? 'bare Koa GET /calls/{id}' : 'svc getCall'].samples.push(one);
    rows[t === bare ? 'bare Koa GET /calls' : 'svc listCalls (20)'].samples.push(many);
    await running.stop();
  }
}
printTable(`Reads at 50 connections, ${rounds} rounds of ${seconds} s, SQLite, Node ${process.version}`, Object.values(rows));
rmSync(dataDir, { recursive: true, force: true });
