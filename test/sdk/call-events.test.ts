// The SDK's event-log methods against a running service on both stores: listCallEvents, redeliverEvent (and its
// SvcApiError tokens), with a receiver on loopback, and streamCall of a call that already ended.
import { expect } from 'chai';
import { SvcApiError, SvcClient } from '../../sdk/src/index.js';
import { createWebhookDispatcher } from '../../server/src/webhooks/dispatcher.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';
import { startReceiver, type Receiver } from '../webhooks/support/receiver.js';

forEachStore('the SDK on call events', (kind) => {
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

  it('lists a call’s events, redelivers one, and rejects a second redelivery while it is pending with SvcApiError redelivery_pending', async () => {
    const dispatcher = createWebhookDispatcher({ store: srv.deps.store, clock: srv.clock, config: srv.deps.config });
    const { callId } = await svc.placeCall({ to: '+14155550111', objective: 'Ask whether the shop is open on Sunday.', webhookUrl: rx.url });
    await srv.drive(callId);
    await dispatcher.tick();
    const [event] = await svc.listCallEvents(callId);
    expect(event).to.include({ event: 'call.no_answer', state: 'delivered' });
    expect(event.attempts.map((a) => [a.attempt, a.statusCode, a.redelivery])).to.deep.equal([[1, 200, false]]);

    const queued = await svc.redeliverEvent(callId, event.eventId);
    expect(queued).to.include({ eventId: event.eventId, state: 'pending' });
    const again = await svc.redeliverEvent(callId, event.eventId).catch((e: unknown) => e);
    expect(again).to.be.instanceOf(SvcApiError);
    expect([(again as SvcApiError).status, (again as SvcApiError).token]).to.deep.equal([409, 'redelivery_pending']);
    await dispatcher.tick();
    await dispatcher.stop();
    const [after] = await svc.listCallEvents(callId);
    expect(after.attempts.map((a) => [a.attempt, a.statusCode, a.redelivery])).to.deep.equal([
      [1, 200, false],
      [2, 200, true],
    ]);
    expect(rx.received.map((r) => r.body)).to.deep.equal([JSON.stringify(event.payload), JSON.stringify(event.payload)]);

    const missing = await svc.listCallEvents('00000000-0000-7000-8000-000000000000').catch((e: unknown) => e);
    expect([(missing as SvcApiError).status, (missing as SvcApiError).token]).to.deep.equal([404, 'not_found']);
  });

  it('streams a call that already ended whole, then the iterator is done', async () => {
    const { callId } = await svc.placeCall({ to: '+14155550111', objective: 'Ask whether the shop is open on Sunday.' });
    await srv.drive(callId);
    const seen: string[] = [];
    for await (const e of svc.streamCall(callId)) seen.push(`${e.event} ${e.id} ${e.event === 'status' ? e.data.status : e.data.index}`);
    expect(seen).to.deep.equal(['status 1.0 queued', 'status 2.0 dialing', 'status 3.0 no_answer']);
  });
});
