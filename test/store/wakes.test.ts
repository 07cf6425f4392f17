// Wakes (store/wakes.ts): a write that makes jobs due wakes the loops of that queue at once, in this process and,
// on Postgres, in the other processes sharing the store when this one runs none of that queue's loops. Each loop here polls once an hour, so a job it runs at
// all was found through a wake.
import { expect } from 'chai';
import { addNumber, createAccount, createKey } from '../../server/src/accounts/accounts-repo.js';
import { createWebhookDispatcher } from '../../server/src/webhooks/dispatcher.js';
import { eventRow } from '../../server/src/webhooks/outbox.js';
import { JobQueue } from '../../server/src/jobs/job-queue.js';
import { openStore } from '../../server/src/store/open-store.js';
import type { CallRow } from '../../server/src/store/calls-repo.js';
import type { Store } from '../../server/src/store/store.js';
import type { WakeTopic } from '../../server/src/store/wakes.js';
import { until } from '../support/until.js';
import { insertTestCall } from '../support/calls.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore, freshStore, type TestStore } from '../support/stores.js';
import { startReceiver, type Receiver } from '../webhooks/support/receiver.js';

const HOUR = 3_600_000;

/** How many times each topic woke the store's listeners. */
function counting(store: Store): Record<WakeTopic, number> {
  const seen: Record<WakeTopic, number> = { calls: 0, webhooks: 0, batches: 0 };
  for (const topic of ['calls', 'webhooks', 'batches'] as const) store.onWake(topic, () => seen[topic]++);
  return seen;
}

