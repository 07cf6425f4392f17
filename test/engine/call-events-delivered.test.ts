// Every sandbox outcome, end to end: placed over HTTP, driven by the engine, its events delivered by the
// dispatcher to a real receiver on loopback — the right events in the right order, payloads matching the call
// record and the schema, signatures that Stripe's verifier accepts.
import { expect } from 'chai';
import Stripe from 'stripe';
import { loadDocument } from '../../server/src/contract/openapi-document.js';
import { ajvFor, pointer } from '../../server/src/contract/schema-ajv.js';
import { createWebhookDispatcher } from '../../server/src/webhooks/dispatcher.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';
import { startReceiver, type Receiver } from '../webhooks/support/receiver.js';

const stripe = new Stripe('sk_test_placeholder');
const validateEvent = ajvFor(loadDocument(), { allowPrivateWebhooks: true }).compile({ $ref: pointer('components', 'schemas', 'CallEvent') });
const PAYLOAD_KEYS = [
  'answeredBy',
  'batchId',
  'callId',
  'durationSec',
  'endedAt',
  'error',
  'event',
  'eventId',
  'extracted',
  'metadata',
  'nextCallId',
  'objective',
  'optOut',
  'startedAt',
  'status',
  'summary',
  'timestamp',
  'to',
];

const outcomes: [string, string, string[]][] = [
  ['+14155550123', 'completed', ['call.in_progress', 'call.completed']],
  ['+14155550111', 'no_answer', ['call.no_answer']],
  ['+14155550112', 'voicemail', ['call.voicemail']],
  ['+14155550113', 'declined', ['call.declined']],
  ['+14155550114', 'failed', ['call.failed']],
  ['+14155550115', 'completed', ['call.in_progress', 'call.completed']],
  ['+14155550116', 'failed', ['call.in_progress', 'call.failed']],
  ['+14155550117', 'failed', ['call.failed']],
];

forEachStore('call events delivered to a receiver', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  let rx: Receiver;
  let secret: string;
  beforeEach(async () => {
    srv = await startEngineServer(kind);
    alice = await srv.tenant({ rateLimit: 100 });
    secret = (await srv.deps.store.db.selectFrom('api_keys').select('webhook_secret').where('id', '=', alice.keyId).executeTakeFirstOrThrow()).webhook_secret;
    rx = await startReceiver();
  });
  afterEach(async () => {
    await rx.close();
    await srv.close();
  });

  it('delivers each outcome’s events, in order, with the fields of the call record, each signed', async function () {
    this.timeout(60_000);
    const dispatcher = createWebhookDispatcher({ store: srv.deps.store, clock: srv.clock, config: srv.deps.config });
    const ids = new Map<string, string>();
    for (const [to] of outcomes) {
      const res = await alice.api.post('/v1/agent/calls', {
        body: { to, objective: 'Ask whether the shop is open on Sunday.', fields: [{ name: 'open_sunday', type: 'boolean' }], webhookUrl: `${rx.url}/hooks` },
      });
      ids.set(res.body.callId, to);
      srv.clock.advance(1);
    }
    // The dispatcher runs between the engine's steps, as a worker does: each event goes out when it is built.
    for (const id of ids.keys()) await srv.drive(id, 200, () => dispatcher.tick());
    await dispatcher.stop();

    for (const [id, to] of ids) {
      const [, status, names] = outcomes.find(([n]) => n === to)!;
      const call = (await alice.api.get(`/v1/agent/calls/${id}`)).body;
      expect(call.status, to).to.equal(status);
      // The sandbox says a person picked up the calls it answers, and a machine its voicemail.
      expect(call.answeredBy, to).to.equal(names[0] === 'call.in_progress' ? 'human' : status === 'voicemail' ? 'machine' : null);
      const got = rx.received.filter((r) => JSON.parse(r.body).callId === id);
      expect(
        got.map((r) => JSON.parse(r.body).event),
        to,
      ).to.deep.equal(names);
      for (const r of got) {
        const header = String(r.headers['x-svc-signature']);
        const t = Number(/^t=(\d+)/.exec(header)![1]);
        const event = stripe.webhooks.constructEvent(r.body, header, secret, 300, undefined, t) as unknown as Record<string, unknown>;
        expect(validateEvent(event), `${to} ${r.body}`).to.equal(true);
        expect(Object.keys(event).sort()).to.deep.equal(PAYLOAD_KEYS);
        expect(event.eventId).to.match(new RegExp(`^${id}:${String(event.event).replace('.', '\\.')}:\\d+$`));
        expect(Date.parse(String(event.timestamp))).to.equal(Number(String(event.eventId).split(':')[2]));
        expect(event).to.include({ callId: id, to, objective: 'Ask whether the shop is open on Sunday.', startedAt: call.startedAt, answeredBy: call.answeredBy });
        expect(r.headers['content-type']).to.equal('application/json');
        expect(r.headers['user-agent']).to.equal('svc-webhooks/1.0');
        if (event.event === 'call.in_progress') {
          expect(event).to.include({ status: 'in_progress', endedAt: null, durationSec: null, summary: null, extracted: null, error: null });
        } else {
          expect(event).to.include({ status: call.status, endedAt: call.endedAt, durationSec: call.durationSec, error: call.error });
          expect(event.summary).to.equal(status === 'completed' ? call.summary : null);
          expect(event.extracted).to.deep.equal(status === 'completed' ? call.extracted : null);
        }
      }
      if (got.length === 2) expect(Date.parse(JSON.parse(got[0].body).timestamp)).to.be.below(Date.parse(JSON.parse(got[1].body).timestamp));
    }
    expect(rx.received).to.have.length([...ids.values()].reduce((n, to) => n + outcomes.find(([x]) => x === to)![2].length, 0));
  });
});
