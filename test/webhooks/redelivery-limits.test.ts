// What keeps a redelivery from being turned into a stream of requests at a receiver: every redelivery asked for
// counts against the key's request window; an event is not redelivered while an attempt of it is in flight or
// pending, nor again within 10 seconds of the last redelivery asked for (409 redelivery_pending with Retry-After);
// an event keeps its first attempt and its last 20. Each rule for a call's event (a sandbox call placed over HTTP
// and driven by the engine) and for a batch's own (a batch canceled before it released a call), delivered by the
// dispatcher to a receiver on loopback; every response checked against openapi.yaml.
import { expect } from 'chai';
import type { ApiResponse } from '../support/contract.js';
import { createWebhookDispatcher, type WebhookDispatcher } from '../../server/src/webhooks/dispatcher.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';
import { until } from '../support/until.js';
import { startReceiver, type Receiver, type Reply } from './support/receiver.js';

const NO_ANSWER = '+14155550111'; // one event: call.no_answer
const SUBJECTS = ['call', 'batch'] as const;

forEachStore('the limits of redelivery', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  let rx: Receiver;
  let replies: (Reply | Promise<Reply>)[];
  let dispatcher: WebhookDispatcher;

  async function start(env: Record<string, string> = {}) {
    srv = await startEngineServer(kind, { SVC_WEBHOOK_RETRY_SCHEDULE: '0,5,10', ...env });
    alice = await srv.tenant({ rateLimit: 100 });
    dispatcher = createWebhookDispatcher({ store: srv.deps.store, clock: srv.clock, config: srv.deps.config, random: () => 0.5 });
  }
  beforeEach(async () => {
    replies = [];
    // Each request takes the next scripted reply; past the script, 200.
    rx = await startReceiver((_req, i) => replies[i] ?? { status: 200 });
  });
  afterEach(async () => {
    await dispatcher.stop();
    await rx.close();
    await srv.close();
  });

  /**
   * A subject with one event not yet sent: a call driven to its end (call.no_answer), or a batch canceled before it
   * released a call (batch.canceled); `delivered`: sent once. The clock is then 30 s into a rate-limit window the
   * subject was not made in.
   */
  async function event(subject: (typeof SUBJECTS)[number], opts: { delivered?: boolean } = {}): Promise<{ path: string; eventId: string }> {
    let path: string;
    if (subject === 'call') {
      const res = await alice.api.post('/v1/agent/calls', { body: { to: NO_ANSWER, objective: 'Ask whether the shop is open on Sunday.', webhookUrl: rx.url } });
      expect(res.status).to.equal(202);
      await srv.drive(res.body.callId);
      path = `/v1/agent/calls/${res.body.callId}`;
    } else {
      const res = await alice.api.post('/v1/agent/batches', { body: { defaults: { objective: 'Ask whether the shop is open on Sunday.' }, calls: [{ to: NO_ANSWER }], webhookUrl: rx.url } });
      expect(res.status).to.equal(202);
      path = `/v1/agent/batches/${res.body.batchId}`;
      expect((await alice.api.post(`${path}/cancel`)).status).to.equal(200);
    }
    srv.clock.ms = (Math.floor(srv.clock.ms / 60_000) + 1) * 60_000 + 30_000;
    const [e] = await log(path);
    if (opts.delivered) expect(await dispatcher.tick()).to.equal(1);
    return { path, eventId: e.eventId };
  }
  async function log(path: string): Promise<any[]> {
    const res = await alice.api.get(`${path}/events`);
    expect(res.status).to.equal(200);
    return res.body.events;
  }
  const redeliver = (e: { path: string; eventId: string }) => alice.api.post(`${e.path}/events/${encodeURIComponent(e.eventId)}/redeliver`);
  const window = (res: ApiResponse) => ['ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].map((h) => res.headers.get(h));
  const refused = (res: ApiResponse) => [res.status, res.body.error, res.headers.get('retry-after')];

  for (const subject of SUBJECTS) {
    describe(`the request window, for a ${subject}’s event`, () => {
      it('counts every redelivery asked for, whatever its answer, in the key’s request window (600;w=60 by default), never in its calls window', async () => {
        await start();
        const e = await event(subject, { delivered: true });
        const read = await alice.api.get(`${e.path}/events`);
        expect(window(read)).to.deep.equal(['100;w=60', '100', '100', '30']);

        const queued = await redeliver(e);
        expect(queued.status).to.equal(202);
        expect(window(queued)).to.deep.equal(['600;w=60', '600', '599', '30']);
        const again = await redeliver(e);
        expect(refused(again)).to.deep.equal([409, 'redelivery_pending', '10']);
        expect(window(again)).to.deep.equal(['600;w=60', '600', '598', '30']);
        const unknown = await redeliver({ ...e, eventId: 'nonsense' });
        expect([unknown.status, unknown.body.error]).to.deep.equal([404, 'not_found']);
        expect(window(unknown)).to.deep.equal(['600;w=60', '600', '597', '30']);

        // The calls window is untouched: the call placed now is its first.
        const placed = await alice.api.post('/v1/agent/calls', { body: { to: NO_ANSWER, objective: 'Ask whether the shop is open on Sunday.' } });
        expect(placed.status).to.equal(202);
        expect(window(placed)).to.deep.equal(['100;w=60', '100', '99', '30']);
      });

      it('answers 429 rate_limited with Retry-After once the request window is full, and placing calls goes on', async () => {
        await start({ SVC_KEY_REQUEST_LIMIT: '3' });
        const e = await event(subject, { delivered: true });
        expect((await redeliver(e)).status).to.equal(202);
        srv.clock.advance(10_000);
        expect(await dispatcher.tick()).to.equal(1);
        expect((await redeliver(e)).status).to.equal(202);
        expect(refused(await redeliver(e))).to.deep.equal([409, 'redelivery_pending', '10']);
        const limited = await redeliver(e);
        expect(refused(limited)).to.deep.equal([429, 'rate_limited', '20']);
        expect(window(limited)).to.deep.equal(['3;w=60', '3', '0', '20']);
        expect(limited.body.message).to.equal('Too many redeliveries and streams opened: the limit is 3 per 60 seconds. Retry after 20 seconds.');

        const placed = await alice.api.post('/v1/agent/calls', { body: { to: NO_ANSWER, objective: 'Ask whether the shop is open on Sunday.' } });
        expect(placed.status).to.equal(202);
        expect(window(placed)).to.deep.equal(['100;w=60', '100', '99', '20']);
        srv.clock.advance(20_000);
        expect(await dispatcher.tick()).to.equal(1);
        const next = await redeliver(e);
        expect(next.status).to.equal(202);
        expect(window(next)).to.deep.equal(['3;w=60', '3', '2', '60']);
      });
    });

    describe(`one redelivery at a time, of a ${subject}’s event`, () => {
      it('answers 409 redelivery_pending with Retry-After 1 while an attempt of the event is in flight', async () => {
        await start();
        let answer!: (r: Reply) => void;
        replies = [new Promise<Reply>((resolve) => (answer = resolve))];
        const e = await event(subject);
        const sending = dispatcher.tick();
        await until('the attempt at the receiver', () => rx.received.length === 1);
        const res = await redeliver(e);
        expect(refused(res)).to.deep.equal([409, 'redelivery_pending', '1']);
        expect(res.body.message).to.equal('This event is still being delivered: an attempt of it is due or in flight; ask again in 1 s.');
        answer({ status: 200 });
        expect(await sending).to.equal(1);
        const [after] = await log(e.path);
        expect(after.state).to.equal('delivered');
        expect(after.attempts.map((a: any) => [a.attempt, a.statusCode, a.redelivery])).to.deep.equal([[1, 200, false]]);
      });

      it('answers 409 redelivery_pending with Retry-After the seconds to the next attempt while the event waits for a retry', async () => {
        await start();
        replies = [{ status: 500 }];
        const e = await event(subject);
        expect(await dispatcher.tick()).to.equal(1);
        const waiting = await redeliver(e);
        expect(refused(waiting)).to.deep.equal([409, 'redelivery_pending', '5']);
        expect(waiting.body.message).to.equal('This event is still being delivered: its next retry is not yet due; ask again in 5 s.');
        srv.clock.advance(3200);
        expect(refused(await redeliver(e))).to.deep.equal([409, 'redelivery_pending', '2']);
        srv.clock.advance(1800);
        expect(refused(await redeliver(e))).to.deep.equal([409, 'redelivery_pending', '1']);
      });

      it('refuses a redelivery within 10 seconds of the last one asked for, with Retry-After the seconds left, and queues it after them', async () => {
        await start();
        const e = await event(subject, { delivered: true });
        expect((await redeliver(e)).status).to.equal(202);
        const queued = await redeliver(e);
        expect(refused(queued)).to.deep.equal([409, 'redelivery_pending', '10']);
        expect(queued.body.message).to.equal('A redelivery of this event is already queued; ask again in 10 s.');
        expect(await dispatcher.tick()).to.equal(1);

        srv.clock.advance(4000);
        const early = await redeliver(e);
        expect(refused(early)).to.deep.equal([409, 'redelivery_pending', '6']);
        expect(early.body.message).to.equal('A redelivery of this event was asked for less than 10 seconds ago (an event is redelivered at most once in that time); ask again in 6 s.');
        srv.clock.advance(5500);
        expect(refused(await redeliver(e))).to.deep.equal([409, 'redelivery_pending', '1']);
        srv.clock.advance(500);
        expect((await redeliver(e)).status).to.equal(202);
        expect(await dispatcher.tick()).to.equal(1);
        expect(rx.received).to.have.length(3);
        const [after] = await log(e.path);
        expect(after.attempts.map((a: any) => [a.attempt, a.redelivery])).to.deep.equal([
          [1, false],
          [2, true],
          [3, true],
        ]);
      });

      it('lets a loop of redeliveries of one event for 1.5 s through once, answering every other 409 with Retry-After, each counted once in the request window', async () => {
        await start();
        // The event's first attempt is made while the loop runs, by a dispatcher running as a worker's does.
        const e = await event(subject);
        dispatcher.start();
        const answers: ApiResponse[] = [];
        const deadline = Date.now() + 1500;
        const loop = async () => {
          while (Date.now() < deadline && answers.length < 400) answers.push(await redeliver(e));
        };
        await Promise.all([loop(), loop(), loop(), loop()]);
        await dispatcher.stop();

        expect(rx.received).to.have.length(2);
        expect(answers.filter((r) => r.status === 202)).to.have.length(1);
        for (const r of answers.filter((r) => r.status !== 202)) {
          expect([r.status, r.body.error]).to.deep.equal([409, 'redelivery_pending']);
          expect(['1', '10']).to.include(r.headers.get('retry-after'));
        }
        const remaining = answers.map((r) => Number(r.headers.get('ratelimit-remaining'))).sort((a, b) => b - a);
        expect(remaining).to.deep.equal(answers.map((_, i) => 599 - i));
        const [after] = await log(e.path);
        expect(after.attempts.map((a: any) => [a.attempt, a.statusCode, a.redelivery])).to.deep.equal([
          [1, 200, false],
          [2, 200, true],
        ]);
      });
    });

    describe(`the attempts kept, of a ${subject}’s event`, () => {
      it('keeps an event’s first attempt and its last 20, counting those between in attemptsOmitted and by outcome', async () => {
        await start({ SVC_WEBHOOK_RETRY_SCHEDULE: Array(25).fill(0).join(',') });
        replies = Array.from({ length: 24 }, (_, i) => ({ status: i % 2 ? 500 : 302 }));
        const e = await event(subject);
        expect(await dispatcher.tick()).to.equal(25);
        let [entry] = await log(e.path);
        expect(entry.state).to.equal('delivered');
        expect(entry.attempts.map((a: any) => a.attempt)).to.deep.equal([1, ...range(6, 25)]);
        expect(entry.attempts.map((a: any) => a.statusCode)).to.deep.equal([302, ...range(6, 24).map((n) => (n % 2 ? 302 : 500)), 200]);
        expect(entry.attemptsOmitted).to.equal(4);
        expect(await omitted()).to.deep.equal([['http_error', 4]]);

        const queued = await redeliver(e);
        expect(queued.status).to.equal(202);
        expect(queued.body).to.include({ state: 'pending', attemptsOmitted: 4 });
        expect(await dispatcher.tick()).to.equal(1);
        [entry] = await log(e.path);
        expect(entry.attempts.map((a: any) => a.attempt)).to.deep.equal([1, ...range(7, 26)]);
        expect(entry.attempts.at(-1)).to.include({ attempt: 26, statusCode: 200, redelivery: true });
        expect(entry.attemptsOmitted).to.equal(5);
        expect(await omitted()).to.deep.equal([['http_error', 5]]);
      });

      it('says attemptsOmitted 0 for an event that keeps every attempt', async () => {
        await start();
        const e = await event(subject, { delivered: true });
        const [entry] = await log(e.path);
        expect(entry).to.include({ state: 'delivered', attemptsOmitted: 0 });
        expect(entry.attempts).to.have.length(1);
      });
    });
  }

  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  async function omitted(): Promise<[string, number][]> {
    const rows = await srv.deps.store.db.selectFrom('webhook_attempts_omitted').select(['outcome', 'attempts']).orderBy('outcome').execute();
    return rows.map((r) => [r.outcome, Number(r.attempts)]);
  }
});
