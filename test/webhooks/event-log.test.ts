// A call's event log (listCallEvents) and redelivery (redeliverEvent), end to end: sandbox calls placed over HTTP,
// driven by the engine, their events delivered by the dispatcher to a real receiver on loopback that answers as
// each test scripts it; every response checked against openapi.yaml by the contract helper.
import { expect } from 'chai';
import Stripe from 'stripe';
import { createWebhookDispatcher, type WebhookDispatcher } from '../../server/src/webhooks/dispatcher.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';
import { startReceiver, type Receiver, type Reply } from './support/receiver.js';

const stripe = new Stripe('sk_test_placeholder');
const NO_ANSWER = '+14155550111'; // one event: call.no_answer
const ANSWERED = '+14155550123'; // two events: call.in_progress, call.completed

forEachStore('the event log and redelivery', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  let rx: Receiver;
  let replies: Reply[];
  let secret: string;
  let dispatcher: WebhookDispatcher;
  const dispatch = (allowPrivate = true) => createWebhookDispatcher({ store: srv.deps.store, clock: srv.clock, config: { ...srv.deps.config, webhookAllowPrivate: allowPrivate }, random: () => 0.5 });

  beforeEach(async () => {
    srv = await startEngineServer(kind, { SVC_WEBHOOK_RETRY_SCHEDULE: '0,5,10' });
    alice = await srv.tenant({ rateLimit: 100 });
    secret = (await srv.deps.store.db.selectFrom('api_keys').select('webhook_secret').where('id', '=', alice.keyId).executeTakeFirstOrThrow()).webhook_secret;
    replies = [];
    // Each request takes the next scripted reply; past the script, 200.
    rx = await startReceiver((_req, i) => replies[i] ?? { status: 200 });
    dispatcher = dispatch();
  });
  afterEach(async () => {
    await dispatcher.stop();
    await rx.close();
    await srv.close();
  });

  /** A call placed and driven to its end; with `delivering`, the dispatcher runs between the engine's steps, as a worker does. */
  async function placed(to: string, opts: { webhookUrl?: string | null; delivering?: boolean } = {}): Promise<string> {
    const webhookUrl = opts.webhookUrl === undefined ? rx.url : opts.webhookUrl;
    const res = await alice.api.post('/v1/agent/calls', { body: { to, objective: 'Ask whether the shop is open on Sunday.', ...(webhookUrl ? { webhookUrl } : {}) } });
    expect(res.status).to.equal(202);
    await srv.drive(res.body.callId, 200, opts.delivering ? () => dispatcher.tick() : undefined);
    return res.body.callId;
  }
  const log = async (id: string, as = alice) => {
    const res = await as.api.get(`/v1/agent/calls/${id}/events`);
    expect(res.status).to.equal(200);
    return res.body.events as any[];
  };
  const redeliver = (id: string, eventId: string, as = alice) => as.api.post(`/v1/agent/calls/${id}/events/${encodeURIComponent(eventId)}/redeliver`);
  const iso = (ms: number) => new Date(ms).toISOString();

  it('shows each attempt of a delivery retried on the schedule, then delivered, with the exact payload that was signed', async () => {
    replies = [{ status: 500 }, { status: 503 }];
    const id = await placed(NO_ANSWER);
    const t0 = srv.clock.now();
    let [e] = await log(id);
    expect(e).to.include({ event: 'call.no_answer', state: 'pending', nextAttemptAt: iso(t0), deliveredAt: null });
    expect(e.eventId).to.match(new RegExp(`^${id}:call\\.no_answer:\\d+$`));
    expect(e.attempts).to.deep.equal([]);

    expect(await dispatcher.tick()).to.equal(1);
    [e] = await log(id);
    expect(e).to.include({ state: 'pending', nextAttemptAt: iso(t0 + 5000) });
    expect(e.attempts).to.have.length(1);
    expect(e.attempts[0]).to.include({ attempt: 1, at: iso(t0), statusCode: 500, error: 'HTTP 500', redelivery: false });
    expect(e.attempts[0].latencyMs).to.be.a('number').and.at.least(0);

    srv.clock.advance(5000);
    expect(await dispatcher.tick()).to.equal(1);
    srv.clock.advance(10_000);
    expect(await dispatcher.tick()).to.equal(1);
    [e] = await log(id);
    expect(e).to.include({ state: 'delivered', nextAttemptAt: null, deliveredAt: iso(t0 + 15_000) });
    expect(e.attempts.map((a: any) => [a.attempt, a.at, a.statusCode, a.error])).to.deep.equal([
      [1, iso(t0), 500, 'HTTP 500'],
      [2, iso(t0 + 5000), 503, 'HTTP 503'],
      [3, iso(t0 + 15_000), 200, null],
    ]);
    // The payload shown is the body sent, byte for byte.
    expect(rx.received).to.have.length(3);
    for (const r of rx.received) expect(JSON.stringify(e.payload)).to.equal(r.body);
    expect(e.payload).to.include({ eventId: e.eventId, callId: id, event: 'call.no_answer', status: 'no_answer' });
  });

  it('shows a 410 ending the event and the call’s later ones; a redelivery reaches the receiver with the original eventId, verified by Stripe', async () => {
    replies = [{ status: 410 }];
    const id = await placed(ANSWERED, { delivering: true });
    let [first, second] = await log(id);
    expect(first).to.include({ event: 'call.in_progress', state: 'gone' });
    expect(first.attempts.map((a: any) => [a.statusCode, a.error])).to.deep.equal([[410, 'HTTP 410 Gone: the receiver asked for no more deliveries']]);
    expect(second).to.include({ event: 'call.completed', state: 'gone' });
    expect(second.attempts.map((a: any) => [a.statusCode, a.error])).to.deep.equal([[null, 'not sent: this URL answered 410 Gone to an earlier event of this call']]);
    expect(rx.received).to.have.length(1);

    srv.clock.advance(60_000);
    const res = await redeliver(id, second.eventId);
    expect(res.status).to.equal(202);
    expect(res.body).to.include({ eventId: second.eventId, state: 'pending', nextAttemptAt: iso(srv.clock.now()) });
    expect(await dispatcher.tick()).to.equal(1);
    expect(rx.received).to.have.length(2);
    const sent = rx.received[1];
    const header = String(sent.headers['x-svc-signature']);
    const t = Number(/^t=(\d+)/.exec(header)![1]);
    expect(t).to.equal(Math.floor(srv.clock.now() / 1000));
    const event = stripe.webhooks.constructEvent(sent.body, header, secret, 300, undefined, t) as unknown as Record<string, unknown>;
    expect(event.eventId).to.equal(second.eventId);
    expect(sent.body).to.equal(JSON.stringify(second.payload));

    [first, second] = await log(id);
    expect(first.state).to.equal('gone');
    expect(second).to.include({ state: 'delivered', deliveredAt: iso(srv.clock.now()), nextAttemptAt: null });
    expect(second.attempts.map((a: any) => [a.attempt, a.statusCode, a.redelivery])).to.deep.equal([
      [1, null, false],
      [2, 200, true],
    ]);
  });

  it('makes a redelivery one attempt: a failure ends it failed, with no retries', async () => {
    replies = [{ status: 500 }, { status: 500 }, { status: 500 }, { status: 502 }];
    const id = await placed(NO_ANSWER);
    await dispatcher.tick();
    srv.clock.advance(5000);
    await dispatcher.tick();
    srv.clock.advance(10_000);
    await dispatcher.tick();
    let [e] = await log(id);
    expect(e.state).to.equal('failed');
    expect(e.attempts).to.have.length(3);

    expect((await redeliver(id, e.eventId)).status).to.equal(202);
    expect(await dispatcher.tick()).to.equal(1);
    [e] = await log(id);
    expect(e).to.include({ state: 'failed', nextAttemptAt: null });
    expect(e.attempts.at(-1)).to.include({ attempt: 4, statusCode: 502, error: 'HTTP 502', redelivery: true });
    srv.clock.advance(24 * 3600_000);
    expect(await dispatcher.tick()).to.equal(0);
    expect(rx.received).to.have.length(4);
  });

  it('redelivers a delivered event (a receiver that lost it), and answers 409 redelivery_pending while a delivery is pending', async () => {
    const id = await placed(NO_ANSWER);
    let [e] = await log(id);
    // Still pending: its first attempt has not been made.
    let res = await redeliver(id, e.eventId);
    expect(res.status).to.equal(409);
    expect(res.body.error).to.equal('redelivery_pending');
    expect(res.body.message).to.match(/still being delivered/);

    await dispatcher.tick();
    [e] = await log(id);
    expect(e.state).to.equal('delivered');
    expect((await redeliver(id, e.eventId)).status).to.equal(202);
    res = await redeliver(id, e.eventId);
    expect(res.status).to.equal(409);
    expect(res.body.error).to.equal('redelivery_pending');
    expect(res.body.message).to.match(/already queued/);
    expect(await dispatcher.tick()).to.equal(1);
    expect(await dispatcher.tick()).to.equal(0);
    expect(rx.received.map((r) => JSON.parse(r.body).eventId)).to.deep.equal([e.eventId, e.eventId]);
    [e] = await log(id);
    expect(e.attempts.map((a: any) => [a.attempt, a.statusCode, a.redelivery])).to.deep.equal([
      [1, 200, false],
      [2, 200, true],
    ]);
  });

  it('keeps a refused event refused: 400 destination_refused, and neither the log nor the error names the URL or its host', async () => {
    dispatcher = dispatch(false);
    const url = 'https://127.0.0.1:9/hooks?token=receiver-token';
    const id = await placed(NO_ANSWER, { webhookUrl: url });
    await dispatcher.tick();
    const [e] = await log(id);
    expect(e.state).to.equal('refused');
    expect(e.attempts.map((a: any) => [a.statusCode, a.error])).to.deep.equal([[null, "destination refused: the webhook URL's host is not a public address"]]);
    const res = await redeliver(id, e.eventId);
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal('destination_refused');
    expect(res.body.message).to.equal("The webhook URL was refused when this event was sent (destination refused: the webhook URL's host is not a public address); it would be refused again.");
    const shown = JSON.stringify(e) + res.text;
    for (const s of [url, '127.0.0.1', 'receiver-token', secret]) expect(shown).to.not.include(s);
    expect(rx.received).to.have.length(0);
  });

  it('logs the events of a call with no webhookUrl in state none; redelivering one is 400 no_webhook_url', async () => {
    const id = await placed(ANSWERED, { webhookUrl: null });
    const events = await log(id);
    expect(events.map((e) => [e.event, e.state, e.attempts.length, e.nextAttemptAt])).to.deep.equal([
      ['call.in_progress', 'none', 0, null],
      ['call.completed', 'none', 0, null],
    ]);
    expect(events[1].payload).to.include({ callId: id, status: 'completed' });
    const res = await redeliver(id, events[0].eventId);
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal('no_webhook_url');
    expect(await dispatcher.tick()).to.equal(0);
  });

  it('is the key’s own: another key’s call is 404 for the log and for a redelivery, as is an event the call does not have', async () => {
    const bob = await srv.tenant();
    const id = await placed(NO_ANSWER);
    await dispatcher.tick();
    const [e] = await log(id);
    for (const res of [await bob.api.get(`/v1/agent/calls/${id}/events`), await redeliver(id, e.eventId, bob)]) {
      expect(res.status).to.equal(404);
      expect(res.body.error).to.equal('not_found');
    }
    const other = await placed(NO_ANSWER);
    for (const eventId of [`${id}:call.completed:1`, 'nonsense', (await log(other))[0].eventId]) {
      const res = await redeliver(id, eventId);
      expect(res.status, eventId).to.equal(404);
      expect(res.body.error).to.equal('not_found');
    }
    expect((await log(id))[0].attempts).to.have.length(1);
    const unknown = await alice.api.get('/v1/agent/calls/00000000-0000-7000-8000-000000000000/events');
    expect(unknown.status).to.equal(404);
  });
});