forEachStore('wakes', (kind) => {
  let srv: EngineServer | undefined;
  let rx: Receiver | undefined;
  let stores: TestStore[] = [];
  let extra: Store[] = [];
  afterEach(async () => {
    await srv?.engine.stop();
    await srv?.close();
    await rx?.close();
    for (const s of extra) await s.close();
    for (const s of stores) await s.drop();
    srv = rx = undefined;
    stores = [];
    extra = [];
  });

  it("wake the queue's listeners in this process at once, each time, and no other queue's", async () => {
    const ts = await freshStore(kind);
    stores.push(ts);
    const seen = counting(ts.store);
    // Postgres also wakes every topic once its connection first listens: a catch-up for what it may have missed.
    if (kind === 'postgres') await until('listening', () => seen.calls === 1);
    const before = { ...seen };
    ts.store.wake('calls');
    ts.store.wake('calls');
    expect(seen).to.deep.equal({ ...before, calls: before.calls + 2 });
  });

  it('wake the dispatchers when a queue commit inserts an event to send, not one without a URL or no event', async () => {
    const ts = await freshStore(kind);
    stores.push(ts);
    const t = await tenantIn(ts);
    const seen = counting(ts.store);
    if (kind === 'postgres') await until('listening', () => seen.calls === 1);
    const before = { ...seen };
    const queue = new JobQueue<CallRow>(ts.store, { table: 'calls', key: 'id', due: 'next_run_at' }, 'w', HOUR);
    const commitWithEvent = async (webhookUrl: string | null) => {
      await insertTestCall(ts.store, t, { status: 'queued', next_run_at: 0, webhook_url: webhookUrl });
      const [claimed] = await queue.claim(0, 1);
      return queue.commit(claimed, { set: { next_run_at: null, status: 'canceled' }, insert: (row) => ({ into: 'webhook_events', values: eventRow(row, 'call.canceled', 0) }) });
    };
    await insertTestCall(ts.store, t, { status: 'queued', next_run_at: 0 });
    const [plain] = await queue.claim(0, 1);
    await queue.commit(plain, { set: { next_run_at: null } });
    await commitWithEvent(null);
    expect(seen).to.deep.equal(before);
    await commitWithEvent('https://example.com/hooks');
    expect(seen).to.deep.equal({ ...before, webhooks: before.webhooks + 1 });
  });

  it('dial a call placed over the API at once, though the engine polls once an hour', async () => {
    srv = await startEngineServer(kind, {}, { settings: { idlePollMs: HOUR } });
    srv.engine.start();
    const alice = await srv.tenant();
    // The loop's first look found nothing: it sleeps an hour unless woken.
    await until('the loop asleep', () => srv!.clock.pending().join() === String(srv!.clock.now() + HOUR));
    const placed = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' } });
    expect(placed.status).to.equal(202);
    const id = placed.body.callId as string;
    await until('dialled', async () => (await srv!.dials(id)) === 1);
  });

  it('send the event of a call canceled over the API at once, though the dispatcher polls once an hour', async () => {
    srv = await startEngineServer(kind);
    rx = await startReceiver();
    const dispatcher = createWebhookDispatcher({ store: srv.deps.store, clock: srv.clock, config: srv.deps.config, idleMs: HOUR });
    dispatcher.start();
    try {
      const alice = await srv.tenant();
      // The loop's first look found nothing: it sleeps an hour unless woken.
      await until('the loop asleep', () => srv!.clock.pending().join() === String(srv!.clock.now() + HOUR));
      const placed = await alice.api.post('/v1/agent/calls', {
        body: { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.', webhookUrl: rx.url, startAt: new Date(srv.clock.now() + HOUR).toISOString() },
      });
      const id = placed.body.callId as string;
      const canceled = await alice.api.post(`/v1/agent/calls/${id}/cancel`, {});
      expect(canceled.status).to.equal(200);
      await until('delivered', () => rx!.received.length === 1);
      expect(JSON.parse(rx.received[0].body)).to.include({ event: 'call.canceled', callId: id });
    } finally {
      await dispatcher.stop();
    }
  });

  if (kind === 'postgres') {
    it('carry a wake of a process that runs no loop of its queue to the others sharing the store, to no store of another schema', async () => {
      const a = await freshStore(kind);
      const other = await freshStore(kind);
      stores.push(a, other);
      const b = openStore({ postgresUrl: a.url, poolSize: 1 });
      extra.push(b);
      // a runs only a calls loop (an api process runs none); b and the other schema's store run all three.
      const seenA = { calls: 0 };
      a.store.onWake('calls', () => seenA.calls++);
      const seenB = counting(b);
      const seenOther = counting(other.store);
      await until('all listening', () => seenA.calls === 1 && seenB.calls === 1 && seenOther.calls === 1);
      a.store.wake('webhooks');
      await until('woken there', () => seenB.webhooks === 2);
      // a runs a calls loop: its wake of calls stays with it. Notifications reach a session in the order sent, so
      // once a's later wake of batches is in at b, the calls one would have been too.
      a.store.wake('calls');
      expect(seenA.calls).to.equal(2);
      a.store.wake('batches');
      await until("a's wake of batches at b", () => seenB.batches === 2);
      expect(seenB.calls).to.equal(1);
      expect(seenOther).to.deep.equal({ calls: 1, webhooks: 1, batches: 1 });
    });

    it("keep the wakes of a worker's own writes to its own loops: its events and its released calls", async () => {
      const a = await freshStore(kind);
      stores.push(a);
      const b = openStore({ postgresUrl: a.url, poolSize: 1 });
      // c runs no loop: its wakes go out to the others.
      const c = openStore({ postgresUrl: a.url, poolSize: 1 });
      extra.push(b, c);
      const seenA = counting(a.store);
      const seenB = counting(b);
      await until('both listening', () => seenA.calls === 1 && seenB.calls === 1);
      a.store.wake('webhooks');
      a.store.wake('calls');
      expect([seenA.webhooks, seenA.calls]).to.deep.equal([2, 2]);
      c.wake('batches');
      await until("c's wake at b", () => seenB.batches === 2);
      await new Promise((r) => setTimeout(r, 100));
      expect(seenB).to.deep.equal({ calls: 1, webhooks: 1, batches: 2 });
      expect(seenA.batches).to.equal(2);
    });
  }
});

/** An account with a number and a key, written straight to the store. */
async function tenantIn(ts: TestStore): Promise<TestTenant> {
  const db = ts.store.db;
  const accountId = await createAccount(db, { name: 'w', planMinutes: 100 }, 0);
  await addNumber(db, accountId, '+14155550100', 0);
  const { row } = await createKey(db, { accountId, name: 'w' }, 0);
  return { accountId, keyId: row.id, key: '', callerId: '+14155550100', api: undefined as never };
}
