import { expect } from 'chai';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import Stripe from 'stripe';
import { rotateWebhookSecret } from '../../server/src/accounts/webhook-secrets.js';
import type { Config } from '../../server/src/config.js';
import { createWebhookDispatcher, type WebhookDispatcher, type WebhookDispatcherDeps } from '../../server/src/webhooks/dispatcher.js';
import { DEFAULT_RETRY_SCHEDULE_SEC } from '../../server/src/settings/retry-schedule.js';
import { defaultRequest, type RequestFn } from '../../server/src/webhooks/webhook-sender.js';
import { TestClock } from '../support/server.js';
import { forEachStore, freshStore, type TestStore } from '../support/stores.js';
import { seedFixture, type Fixture } from './support/outbox-fixture.js';
import { startReceiver, type Receiver, type Reply } from './support/receiver.js';

const stripe = new Stripe('sk_test_x');

forEachStore('webhook dispatcher', (kind) => {
  let ts: TestStore;
  let clock: TestClock;
  let fx: Fixture;
  let rx: Receiver | undefined;
  let dispatcher: WebhookDispatcher | undefined;

  beforeEach(async () => {
    ts = await freshStore(kind);
    clock = new TestClock();
    fx = await seedFixture(ts.store, clock.now());
  });
  afterEach(async () => {
    await dispatcher?.stop();
    await rx?.close();
    await ts.drop();
    dispatcher = rx = undefined;
  });

  function make(config: Partial<Config> = {}, deps: Partial<WebhookDispatcherDeps> = {}): WebhookDispatcher {
    dispatcher = createWebhookDispatcher({
      store: ts.store,
      clock,
      config: { webhookRetrySchedule: [...DEFAULT_RETRY_SCHEDULE_SEC], webhookTimeoutMs: 5000, webhookAllowPrivate: true, ...config },
      random: () => 0.5, // no jitter: exact schedule steps
      ...deps,
    });
    return dispatcher;
  }
  async function receiver(reply?: (index: number) => Reply) {
    rx = await startReceiver(reply && ((_r, i) => reply(i)));
    return rx;
  }
  const header = (i: number) => rx!.received[i].headers['x-svc-signature'] as string;
  /** Verifies request i with the stripe package, as received at the test clock's time. */
  const verify = (i: number, secret: string) => stripe.webhooks.constructEvent(rx!.received[i].body, header(i), secret, 300, undefined, clock.now());
  const event = (id: string) => ts.store.db.selectFrom('webhook_events').selectAll().where('event_id', '=', id).executeTakeFirstOrThrow();
  const attempts = (id: string) => ts.store.db.selectFrom('webhook_attempts').selectAll().where('event_id', '=', id).orderBy('attempt').execute();

  it('POSTs the stored body with Content-Type, User-Agent and a signature the stripe package verifies', async () => {
    const r = await receiver();
    const { call, eventId } = await fx.event(`${r.url}?tenant=7`);
    expect(await make().tick()).to.equal(1);

    expect(r.received).to.have.length(1);
    const got = r.received[0];
    expect(got.method).to.equal('POST');
    expect(got.path).to.equal('/hooks?tenant=7');
    expect(got.headers['content-type']).to.equal('application/json');
    expect(got.headers['user-agent']).to.equal('svc-webhooks/1.0');
    expect(got.headers.host).to.equal(`127.0.0.1:${r.port}`);
    expect(header(0)).to.match(new RegExp(`^t=${Math.floor(clock.now() / 1000)},v1=[0-9a-f]{64}$`));
    const stored = await event(eventId);
    expect(got.body).to.equal(stored.body);
    const payload = verify(0, fx.secret) as unknown as Record<string, unknown>;
    expect(payload).to.deep.equal({
      event: 'call.completed',
      eventId: `${call.id}:call.completed:${clock.now()}`,
      timestamp: new Date(clock.now()).toISOString(),
      callId: call.id,
      status: 'completed',
      to: '+14155550123',
      objective: 'Ask whether the shop is open on Sunday',
      startedAt: new Date(clock.now() + 1000).toISOString(),
      endedAt: new Date(clock.now() + 61000).toISOString(),
      durationSec: 60,
      summary: 'The shop is open on Sunday.',
      extracted: { open_sunday: true },
      error: null,
      answeredBy: null,
      metadata: null,
      nextCallId: null,
      batchId: null,
      optOut: false,
    });
    expect(() => verify(0, 'whsec_not_the_secret_of_this_key_at_all')).to.throw(/No signatures found matching/);

    expect(stored).to.include({ state: 'delivered', attempts: 1, last_status: 200, last_error: null, delivered_at: clock.now(), lease_owner: null, lease_expires_at: null });
    const [a] = await attempts(eventId);
    expect(a).to.include({ attempt: 1, at: clock.now(), status_code: 200, error: null });
    expect(a.latency_ms).to.be.a('number').at.least(0);
    expect(await make().tick()).to.equal(0);
  });

  it('retries a receiver failing 3 times on the schedule: 4 deliveries, same eventId and body, each signed afresh', async () => {
    const r = await receiver((i) => ({ status: i < 3 ? 500 : 204 }));
    const { eventId } = await fx.event(r.url);
    const d = make();
    const t0 = clock.now();
    expect(await d.tick()).to.equal(1);
    for (const [stepSec, n] of [
      [5, 2],
      [300, 3],
      [1800, 4],
    ] as const) {
      clock.advance(stepSec * 1000 - 1);
      expect(await d.tick(), 'not due yet').to.equal(0);
      clock.advance(1);
      expect(await d.tick()).to.equal(1);
      expect(r.received).to.have.length(n);
      expect(JSON.parse(r.received[n - 1].body).eventId).to.equal(eventId);
      expect(r.received[n - 1].body).to.equal(r.received[0].body);
      expect(header(n - 1)).to.match(new RegExp(`^t=${Math.floor(clock.now() / 1000)},v1=`));
      verify(n - 1, fx.secret);
    }
    expect(new Set(r.received.map((_x, i) => header(i))).size).to.equal(4);
    expect(await event(eventId)).to.include({ state: 'delivered', attempts: 4, last_status: 204, delivered_at: t0 + (5 + 300 + 1800) * 1000 });
    expect((await attempts(eventId)).map((a) => [a.attempt, a.status_code, a.error, a.at - t0])).to.deep.equal([
      [1, 500, 'HTTP 500', 0],
      [2, 500, 'HTTP 500', 5000],
      [3, 500, 'HTTP 500', 305000],
      [4, 204, null, 2105000],
    ]);
  });

  it('spreads each retry by the injected jitter, within ±20%', async () => {
    const r = await receiver(() => ({ status: 500 }));
    const { eventId } = await fx.event(r.url);
    await make({}, { random: () => 0 }).tick();
    expect((await event(eventId)).next_attempt_at).to.equal(clock.now() + 4000);
    await dispatcher!.stop();
    clock.advance(4000);
    await make({}, { random: () => 0.999999 }).tick();
    expect((await event(eventId)).next_attempt_at).to.equal(clock.now() + 360000);
  });

  it('ends failed after the last attempt of a configured schedule', async () => {
    const r = await receiver(() => ({ status: 502 }));
    const { eventId } = await fx.event(r.url);
    const d = make({ webhookRetrySchedule: [0, 0, 10] });
    expect(await d.tick(), 'the immediate retry runs in the same tick').to.equal(2);
    clock.advance(10_000);
    expect(await d.tick()).to.equal(1);
    clock.advance(10 * 3600_000);
    expect(await d.tick()).to.equal(0);
    expect(r.received).to.have.length(3);
    expect(await event(eventId)).to.include({ state: 'failed', attempts: 3, last_status: 502, last_error: 'HTTP 502', delivered_at: null });
  });

  it('stops at 410 Gone: state gone, no retry', async () => {
    const r = await receiver(() => ({ status: 410 }));
    const { eventId } = await fx.event(r.url);
    const d = make();
    await d.tick();
    clock.advance(48 * 3600_000);
    expect(await d.tick()).to.equal(0);
    expect(r.received).to.have.length(1);
    expect(await event(eventId)).to.include({ state: 'gone', attempts: 1, last_status: 410, last_error: 'HTTP 410 Gone: the receiver asked for no more deliveries' });
  });

  it("after a 410 Gone sends none of the same call's later events to that URL, and still sends other calls' events", async () => {
    const r = await receiver((i) => ({ status: i === 0 ? 410 : 204 }));
    const { call, eventId: first } = await fx.event(r.url, {}, 'call.in_progress');
    const d = make();
    expect(await d.tick()).to.equal(1);
    clock.advance(1000);
    const later = await fx.laterEvent(call, 'call.completed', clock.now());
    const { eventId: otherCall } = await fx.event(r.url);
    expect(await d.tick()).to.equal(2);
    expect(r.received.map((x) => JSON.parse(x.body).eventId)).to.deep.equal([first, otherCall]);
    expect(await event(first)).to.include({ state: 'gone', last_status: 410 });
    expect(await event(later)).to.include({ state: 'gone', attempts: 1, last_status: null, last_error: 'not sent: this URL answered 410 Gone to an earlier event of this call' });
    expect((await attempts(later)).map((a) => [a.status_code, a.error])).to.deep.equal([[null, 'not sent: this URL answered 410 Gone to an earlier event of this call']]);
    expect(await event(otherCall)).to.include({ state: 'delivered', last_status: 204 });
    clock.advance(48 * 3600_000);
    expect(await d.tick()).to.equal(0);
    expect(r.received).to.have.length(2);
  });

  it('after a 410 Gone does not retry an earlier event of the same call that was waiting for its next attempt', async () => {
    const r = await receiver((i) => ({ status: i === 0 ? 500 : i === 1 ? 410 : 204 }));
    const { call, eventId: waiting } = await fx.event(r.url, {}, 'call.in_progress');
    const d = make();
    expect(await d.tick()).to.equal(1); // 500: due again in 5 s
    const gone = await fx.laterEvent(call, 'call.completed', clock.now());
    expect(await d.tick()).to.equal(1); // 410
    clock.advance(5000);
    expect(await d.tick()).to.equal(1); // the retry is not sent
    expect(r.received.map((x) => JSON.parse(x.body).eventId)).to.deep.equal([waiting, gone]);
    expect(await event(waiting)).to.include({ state: 'gone', attempts: 2, last_status: null });
  });

  it('treats a redirect as a failure and never follows it', async () => {
    const target = await startReceiver();
    try {
      const r = await receiver(() => ({ status: 307, headers: { Location: target.url } }));
      const { eventId } = await fx.event(r.url);
      await make().tick();
      expect(r.received).to.have.length(1);
      expect(target.connections).to.equal(0);
      expect(await event(eventId)).to.include({ state: 'pending', attempts: 1, last_status: 307, next_attempt_at: clock.now() + 5000 });
      expect((await attempts(eventId))[0].error).to.equal('HTTP 307: redirects are not followed');
    } finally {
      await target.close();
    }
  });

  it('times out a receiver that does not answer within the configured timeout', async () => {
    const r = await receiver(() => 'hang');
    const { eventId } = await fx.event(r.url);
    await make({ webhookTimeoutMs: 150 }).tick();
    expect(r.received).to.have.length(1);
    expect(await event(eventId)).to.include({ state: 'pending', attempts: 1, last_status: null, last_error: 'timed out after 150 ms' });
    const [a] = await attempts(eventId);
    expect(a.status_code).to.equal(null);
    expect(a.latency_ms).to.be.at.least(140);
  });

  it('records a refused connection as a failure to retry', async () => {
    const r = await receiver();
    const url = r.url;
    await r.close();
    rx = undefined;
    const { eventId } = await fx.event(url);
    await make().tick();
    expect(await event(eventId)).to.include({ state: 'pending', attempts: 1, last_status: null, last_error: 'connection failed: ECONNREFUSED' });
  });

  it('honours Retry-After in seconds on 429 when it is later than the schedule', async () => {
    const r = await receiver((i) => (i === 0 ? { status: 429, headers: { 'Retry-After': '120' } } : { status: 200 }));
    const { eventId } = await fx.event(r.url);
    const d = make();
    await d.tick();
    expect((await event(eventId)).next_attempt_at).to.equal(clock.now() + 120_000);
    clock.advance(119_999);
    expect(await d.tick()).to.equal(0);
    clock.advance(1);
    expect(await d.tick()).to.equal(1);
    expect(await event(eventId)).to.include({ state: 'delivered', attempts: 2 });
  });

  it('honours Retry-After as an HTTP date on 503, and never retries sooner than the schedule', async () => {
    const later = new Date(clock.now() + 600_000).toUTCString();
    const r = await receiver((i) => ({ status: 503, headers: { 'Retry-After': i === 0 ? later : '1' } }));
    const { eventId } = await fx.event(r.url);
    const d = make();
    await d.tick();
    expect((await event(eventId)).next_attempt_at).to.equal(clock.now() + 600_000);
    clock.advance(600_000);
    await d.tick();
    expect((await event(eventId)).next_attempt_at, 'Retry-After: 1 is shorter than the 300 s step').to.equal(clock.now() + 300_000);
  });

  it('ignores Retry-After on other statuses', async () => {
    const r = await receiver(() => ({ status: 500, headers: { 'Retry-After': '3600' } }));
    const { eventId } = await fx.event(r.url);
    await make().tick();
    expect((await event(eventId)).next_attempt_at).to.equal(clock.now() + 5000);
  });

  it('signs with both secrets during a rotation overlap, new first, each verifying with stripe; with one after it', async () => {
    const r = await receiver();
    const newSecret = await rotateWebhookSecret(ts.store.db, fx.keyId, clock.now(), 24 * 3600);
    expect(newSecret).to.match(/^whsec_[A-Za-z0-9_-]{43}$/);
    await fx.event(r.url);
    const d = make();
    await d.tick();
    expect(header(0)).to.match(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    verify(0, newSecret!);
    verify(0, fx.secret);
    const [newSig, oldSig] = header(0).split(',').slice(1);
    const only = (sig: string, secret: string) => stripe.webhooks.constructEvent(r.received[0].body, `${header(0).split(',')[0]},${sig}`, secret, 300, undefined, clock.now());
    only(newSig, newSecret!);
    only(oldSig, fx.secret);
    expect(() => only(newSig, fx.secret)).to.throw(/No signatures found matching/);

    clock.advance(24 * 3600_000);
    const { eventId } = await fx.event(r.url);
    await d.tick();
    const last = r.received.findIndex((x) => JSON.parse(x.body).eventId === eventId);
    expect(header(last)).to.match(/^t=\d+,v1=[0-9a-f]{64}$/);
    verify(last, newSecret!);
    expect(() => verify(last, fx.secret)).to.throw(/No signatures found matching/);
  });

  it('takes over an event whose lease expired (a worker died mid-delivery), and leaves a live lease alone', async () => {
    const r = await receiver();
    const { eventId } = await fx.event(r.url);
    await ts.store.db
      .updateTable('webhook_events')
      .set({ lease_owner: 'dead-worker', lease_expires_at: clock.now() + 1000 })
      .execute();
    const d = make();
    expect(await d.tick()).to.equal(0);
    clock.advance(1000);
    expect(await d.tick()).to.equal(1);
    expect(r.received).to.have.length(1);
    expect(await event(eventId)).to.include({ state: 'delivered', attempts: 1, lease_owner: null });
  });

  it('records nothing for an attempt whose lease another worker took over', async () => {
    const r = await receiver();
    const { eventId } = await fx.event(r.url);
    const takeOver = () => ts.store.db.updateTable('webhook_events').set({ lease_owner: 'other-worker' }).where('event_id', '=', eventId).execute();
    // The other worker claims the event while this one waits for the response.
    const request: RequestFn = (options, onResponse) => defaultRequest(options, (res) => void takeOver().then(() => onResponse(res)));
    await make({}, { request }).tick();
    expect(r.received).to.have.length(1);
    expect(await event(eventId)).to.include({ state: 'pending', attempts: 0, lease_owner: 'other-worker' });
    expect(await attempts(eventId)).to.deep.equal([]);
  });

  it('delivers many events concurrently, each exactly once', async () => {
    const r = await receiver();
    const ids = new Set<string>();
    for (let i = 0; i < 150; i++) ids.add((await fx.event(r.url)).eventId);
    expect(await make({}, { concurrency: 8 }).tick()).to.equal(150);
    expect(new Set(r.received.map((x) => JSON.parse(x.body).eventId))).to.deep.equal(ids);
    expect(r.received).to.have.length(150);
    expect(r.connections, 'kept-alive connections are reused').to.be.at.most(8);
  });

  it('two workers ticking at once deliver each event exactly once', async () => {
    const r = await receiver();
    const ids = new Set<string>();
    for (let i = 0; i < 120; i++) ids.add((await fx.event(r.url)).eventId);
    const base = { store: ts.store, clock, config: { webhookRetrySchedule: [0, 5], webhookTimeoutMs: 5000, webhookAllowPrivate: true }, concurrency: 8 };
    const a = createWebhookDispatcher({ ...base, owner: 'worker-a' });
    const b = createWebhookDispatcher({ ...base, owner: 'worker-b' });
    try {
      const [na, nb] = await Promise.all([a.tick(), b.tick()]);
      expect(na + nb).to.equal(120);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    expect(r.received.map((x) => JSON.parse(x.body).eventId).sort()).to.deep.equal([...ids].sort());
    const rows = await ts.store.db.selectFrom('webhook_events').select(['state', 'attempts']).execute();
    expect(rows.every((x) => x.state === 'delivered' && x.attempts === 1)).to.equal(true);
  });

  it('logs a failed attempt with its event id and error, never the secret or the URL', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _e, cb) => void (lines.push(String(chunk)), cb()) }));
    const r = await receiver(() => ({ status: 500 }));
    const { eventId } = await fx.event(`${r.url}?token=receiver-private-token`);
    await make({}, { logger }).tick();
    expect(lines).to.have.length(1);
    expect(JSON.parse(lines[0])).to.deep.include({ level: 40, msg: 'webhook attempt', eventId, attempt: 1, status: 500, error: 'HTTP 500', state: 'pending', recorded: true });
    expect(lines[0]).not.to.include(fx.secret);
    expect(lines[0]).not.to.include('receiver-private-token');
    expect(lines[0]).not.to.include(r.received[0].headers['x-svc-signature'] as string);
  });

  it('start() delivers in the background and stop() waits for the delivery in flight', async () => {
    const r = await receiver();
    const { eventId } = await fx.event(r.url);
    const d = make({}, { idleMs: 5 });
    d.start();
    while (r.received.length === 0) await new Promise((res) => setTimeout(res, 5));
    await d.stop();
    expect(await event(eventId)).to.include({ state: 'delivered', attempts: 1 });
  });
});
