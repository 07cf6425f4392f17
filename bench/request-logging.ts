// The cost of the request logs: getCall throughput and p99 at 50 connections with logging off, beside the same
// service writing its JSON line per request (request id, operation, status, duration; secrets scrubbed) to a
// file, measured in the same run. Request ids, metrics and the scrubbing logger are on in both.
//   npx tsx bench/request-logging.ts [rounds=3] [seconds=5]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, printTable, startTarget, type Row } from './support/harness.js';
import { seedBenchStore } from './support/seed.js';

const rounds = Number(process.argv[2] ?? 3);
const seconds = Number(process.argv[3] ?? 5);
const { dataDir, store, keyId, apiKey } = await seedBenchStore();
const accountId = (await store.db.selectFrom('api_keys').select('account_id').where('id', '=', keyId).executeTakeFirstOrThrow()).account_id;
const probe = crypto.randomUUID();
const now = Date.now();
await store.db
  .insertInto('calls')
  .values({
    id: probe,
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
    started_at: now,
    ended_at: now + 60_000,
    duration_sec: 60,
    billed_minutes: 1,
    error: null,
    created_at: now,
    updated_at: now,
    next_run_at: null,
    lease_owner: null,
    lease_expires_at: null,
    dial_attempted_at: null,
    carrier_ref: null,
    engine_state: null,
  })
  .execute();
await store.close();
const logDir = mkdtempSync(join(tmpdir(), 'svc-bench-logs-'));

const auth = { authorization: `Bearer ${apiKey}` };
const quiet = { name: 'svc getCall, logs off', env: { BENCH_TARGET: 'app', SVC_DATA_DIR: dataDir } };
const logged = { name: 'svc getCall, JSON request logs', env: { BENCH_TARGET: 'app', SVC_DATA_DIR: dataDir, BENCH_LOG_FILE: join(logDir, 'svc.log') } };
const rows: Row[] = [
  { name: quiet.name, samples: [] },
  { name: logged.name, samples: [], baseline: quiet.name },
];
for (let r = 0; r < rounds; r++) {
  for (const [i, t] of [quiet, logged].entries()) {
    const running = await startTarget(t);
    await load(running.url, { path: `/v1/agent/calls/${probe}`, headers: auth, durationSec: 1 }); // warm-up
    rows[i].samples.push(await load(running.url, { path: `/v1/agent/calls/${probe}`, headers: auth, durationSec: seconds }));
    await running.stop();
  }
}
printTable(`Request logs at 50 connections, ${rounds} rounds of ${seconds} s, SQLite, Node ${process.version}`, rows);
rmSync(dataDir, { recursive: true, force: true });
rmSync(logDir, { recursive: true, force: true });
