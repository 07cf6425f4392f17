// Scale-out on one Postgres schema: two api processes and two worker processes of the real service start on an
// empty schema at the same moment; 1,000 sandbox calls are placed through both api processes; one worker is
// SIGKILLed a third of the way through and not restarted, so the other takes its calls over when their leases
// expire. In the end every call is terminal, dialled exactly once (the sandbox's dial ledger is the witness)
// unless the killed worker was mid-dial on it, and every event is delivered at least once to a loopback receiver;
// duplicates are counted and printed. And a key's rate limit holds across both api processes.
import { expect } from 'chai';
import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addNumber, createAccount, createKey } from '../../server/src/accounts/accounts-repo.js';
import { TERMINAL } from '../../server/src/calls/call-status.js';
import type { CallStatus } from '../../server/src/generated/types.gen.js';
import { migrations } from '../../server/src/store/migrations/index.js';
import type { Store } from '../../server/src/store/store.js';
import { openStore } from '../../server/src/store/open-store.js';
import { startReceiver, type Receiver } from '../webhooks/support/receiver.js';
import { emptySchema, requirePostgres, type EmptySchema } from './support/pg-schema.js';
import { startService, type ServiceProcess } from './support/service-process.js';
import { until } from '../support/until.js';

const CALLS = 1000;
const PLACEMENT_CONCURRENCY = 20;
const WORKER_CONCURRENCY = 8;
const KILL_AT_TERMINAL = 300;

