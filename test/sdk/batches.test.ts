// The SDK's batch methods against a running service on both stores: createBatch (with its Idempotency-Key),
// getBatch, listBatches, listCalls by batchId, listBatchRows, cancelBatch, the invalid_batch rejection with its
// errors, and waitForBatch polling until the batch ends while the runner and the engine do their work between polls.
import { expect } from 'chai';
import { pino } from 'pino';
import { SvcApiError, SvcClient } from '../../sdk/src/index.js';
import { BatchRunner } from '../../server/src/batches/batch-runner.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';

const objective = 'Ask whether the shop is open on Sunday.';
const numbers = (n: number) => Array.from({ length: n }, (_, i) => ({ to: `+1415555${2000 + i}` }));

forEachStore('the SDK on batches', (kind) => {
  let srv: EngineServer;
  let runner: BatchRunner;
  let alice: TestTenant;
  let svc: SvcClient;
  beforeEach(async () => {
    srv = await startEngineServer(kind);
    runner = new BatchRunner({ store: srv.deps.store, clock: srv.clock, logger: pino({ level: 'silent' }), leaseMs: 30_000, concurrency: 4, idlePollMs: 1000 });
    alice = await srv.tenant({ rateLimit: 100 });
    // Each sleep between polls moves the clock and lets the runner and the engine do what is due.
    const sleep = async (ms: number) => {
      srv.clock.advance(ms);
      await runner.tick();
      await srv.engine.tick();
    };
    svc = new SvcClient({ apiKey: alice.key, baseUrl: srv.baseUrl, sleep, now: srv.clock.now });
  });
  afterEach(() => srv.close());

  it('creates a batch, waits for it to complete, and lists its calls', async () => {
    const created = await svc.createBatch({ defaults: { objective }, calls: numbers(3), maxConcurrency: 2 });
    expect(created).to.deep.equal({ batchId: created.batchId, status: 'queued', total: 3 });
    const done = await svc.waitForBatch(created.batchId, { intervalMs: 5000, timeoutMs: 3_600_000 });
    expect([done.id, done.status, done.counts.completed]).to.deep.equal([created.batchId, 'completed', 3]);
    expect((await svc.getBatch(created.batchId)).status).to.equal('completed');
    expect((await svc.listBatches()).batches.map((b) => b.id)).to.deep.equal([created.batchId]);
    const calls = await svc.listCalls({ batchId: created.batchId });
    expect(calls.calls.map((c) => c.to).sort()).to.deep.equal(numbers(3).map((c) => c.to));
  });

  it("lists a batch's rows a page at a time, in one state alone, and rejects a bad state with SvcApiError invalid_state", async () => {
    const { batchId } = await svc.createBatch({ defaults: { objective }, calls: numbers(3), maxConcurrency: 1 });
    await runner.tick();
    const first = await svc.listBatchRows(batchId, { limit: 2 });
    expect(first.rows.map((r) => [r.index, r.to, r.state])).to.deep.equal([
      [0, '+14155552000', 'released'],
      [1, '+14155552001', 'waiting'],
    ]);
    expect(first.nextAfter).to.equal(1);
    const [call] = (await svc.listCalls({ batchId })).calls;
    expect(first.rows[0]!.calls).to.deep.equal([{ id: call!.id, status: 'queued' }]);
    expect(await svc.listBatchRows(batchId, { limit: 2, after: first.nextAfter! })).to.deep.equal({
      rows: [{ index: 2, to: '+14155552002', metadata: null, state: 'waiting', reason: null, callId: null, calls: [] }],
      nextAfter: null,
    });
    await svc.cancelBatch(batchId);
    expect((await svc.listBatchRows(batchId, { state: 'canceled' })).rows.map((r) => [r.index, r.reason])).to.deep.equal([
      [1, 'batch_canceled'],
      [2, 'batch_canceled'],
    ]);
    const bad = await svc.listBatchRows(batchId, { state: 'done' as 'waiting' }).catch((e: unknown) => e);
    expect([(bad as SvcApiError).status, (bad as SvcApiError).token]).to.deep.equal([400, 'invalid_state']);
  });

  it('rejects a bad batch with SvcApiError invalid_batch, its errors in the body; cancels one and waits on it', async () => {
    const bad = await svc.createBatch({ defaults: { objective }, calls: [{ to: '+1415' }] }).catch((e: unknown) => e);
    expect(bad).to.be.instanceOf(SvcApiError);
    expect([(bad as SvcApiError).status, (bad as SvcApiError).token]).to.deep.equal([400, 'invalid_batch']);
    expect((bad as SvcApiError).problems).to.equal(null);
    expect((bad as SvcApiError).errors).to.deep.equal([
      { index: 0, error: 'invalid_number', message: '`to` is not a valid US number: +1415 has 3 digits after +1, and numbers there have 10 digits.' },
    ]);
    const { batchId } = await svc.createBatch({ defaults: { objective }, calls: numbers(2) }, { idempotencyKey: 'sdk-batch-1' });
    const again = await svc.createBatch({ defaults: { objective }, calls: numbers(2) }, { idempotencyKey: 'sdk-batch-1' });
    expect(again.batchId).to.equal(batchId);
    const canceled = await svc.cancelBatch(batchId);
    expect([canceled.status, canceled.counts.canceled]).to.deep.equal(['canceled', 2]);
    expect((await svc.waitForBatch(batchId)).status).to.equal('canceled');
  });
});
