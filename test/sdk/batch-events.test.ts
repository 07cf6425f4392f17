// The SDK's methods for a batch's own events against a running service on both stores: listBatchEvents and
// redeliverBatchEvent (and its SvcApiError tokens, with the Retry-After of a 409), with a receiver on loopback.
import { expect } from 'chai';
import { SvcApiError, SvcClient } from '../../sdk/src/index.js';
import { createWebhookDispatcher } from '../../server/src/webhooks/dispatcher.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';
import { startReceiver, type Receiver } from '../webhooks/support/receiver.js';

forEachStore('the SDK on batch events', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  let rx: Receiver;
  let svc: SvcClient;
  beforeEach(async () => {
    srv = await startEngineServer(kind);
    alice = await srv.tenant({ rateLimit: 100 });
    rx = await startReceiver();
    svc = new SvcClient({ apiKey: alice.key, baseUrl: srv.baseUrl });
  });
  afterEach(async () => {
    await rx.close();
    await srv.close();
  });

  it('lists a batch’s event, redelivers it, and rejects a second redelivery within 10 s with SvcApiError redelivery_pending and its Retry-After', async () => {
    const dispatcher = createWebhookDispatcher({ store: srv.deps.store, clock: srv.clock, config: srv.deps.config });
    const { batchId } = await svc.createBatch({ defaults: { objective: 'Ask whether the shop is open on Sunday.' }, calls: [{ to: '+14155550111' }], webhookUrl: rx.url });
    await svc.cancelBatch(batchId);
    await dispatcher.tick();
    const [event] = await svc.listBatchEvents(batchId);
    expect(event).to.include({ event: 'batch.canceled', state: 'delivered', attemptsOmitted: 0 });
    expect(event.payload).to.include({ batchId, status: 'canceled' });
    expect(event.attempts.map((a) => [a.attempt, a.statusCode, a.redelivery])).to.deep.equal([[1, 200, false]]);

    const queued = await svc.redeliverBatchEvent(batchId, event.eventId);
    expect(queued).to.include({ eventId: event.eventId, state: 'pending' });
    const again = await svc.redeliverBatchEvent(batchId, event.eventId).catch((e: unknown) => e);
    expect(again).to.be.instanceOf(SvcApiError);
    expect([(again as SvcApiError).status, (again as SvcApiError).token, (again as SvcApiError).rateLimit.retryAfterSec]).to.deep.equal([409, 'redelivery_pending', 10]);
    await dispatcher.tick();
    await dispatcher.stop();
    const [after] = await svc.listBatchEvents(batchId);
    expect(after.attempts.map((a) => [a.attempt, a.statusCode, a.redelivery])).to.deep.equal([
      [1, 200, false],
      [2, 200, true],
    ]);
    expect(rx.received.map((r) => r.body)).to.deep.equal([JSON.stringify(event.payload), JSON.stringify(event.payload)]);

    const missing = await svc.listBatchEvents('00000000-0000-7000-8000-000000000000').catch((e: unknown) => e);
    expect([(missing as SvcApiError).status, (missing as SvcApiError).token]).to.deep.equal([404, 'not_found']);
  });
});