/** The sandbox's magic numbers (six calls in twenty) and their outcomes; the other calls go to ordinary numbers, which complete. */
const MAGIC: Record<string, { status: CallStatus; error: string | null }> = {
  '+14155550111': { status: 'no_answer', error: null },
  '+14155550112': { status: 'voicemail', error: null },
  '+14155550113': { status: 'declined', error: null },
  '+14155550114': { status: 'failed', error: 'carrier_unreachable' },
  '+14155550115': { status: 'completed', error: null },
  '+14155550116': { status: 'failed', error: 'call_dropped' },
};
const numberFor = (i: number) => (i % 20 < 6 ? Object.keys(MAGIC)[i % 20] : `+141555501${20 + (i % 80)}`);
// Among the other numbers, 555-0129 (the transfer destination that never answers) rings out as 555-0111 does.
const RINGS_OUT = '+14155550129';
const expectedOutcome = (to: string) => MAGIC[to] ?? (to === RINGS_OUT ? MAGIC['+14155550111'] : { status: 'completed' as CallStatus, error: null });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('scale-out: two api and two worker processes on one Postgres', function () {
  this.timeout(300_000);
  let schema: EmptySchema;
  let receiver: Receiver;
  let dataDir: string;
  let apis: ServiceProcess[] = [];
  let workers: ServiceProcess[] = [];
  let store: Store;
  let bulkKey: string;
  let limitedKey: string;

  before(async function () {
    await requirePostgres(this);
    schema = await emptySchema();
    receiver = await startReceiver();
    dataDir = mkdtempSync(join(tmpdir(), 'svc-scale-'));
    const env = {
      NODE_ENV: 'production', // no dev account: the test seeds its own
      DATABASE_URL: schema.url,
      SVC_DATA_DIR: dataDir,
      SVC_WEBHOOK_ALLOW_PRIVATE: '1',
      SVC_WEBHOOK_TIMEOUT_MS: '2000',
      SVC_WEBHOOK_RETRY_SCHEDULE: '0,1,1,1,1',
      SVC_SANDBOX_TIME_SCALE: '0.002',
      SVC_MAX_CALL_DURATION_SEC: '60',
      // Short, so the killed worker's calls are taken over soon, but well above a live worker's longest stall (its
      // event loop renders recordings): a live worker losing a lease would interrupt a call too. Half this is too
      // close on the 2-core machine, where four services, Postgres and this test share the cores: a live worker's
      // step can outlive its lease there, and its call be taken over.
      SVC_ENGINE_LEASE_MS: '6000',
      SVC_ENGINE_POLL_MS: '50',
      SVC_ENGINE_CONCURRENCY: String(WORKER_CONCURRENCY),
    };
    // All four start (and migrate the empty schema) at the same moment.
    const started = await Promise.allSettled([startService('api', env), startService('api', env), startService('worker', env), startService('worker', env)]);
    const up = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    apis = up.filter((p) => p.role === 'api');
    workers = up.filter((p) => p.role === 'worker');
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;

    store = openStore({ postgresUrl: schema.url, poolSize: 3 });
    const now = Date.now();
    const accountId = await createAccount(store.db, { name: 'scale', planMinutes: 1_000_000_000, defaultCallerId: '+14155550100' }, now);
    await addNumber(store.db, accountId, '+14155550100', now);
    bulkKey = (await createKey(store.db, { accountId, name: 'bulk', rateLimit: 1_000_000_000 }, now)).key;
    limitedKey = (await createKey(store.db, { accountId, name: 'limited', rateLimit: 10 }, now)).key;
  });

  after(async () => {
    await Promise.all([...apis, ...workers].map((p) => p.kill()));
    await store?.close();
    await receiver?.close();
    await schema?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function place(api: ServiceProcess, key: string, body: object): Promise<{ status: number; json: any }> {
    const res = await fetch(`${api.url}/v1/agent/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  }

  it('migrated the schema exactly once though all four processes started on it at the same moment', async () => {
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db);
    expect(applied.rows.map((r) => r.name)).to.deep.equal(Object.keys(migrations).sort());
  });

  it('accepts exactly 10 of 40 concurrent placements with one key limited to 10 a minute, split across both api processes', async () => {
    // Windows are fixed minutes of the clock: start well inside one so the burst cannot straddle two.
    if (Date.now() % 60_000 > 45_000) await sleep(60_000 - (Date.now() % 60_000) + 100);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => place(apis[i % 2], limitedKey, { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday' })));
    const accepted = results.filter((r) => r.status === 202);
    const refused = results.filter((r) => r.status === 429);
    expect(accepted).to.have.length(10);
    expect(refused).to.have.length(30);
    expect(new Set(refused.map((r) => r.json.error))).to.deep.equal(new Set(['rate_limited']));
    expect(new Set(accepted.map((r) => r.json.status))).to.deep.equal(new Set(['queued']));
  });

  it('brings 1,000 calls placed through both api processes to their outcome, each dialled once, every event delivered, though a worker is killed mid-run', async () => {
    const started = Date.now();
    const bulkKeyId = (await store.db.selectFrom('api_keys').select('id').where('name', '=', 'bulk').executeTakeFirstOrThrow()).id;
    const fields = [
      { name: 'open_sunday', type: 'boolean' },
      { name: 'closing_time', description: 'Closing time on Sunday' },
    ];
    const placed: { status: number; callId?: string; to: string }[] = [];
    let next = 0;
    const placing = Promise.all(
      Array.from({ length: PLACEMENT_CONCURRENCY }, async () => {
        for (let i = next++; i < CALLS; i = next++) {
          const to = numberFor(i);
          const r = await place(apis[i % 2], bulkKey, { to, objective: 'Ask whether the shop is open on Sunday', fields, webhookUrl: receiver.url });
          placed.push({ status: r.status, callId: r.json.callId, to });
        }
      }),
    );

    const terminalCount = async () =>
      Number(
        (
          await store.db
            .selectFrom('calls')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('api_key_id', '=', bulkKeyId)
            .where('status', 'in', [...TERMINAL])
            .executeTakeFirstOrThrow()
        ).n,
      );
    await until(`${KILL_AT_TERMINAL} terminal calls`, async () => (await terminalCount()) >= KILL_AT_TERMINAL, 120_000, 50);
    const victim = workers[0];
    const victimOwner = /"worker":"(worker-[^"]+)"/.exec(victim.output())![1];
    await victim.kill();
    // Dead, it can no longer change its leases; they stand until they expire and the other worker takes over.
    const heldAtKill = await store.db.selectFrom('calls').select(['id', 'status', 'carrier_ref']).where('lease_owner', '=', victimOwner).execute();
    const terminalAtKill = await terminalCount();

    await placing;
    expect(
      placed.filter((p) => p.status !== 202),
      'placements refused',
    ).to.deep.equal([]);
    expect(new Set(placed.map((p) => p.callId)).size).to.equal(CALLS);

    await until(
      'every call terminal',
      async () =>
        Number(
          (
            await store.db
              .selectFrom('calls')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('status', 'not in', [...TERMINAL])
              .executeTakeFirstOrThrow()
          ).n,
        ) === 0,
      180_000,
      50,
    );
    const allTerminalAt = Date.now();
    // The killed worker's dispatcher may have claimed events; those are delivered once its outbox leases expire.
    // (The rate-limit test's calls have no webhookUrl: their events are logged in state none, never sent.)
    await until(
      'every event delivered',
      async () =>
        Number(
          (
            await store.db
              .selectFrom('webhook_events')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('state', 'not in', ['delivered', 'none'])
              .executeTakeFirstOrThrow()
          ).n,
        ) === 0,
      120_000,
      50,
    );

    const rows = await store.db.selectFrom('calls').select(['id', 'to_number', 'status', 'error', 'started_at', 'next_run_at', 'lease_owner']).where('api_key_id', '=', bulkKeyId).execute();
    const dials = new Map<string, number>();
    for (const d of await store.db.selectFrom('sandbox_dials').select('call_id').execute()) dials.set(d.call_id, (dials.get(d.call_id) ?? 0) + 1);
    const events = await store.db.selectFrom('webhook_events').select(['event_id', 'call_id', 'event', 'state']).orderBy('created_at').orderBy('event_id').execute();
    const eventsOf = new Map<string, string[]>();
    for (const e of events) eventsOf.set(e.call_id, [...(eventsOf.get(e.call_id) ?? []), e.event]);

    expect(rows).to.have.length(CALLS);
    // Mid-dial, or claimed while queued: a dial attempt the killed worker had sent may commit just after the
    // snapshot above, so a call it held as queued may also end up interrupted.
    const midDialAtKill = new Set(heldAtKill.filter((c) => c.carrier_ref === null && (c.status === 'dialing' || c.status === 'queued')).map((c) => c.id));
    const heldAs = (id: string) => heldAtKill.find((c) => c.id === id)?.status ?? 'not held';
    const interrupted = rows.filter((r) => r.error === 'engine_interrupted');
    for (const r of rows) {
      expect(TERMINAL.has(r.status as CallStatus), `${r.id} is ${r.status}`).to.equal(true);
      expect([r.next_run_at, r.lease_owner], `${r.id} left due or leased`).to.deep.equal([null, null]);
      if (r.error === 'engine_interrupted') {
        const logs = workers
          .map((w) =>
            w
              .output()
              .split('\n')
              .filter((l) => l.includes(r.id))
              .join('\n'),
          )
          .join('\n--\n');
        expect(midDialAtKill.has(r.id), `${r.id} interrupted, though the killed worker was not dialling it (${heldAs(r.id)} at the kill)\n${logs}`).to.equal(true);
        expect(dials.get(r.id) ?? 0, `dials of interrupted ${r.id}`).to.be.at.most(1);
        continue;
      }
      expect(dials.get(r.id) ?? 0, `dials of ${r.id} (${r.to_number}, ${r.status})`).to.equal(1);
      expect({ status: r.status, error: r.error }, `${r.id} to ${r.to_number}`).to.deep.equal(expectedOutcome(r.to_number));
      const answered = r.started_at !== null;
      expect(eventsOf.get(r.id), `events of ${r.id}`).to.deep.equal(answered ? ['call.in_progress', `call.${r.status}`] : [`call.${r.status}`]);
    }
    expect(interrupted.length).to.be.at.most(WORKER_CONCURRENCY);
    for (const r of interrupted) expect(eventsOf.get(r.id)?.at(-1), `terminal event of ${r.id}`).to.equal('call.failed');

    const received = receiver.received.map((q) => JSON.parse(q.body).eventId as string);
    const receivedSet = new Set(received);
    const outboxIds = new Set(events.filter((e) => e.state !== 'none').map((e) => e.event_id));
    expect(
      [...outboxIds].filter((id) => !receivedSet.has(id)),
      'events never delivered',
    ).to.deep.equal([]);
    expect(
      [...receivedSet].filter((id) => !outboxIds.has(id)),
      'deliveries of unknown events',
    ).to.deep.equal([]);
    const seen = new Map<string, number>();
    for (const id of received) seen.set(id, (seen.get(id) ?? 0) + 1);
    const duplicates = [...seen].filter(([, n]) => n > 1);

    const byStatus: Record<string, number> = {};
    for (const r of rows) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
    console.log(
      [
        `      scale-out: ${CALLS} calls through 2 api processes, 2 workers (one SIGKILLed at ${terminalAtKill} terminal, holding ${heldAtKill.length} leases, ${midDialAtKill.size} queued or mid-dial)`,
        `      outcomes ${JSON.stringify(byStatus)}; engine_interrupted ${interrupted.length}; all terminal after ${((allTerminalAt - started) / 1000).toFixed(1)} s, all delivered after ${((Date.now() - started) / 1000).toFixed(1)} s`,
        `      events: ${outboxIds.size} in the outbox, ${received.length} deliveries received, ${duplicates.length} delivered more than once${duplicates.length ? `: ${duplicates.map(([id, n]) => `${id} ×${n}`).join(', ')}` : ''}`,
      ].join('\n'),
    );
  });
});
