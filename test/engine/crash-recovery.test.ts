// A real worker process (server/src/main.ts with SVC_ROLE=worker) is SIGKILLed while calls are queued, mid-dial,
// ringing and talking; after each restart the engine picks up where the store says, and in the end every call is
// terminal and none was dialled twice — the sandbox's dial ledger, kept by the simulated network, is the witness.
// Calls canceled while the only worker lies killed are ended by the next one.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addNumber, createAccount, createKey } from '../../server/src/accounts/accounts-repo.js';
import { cancelUnit } from '../../server/src/placement/cancel.js';
import { TERMINAL } from '../../server/src/calls/call-status.js';
import type { CallStatus } from '../../server/src/generated/types.gen.js';
import { migrate, type Store } from '../../server/src/store/store.js';
import { openStore } from '../../server/src/store/open-store.js';
import { insertTestCall } from '../support/calls.js';
import { serviceArgs } from '../support/service-entry.js';

describe('the engine after a worker is killed', function () {
  this.timeout(90_000);
  let dir: string;
  let store: Store;
  let worker: ChildProcess | null = null;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
    store = openStore({ sqlitePath: join(dir, 'svc.db') });
    await migrate(store);
  });
  after(async () => {
    worker?.kill('SIGKILL');
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function startWorker(): Promise<void> {
    worker = spawn(process.execPath, serviceArgs(), {
      env: {
        ...process.env,
        SVC_ROLE: 'worker',
        SVC_DATA_DIR: dir,
        SVC_SANDBOX_TIME_SCALE: '0.05',
        SVC_SANDBOX_DIAL_LATENCY_MS: '250',
        SVC_ENGINE_LEASE_MS: '400',
        SVC_ENGINE_POLL_MS: '20',
        SVC_ENGINE_CONCURRENCY: '1',
        SVC_WEBHOOK_ALLOW_PRIVATE: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const proc = worker;
    return new Promise((resolve, reject) => {
      let out = '';
      proc.stdout!.on('data', (chunk) => {
        out += chunk;
        if (out.includes('call engine and webhook dispatcher running')) resolve();
      });
      proc.stderr!.on('data', (chunk) => (out += chunk));
      proc.once('exit', (code) => reject(new Error(`worker exited with ${code} before it was ready:\n${out}`)));
    });
  }

  afterEach(() => killWhen('the test to end', async () => true));

  async function killWhen(what: string, condition: () => Promise<boolean>): Promise<void> {
    if (!worker) return;
    const deadline = Date.now() + 20_000;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    const proc = worker!;
    worker = null;
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
  }

  const count = async (where: (q: any) => any) => Number((await where(store.db.selectFrom('calls').select((eb) => eb.fn.countAll().as('n'))).executeTakeFirstOrThrow()).n);

  it('brings every call to a terminal status without dialling any twice', async () => {
    const now = Date.now();
    const accountId = await createAccount(store.db, { name: 'crash', planMinutes: 1000, defaultCallerId: '+14155550100' }, now);
    await addNumber(store.db, accountId, '+14155550100', now);
    const { row: key } = await createKey(store.db, { accountId, name: 'crash' }, now);
    const tenant = { accountId, keyId: key.id, callerId: '+14155550100' };
    const numbers = ['+14155550123', '+14155550111', '+14155550116', '+14155550112', '+14155550131', '+14155550113', '+14155550142', '+14155550123'];
    const ids: string[] = [];
    for (const [i, to] of numbers.entries()) {
      const call = await insertTestCall(store, tenant as any, {
        to_number: to,
        status: 'queued',
        created_at: now + i,
        next_run_at: now + i,
        fields_json: JSON.stringify([{ name: 'open_sunday', type: 'boolean' }]),
        webhook_url: 'http://127.0.0.1:9/hooks',
        summary: null,
        transcript: null,
        extracted_json: null,
        started_at: null,
        ended_at: null,
        duration_sec: null,
        billed_minutes: null,
      });
      ids.push(call.id);
    }

    // Killed while every call is still queued: nothing was dialled, nothing is lost.
    await startWorker();
    await killWhen('the worker to be up', async () => true);

    await startWorker();
    await killWhen(
      'a dial in flight (attempt recorded, no carrier reference yet)',
      async () => (await count((q) => q.where('dial_attempted_at', 'is not', null).where('carrier_ref', 'is', null).where('status', '=', 'dialing'))) > 0,
    );
    await startWorker();
    await killWhen('a call ringing', async () => (await count((q) => q.where('status', '=', 'dialing').where('carrier_ref', 'is not', null))) > 0);
    await startWorker();
    await killWhen('a call in progress', async () => (await count((q) => q.where('status', '=', 'in_progress'))) > 0);

    await startWorker();
    const deadline = Date.now() + 60_000;
    while ((await count((q) => q.where('status', 'not in', [...TERMINAL]))) > 0) {
      if (Date.now() > deadline) throw new Error('calls did not all end');
      await new Promise((r) => setTimeout(r, 50));
    }

    const rows = await store.db.selectFrom('calls').select(['id', 'status', 'error', 'next_run_at', 'lease_owner']).execute();
    const dials = await store.db.selectFrom('sandbox_dials').select('call_id').execute();
    const dialsOf = (id: string) => dials.filter((d) => d.call_id === id).length;
    for (const r of rows) {
      expect(TERMINAL.has(r.status as CallStatus), `${r.id} is ${r.status}`).to.equal(true);
      expect(r.next_run_at).to.equal(null);
      expect(dialsOf(r.id), `dials of ${r.id}`).to.be.at.most(1);
      if (r.error !== 'engine_interrupted') expect(dialsOf(r.id), `dials of ${r.id} (${r.status})`).to.equal(1);
    }
    const interrupted = rows.filter((r) => r.error === 'engine_interrupted');
    expect(interrupted.length, 'the call killed mid-dial ends engine_interrupted').to.be.at.least(1);
    const events = await store.db.selectFrom('webhook_events').select(['call_id', 'event']).execute();
    for (const r of rows) {
      const terminal = events.filter((e) => e.call_id === r.id && e.event !== 'call.in_progress');
      expect(
        terminal.map((e) => e.event),
        `terminal events of ${r.id}`,
      ).to.deep.equal([`call.${r.status}`]);
    }
    expect(rows.filter((r) => r.status === 'completed').length, 'ordinary numbers still complete').to.be.at.least(2);
    expect(ids).to.have.length(numbers.length);
  });

  it('ends calls canceled while their worker lay killed: the ringing one canceled, the live one completed, each dialled once', async () => {
    const now = Date.now();
    const accountId = await createAccount(store.db, { name: 'cancel-crash', planMinutes: 1000, defaultCallerId: '+14155550100' }, now);
    await addNumber(store.db, accountId, '+14155550100', now);
    const { row: key } = await createKey(store.db, { accountId, name: 'cancel-crash' }, now);
    const tenant = { accountId, keyId: key.id, callerId: '+14155550100' };
    const queued = (to: string, i: number) =>
      insertTestCall(store, tenant as any, {
        to_number: to,
        status: 'queued',
        created_at: now + i,
        next_run_at: now + i,
        fields_json: null,
        webhook_url: 'http://127.0.0.1:9/hooks',
        summary: null,
        transcript: null,
        extracted_json: null,
        started_at: null,
        ended_at: null,
        duration_sec: null,
        billed_minutes: null,
      });
    const ringing = (await queued('+14155550111', 0)).id; // rings 30 s of call time before nobody answers
    const live = (await queued('+14155550115', 1)).id; // answered, then talks past the maximum duration
    const statusOf = async (id: string) => await store.db.selectFrom('calls').select(['status', 'carrier_ref']).where('id', '=', id).executeTakeFirstOrThrow();

    await startWorker();
    await killWhen('one call ringing and one live', async () => {
      const [r, l] = [await statusOf(ringing), await statusOf(live)];
      return r.status === 'dialing' && r.carrier_ref !== null && l.status === 'in_progress';
    });
    // The API's own unit of work, with no worker alive to act on it.
    const cancel = (callId: string) => store.write(cancelUnit({ apiKeyId: key.id, callId, idemKey: null, now: Date.now(), publicBaseUrl: 'http://localhost', idempotencyTtlMs: 60_000 }));
    for (const id of [ringing, live]) {
      const outcome = await cancel(id);
      expect(outcome.kind === 'answered' && outcome.response.status, id).to.equal(202);
    }

    await startWorker();
    const deadline = Date.now() + 30_000;
    while ((await count((q) => q.where('id', 'in', [ringing, live]).where('status', 'not in', [...TERMINAL]))) > 0) {
      if (Date.now() > deadline) throw new Error('the canceled calls did not end');
      await new Promise((r) => setTimeout(r, 20));
    }
    const rows = await store.db.selectFrom('calls').select(['id', 'status', 'summary', 'billed_minutes', 'cancel_requested_at']).where('id', 'in', [ringing, live]).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(ringing)).to.deep.include({ status: 'canceled', billed_minutes: 0 });
    expect(byId.get(live)!.status).to.equal('completed');
    expect(byId.get(live)!.summary).to.include('The client ended the call early (canceled)');
    const dials = await store.db.selectFrom('sandbox_dials').select(['call_id', 'hung_up_at']).where('call_id', 'in', [ringing, live]).execute();
    expect(dials.map((d) => d.call_id).sort()).to.deep.equal([ringing, live].sort());
    for (const d of dials) expect(d.hung_up_at, `the line of ${d.call_id} was hung up`).to.not.equal(null);
    const events = await store.db.selectFrom('webhook_events').select(['call_id', 'event']).where('call_id', 'in', [ringing, live]).orderBy('created_at').execute();
    expect(events.filter((e) => e.call_id === ringing).map((e) => e.event)).to.deep.equal(['call.canceled']);
    expect(events.filter((e) => e.call_id === live).map((e) => e.event)).to.deep.equal(['call.in_progress', 'call.completed']);
  });
});
