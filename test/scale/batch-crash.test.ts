// A worker SIGKILLed mid-batch, on each store: one api process and two worker processes of the real service run a
// batch of sandbox calls at maxConcurrency 4; once a third of them have ended, one worker is SIGKILLed and not
// restarted, so the other takes the batch and the calls it held over when their leases expire.
// In the end the batch is completed, every one of its calls exists once and is terminal, none was dialled twice
// (the sandbox's dial ledger is the witness), and the live count sampled throughout never passed maxConcurrency.
// A call the killed worker was dialling (its attempt committed, no carrier reference yet) ends failed
// engine_interrupted, dialled once or, if the kill fell between the attempt and the carrier's dial, not at all; every
// other call is dialled exactly once.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addNumber, createAccount, createKey } from '../../server/src/accounts/accounts-repo.js';
import { migrate, type Store } from '../../server/src/store/store.js';
import { openStore } from '../../server/src/store/open-store.js';
import { emptySchema, requirePostgres, type EmptySchema } from './support/pg-schema.js';
import { startService, type ServiceProcess } from './support/service-process.js';

const CALLS = 45;
const MAX_CONCURRENCY = 4;
const TERMINAL = ['completed', 'no_answer', 'voicemail', 'declined', 'failed', 'canceled'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`a worker SIGKILLed mid-batch [${kind}]`, function () {
    this.timeout(180_000);
    let schema: EmptySchema | undefined;
    let dataDir: string;
    let store: Store;
    let processes: ServiceProcess[] = [];

    before(async function () {
      if (kind === 'postgres') {
        await requirePostgres(this);
        schema = await emptySchema();
      }
      dataDir = mkdtempSync(join(tmpdir(), 'svc-batch-crash-'));
      store = schema ? openStore({ postgresUrl: schema.url, poolSize: 2 }) : openStore({ sqlitePath: join(dataDir, 'svc.db') });
      await migrate(store);
    });
    after(async () => {
      await Promise.all(processes.map((p) => p.kill()));
      await store?.close();
      await schema?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('completes the batch with every call once, none dialled twice, never more than maxConcurrency live', async () => {
      const env: Record<string, string> = {
        NODE_ENV: 'production',
        SVC_DATA_DIR: dataDir,
        ...(schema ? { DATABASE_URL: schema.url } : {}),
        SVC_SANDBOX_TIME_SCALE: '0.002',
        SVC_ENGINE_LEASE_MS: '6000',
        SVC_ENGINE_POLL_MS: '50',
      };
      const now = Date.now();
      const accountId = await createAccount(store.db, { name: 'crash', planMinutes: 1_000_000, defaultCallerId: '+14155550100' }, now);
      await addNumber(store.db, accountId, '+14155550100', now);
      const { key } = await createKey(store.db, { accountId, name: 'crash', rateLimit: 1000 }, now);
      processes = [await startService('api', env), await startService('worker', env), await startService('worker', env)];
      const [api, ...workers] = processes;

      const calls = Array.from({ length: CALLS }, (_, i) => ({ to: `+1415555${3000 + i}` }));
      const res = await fetch(`${api.url}/v1/agent/batches`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ defaults: { objective: 'Ask whether the shop is open on Sunday.', language: 'en-US' }, calls, maxConcurrency: MAX_CONCURRENCY }),
      });
      expect(res.status).to.equal(202);
      const { batchId } = await res.json();

      const live = async () =>
        Number(
          (
            await store.db
              .selectFrom('calls')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('batch_id', '=', batchId)
              .where('status', 'in', ['queued', 'dialing', 'in_progress'])
              .executeTakeFirst()
          )?.n ?? 0,
        );
      const ended = async () =>
        Number(
          (
            await store.db
              .selectFrom('calls')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('batch_id', '=', batchId)
              .where('status', 'in', TERMINAL)
              .executeTakeFirst()
          )?.n ?? 0,
        );
      const samples: number[] = [];
      const deadline = Date.now() + 150_000;
      let killed: string | null = null;
      let heldAtKill: { id: string; status: string; carrier_ref: string | null }[] = [];
      for (;;) {
        samples.push(await live());
        const batch = await store.db.selectFrom('batches').select(['status']).where('id', '=', batchId).executeTakeFirstOrThrow();
        if (batch.status === 'completed') break;
        if (killed === null && (await ended()) >= CALLS / 3) {
          // Its leases (on the calls it is stepping; on the batch, should it be mid-step) are left to expire.
          const victimOwner = /"worker":"(worker-[^"]+)"/.exec(workers[0].output())![1];
          await workers[0].kill();
          // Dead, it can no longer change its leases: these are the calls it held.
          heldAtKill = await store.db.selectFrom('calls').select(['id', 'status', 'carrier_ref']).where('batch_id', '=', batchId).where('lease_owner', '=', victimOwner).execute();
          killed = `${heldAtKill.length} calls leased`;
        }
        if (Date.now() > deadline) throw new Error(`the batch did not complete: ${JSON.stringify(batch)}, ${await ended()} ended`);
        await sleep(25);
      }
      expect(killed).to.not.equal(null);
      expect(Math.max(...samples)).to.be.at.most(MAX_CONCURRENCY);
      const rows = await store.db.selectFrom('calls').select(['id', 'to_number', 'status', 'error']).where('batch_id', '=', batchId).execute();
      expect(rows.map((r) => r.to_number).sort()).to.deep.equal(calls.map((c) => c.to).sort());
      for (const r of rows) expect(TERMINAL, `${r.id} ${r.status}`).to.include(r.status);
      const dials = await store.db
        .selectFrom('sandbox_dials')
        .select(['call_id', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('call_id')
        .execute();
      expect(dials.filter((d) => Number(d.n) > 1)).to.deep.equal([]);
      // Every call that did not end undialled was dialled exactly once, but for those the kill interrupted mid-dial.
      const dialled = new Set(dials.map((d) => d.call_id));
      const midDialAtKill = new Set(heldAtKill.filter((c) => c.carrier_ref === null && (c.status === 'dialing' || c.status === 'queued')).map((c) => c.id));
      const interrupted = rows.filter((r) => r.error === 'engine_interrupted');
      for (const r of interrupted) expect(midDialAtKill.has(r.id), `${r.id} interrupted, though the killed worker was not dialling it`).to.equal(true);
      expect(interrupted.length).to.be.at.most(MAX_CONCURRENCY);
      for (const r of rows.filter((r) => r.status !== 'canceled' && r.error !== 'engine_interrupted')) expect(dialled.has(r.id), `${r.id} ${r.status} ${r.error}`).to.equal(true);
      const batch = await store.db.selectFrom('batches').select(['released', 'total']).where('id', '=', batchId).executeTakeFirstOrThrow();
      expect([batch.released, batch.total]).to.deep.equal([CALLS, CALLS]);
    });
  });
}
