// A batch's own events in the event log (listBatchEvents) and their redelivery (redeliverBatchEvent), end to end:
// batches created over HTTP and run by the batch runner and the engine on the test's clock, their events delivered
// by the dispatcher to a receiver on loopback; every response checked against openapi.yaml. The guards every
// redelivery shares (the request window, one at a time, 10 s apart, the attempts kept) are redelivery-limits.test.ts's,
// for a batch's event as for a call's.
import { expect } from 'chai';
import { pino } from 'pino';
import Stripe from 'stripe';
import { BatchRunner } from '../../server/src/batches/batch-runner.js';
import { createWebhookDispatcher, type WebhookDispatcher } from '../../server/src/webhooks/dispatcher.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';
import { startReceiver, type Receiver } from './support/receiver.js';

const stripe = new Stripe('sk_test_placeholder');
const objective = 'Ask whether the shop is open on Sunday.';

forEachStore('a batch’s events in the event log', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  let rx: Receiver;
  let dispatcher: WebhookDispatcher;
  let runner: BatchRunner;

  beforeEach(async () => {
    srv = await startEngineServer(kind);
    alice = await srv.tenant({ rateLimit: 100 });
    rx = await startReceiver();
    dispatcher = createWebhookDispatcher({ store: srv.deps.store, clock: srv.clock, config: srv.deps.config });
    runner = new BatchRunner({ store: srv.deps.store, clock: srv.clock, logger: pino({ level: 'silent' }), leaseMs: 30_000, concurrency: 4, idlePollMs: 1000 });
  });
  afterEach(async () => {
    await dispatcher.stop();
    await rx.close();
    await srv.close();
  });

  async function created(body: Record<string, unknown>, as = alice): Promise<string> {
    const res = await as.api.post('/v1/agent/batches', { body: { defaults: { objective }, calls: [{ to: '+14155550111' }, { to: '+14155550123' }], ...body } });
    expect(res.status).to.equal(202);
    return res.body.batchId;
  }
  /** Runs the batch and its calls, moving the clock to whatever is due next, until the batch has completed. */
  async function runToEnd(id: string): Promise<void> {
    const db = srv.deps.store.db;
    for (let i = 0; i < 200; i++) {
      if ((await db.selectFrom('batches').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status === 'completed') return;
      if ((await runner.tick()) + (await srv.engine.tick()) > 0) continue;
      const calls = await db
        .selectFrom('calls')
        .select((eb) => eb.fn.min<number>('next_run_at').as('at'))
        .where('next_run_at', 'is not', null)
        .executeTakeFirst();
      const batch = await db.selectFrom('batches').select('next_run_at').where('id', '=', id).executeTakeFirstOrThrow();
      const due = [calls?.at, batch.next_run_at].filter((t) => t !== null && t !== undefined).map(Number);
      srv.clock.ms = Math.max(srv.clock.ms + 1, Math.min(...due));
    }
    throw new Error('the batch did not complete');
  }
  async function log(id: string, as = alice): Promise<any[]> {
    const res = await as.api.get(`/v1/agent/batches/${id}/events`);
    expect(res.status).to.equal(200);
    return res.body.events;
  }
  const redeliver = (id: string, eventId: string, as = alice) => as.api.post(`/v1/agent/batches/${id}/events/${encodeURIComponent(eventId)}/redeliver`);
  const iso = (ms: number) => new Date(ms).toISOString();

  it('lists the batch’s own event once it completes with a webhookUrl: its delivery, its attempts and the payload that was signed', async () => {
    const id = await created({ webhookUrl: rx.url, metadata: { campaign: 'sunday' } });
    expect(await log(id)).to.deep.equal([]);
    await runToEnd(id);
    const ended = (await alice.api.get(`/v1/agent/batches/${id}`)).body;
    let [e, ...others] = await log(id);
    expect(others).to.deep.equal([]);
    expect(e).to.deep.include({ event: 'batch.completed', state: 'pending', timestamp: ended.endedAt, attempts: [], attemptsOmitted: 0, nextAttemptAt: ended.endedAt, deliveredAt: null });
    expect(e.eventId).to.equal(`${id}:batch.completed:${Date.parse(ended.endedAt)}`);
    expect(e.payload).to.deep.include({ event: 'batch.completed', eventId: e.eventId, batchId: id, status: 'completed', total: 2, metadata: { campaign: 'sunday' } });

    expect(await dispatcher.tick()).to.equal(1);
    [e] = await log(id);
    expect(e).to.include({ state: 'delivered', nextAttemptAt: null, deliveredAt: iso(srv.clock.now()), attemptsOmitted: 0 });
    expect(e.attempts.map((a: any) => [a.attempt, a.statusCode, a.error, a.redelivery])).to.deep.equal([[1, 200, null, false]]);
    expect(rx.received.map((r) => r.body)).to.deep.equal([JSON.stringify(e.payload)]);
  });

  it('redelivers the batch’s event: the same body, signed afresh, reaches the receiver, and the log marks the attempt as a redelivery', async () => {
    const id = await created({ webhookUrl: rx.url });
    expect((await alice.api.post(`/v1/agent/batches/${id}/cancel`)).status).to.equal(200);
    expect(await dispatcher.tick()).to.equal(1);
    const [e] = await log(id);
    expect(e).to.include({ event: 'batch.canceled', state: 'delivered' });

    srv.clock.advance(60_000);
    const res = await redeliver(id, e.eventId);
    expect(res.status).to.equal(202);
    expect(res.body).to.deep.include({ eventId: e.eventId, event: 'batch.canceled', state: 'pending', nextAttemptAt: iso(srv.clock.now()), attemptsOmitted: 0 });
    expect(res.headers.get('ratelimit-policy')).to.equal('600;w=60');
    expect(await dispatcher.tick()).to.equal(1);
    expect(rx.received).to.have.length(2);
    const sent = rx.received[1];
    expect(sent.body).to.equal(JSON.stringify(e.payload));
    const header = String(sent.headers['x-svc-signature']);
    const t = Number(/^t=(\d+)/.exec(header)![1]);
    expect(t).to.equal(Math.floor(srv.clock.now() / 1000));
    const secret = (await srv.deps.store.db.selectFrom('api_keys').select('webhook_secret').where('id', '=', alice.keyId).executeTakeFirstOrThrow()).webhook_secret;
    expect((stripe.webhooks.constructEvent(sent.body, header, secret, 300, undefined, t) as unknown as Record<string, unknown>).eventId).to.equal(e.eventId);

    const [after] = await log(id);
    expect(after).to.include({ state: 'delivered', deliveredAt: iso(srv.clock.now()) });
    expect(after.attempts.map((a: any) => [a.attempt, a.statusCode, a.redelivery])).to.deep.equal([
      [1, 200, false],
      [2, 200, true],
    ]);
  });

  it('logs the event of a batch created without a webhookUrl in state none; redelivering it is 400 no_webhook_url', async () => {
    const id = await created({});
    expect((await alice.api.post(`/v1/agent/batches/${id}/cancel`)).status).to.equal(200);
    const [e] = await log(id);
    expect(e).to.deep.include({ event: 'batch.canceled', state: 'none', attempts: [], nextAttemptAt: null });
    const res = await redeliver(id, e.eventId);
    expect([res.status, res.body.error, res.body.message]).to.deep.equal([400, 'no_webhook_url', 'The batch was created without a webhookUrl: its events are logged but never sent.']);
    expect(await dispatcher.tick()).to.equal(0);
    expect(rx.received).to.have.length(0);
  });

  it('is the key’s own: another key’s batch and an unknown one are 404 not_found as getBatch answers them, and so are a call’s event on a batch route and a batch’s on a call route', async () => {
    const bob = await srv.tenant();
    const id = await created({ webhookUrl: rx.url });
    expect((await alice.api.post(`/v1/agent/batches/${id}/cancel`)).status).to.equal(200);
    expect(await dispatcher.tick()).to.equal(1);
    const [e] = await log(id);

    const unknown = '00000000-0000-7000-8000-000000000000';
    for (const [batchId, as] of [
      [id, bob],
      [unknown, alice],
    ] as const) {
      const asGetBatch = (await as.api.get(`/v1/agent/batches/${batchId}`)).body;
      expect(asGetBatch).to.deep.equal({ error: 'not_found', message: `No batch ${batchId} for this API key.` });
      for (const res of [await as.api.get(`/v1/agent/batches/${batchId}/events`), await redeliver(batchId, e.eventId, as)]) {
        expect([res.status, res.body]).to.deep.equal([404, asGetBatch]);
      }
    }

    const placed = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550111', objective, webhookUrl: rx.url } });
    const callId = placed.body.callId;
    await srv.drive(callId);
    const [callEvent] = (await alice.api.get(`/v1/agent/calls/${callId}/events`)).body.events;
    const onBatch = await redeliver(id, callEvent.eventId);
    expect([onBatch.status, onBatch.body.error, onBatch.body.message]).to.deep.equal([404, 'not_found', `Batch ${id} has no event ${callEvent.eventId}.`]);
    const onCall = await alice.api.post(`/v1/agent/calls/${callId}/events/${encodeURIComponent(e.eventId)}/redeliver`);
    expect([onCall.status, onCall.body.error]).to.deep.equal([404, 'not_found']);
    expect((await log(id)).map((x) => [x.eventId, x.attempts.length])).to.deep.equal([[e.eventId, 1]]);

    // Batch ids, as call ids, are found whatever their case.
    expect((await log(id.toUpperCase())).map((x) => x.eventId)).to.deep.equal([e.eventId]);
  });
});
