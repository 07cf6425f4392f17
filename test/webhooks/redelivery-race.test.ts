// A redelivery asked for while the event's attempt is in flight, where that attempt is recorded between the
// redelivery's statements. Only Postgres can interleave them: SQLite runs a write unit inside the one writer's
// transaction, so no other write commits meanwhile (the same request there is redelivery-limits.test.ts's
// in-flight case). The store's write is wrapped so that the attempt is made and recorded at exactly that moment.
import { expect } from 'chai';
import type { Store, WriteScope } from '../../server/src/store/store.js';
import { createWebhookDispatcher } from '../../server/src/webhooks/dispatcher.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import { postgresAvailable } from '../support/stores.js';
import type { ApiResponse } from '../support/contract.js';
import { startReceiver, type Receiver } from './support/receiver.js';

/**
 * Runs `meanwhile` once, right after a write unit's update of webhook_events changed nothing (a redelivery
 * that found its event pending), before the unit's next statement. Returns the undo.
 */
function pauseAfterMissedUpdate(store: Store, meanwhile: () => Promise<unknown>): () => void {
  const write = store.write;
  let armed = true;
  const paused = (scope: WriteScope): WriteScope => ({
    ex: scope.ex,
    atomically: (lockKey, fn) =>
      scope.atomically(lockKey, (ex) =>
        fn({
          compiler: ex.compiler,
          async run(sql, params) {
            const rows = await ex.run(sql, params);
            if (armed && /^update "webhook_events"/.test(sql) && rows.length === 0) {
              armed = false;
              await meanwhile();
            }
            return rows;
          },
        }),
      ),
  });
  (store as { write: Store['write'] }).write = (unit) => write((scope) => unit(paused(scope)));
  return () => ((store as { write: Store['write'] }).write = write);
}

describe('a redelivery racing an attempt in flight [postgres]', () => {
  let srv: EngineServer;
  let rx: Receiver;
  before(async function () {
    if (await postgresAvailable()) return;
    if (process.env.SVC_TEST_POSTGRES === 'required') throw new Error('Postgres is required but not reachable');
    this.skip();
  });
  beforeEach(async () => {
    srv = await startEngineServer('postgres');
    rx = await startReceiver();
  });
  afterEach(async () => {
    await rx.close();
    await srv.close();
  });

  it('answers 409 redelivery_pending with Retry-After 1 when the attempt is recorded delivered between its statements, never 400 destination_refused', async () => {
    const alice = await srv.tenant({ rateLimit: 100 });
    const dispatcher = createWebhookDispatcher({ store: srv.deps.store, clock: srv.clock, config: srv.deps.config });
    const placed = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550111', objective: 'Ask whether the shop is open on Sunday.', webhookUrl: rx.url } });
    const id = placed.body.callId;
    await srv.drive(id);
    const [pending] = (await alice.api.get(`/v1/agent/calls/${id}/events`)).body.events;
    expect(pending.state).to.equal('pending');

    const undo = pauseAfterMissedUpdate(srv.deps.store, () => dispatcher.tick());
    let res: ApiResponse;
    try {
      res = await alice.api.post(`/v1/agent/calls/${id}/events/${encodeURIComponent(pending.eventId)}/redeliver`);
    } finally {
      undo();
      await dispatcher.stop();
    }
    expect(rx.received).to.have.length(1);
    expect([res.status, res.body.error, res.headers.get('retry-after')]).to.deep.equal([409, 'redelivery_pending', '1']);
    expect(res.body.message).to.equal('An attempt of this event was being delivered when the redelivery was asked for; ask again in 1 s.');
    const [after] = (await alice.api.get(`/v1/agent/calls/${id}/events`)).body.events;
    expect(after.state).to.equal('delivered');
    expect(after.attempts.map((a: any) => [a.attempt, a.statusCode, a.redelivery])).to.deep.equal([[1, 200, false]]);
  });
});
