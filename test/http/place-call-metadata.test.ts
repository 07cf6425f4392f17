// metadata: the client's own pairs, checked at placement (400 invalid_metadata), kept and returned exactly as
// given on the record, in list items and in every event, and never told to the carrier, the agent or the analyst.
import { expect } from 'chai';
import type { Analyst } from '../../server/src/analysis/analyst.js';
import { defaultEngineParts } from '../../server/src/engine/default-engine.js';
import { loadConfig } from '../../server/src/config.js';
import { createWebhookDispatcher } from '../../server/src/webhooks/dispatcher.js';
import { SandboxCarrier } from '../../server/src/telephony/sandbox/sandbox-carrier.js';
import type { Agent } from '../../server/src/conversation/agent.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';
import { startReceiver, type Receiver } from '../webhooks/support/receiver.js';

const ok = { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' };
const MARKER = 'marker-7c1e-never-told';
const metadata = { customer_id: 'cus_8841', note: MARKER, 'ünïcødé key': 'émoji 📞 and "quotes"', empty: '' };

forEachStore('placement metadata', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant({ rateLimit: 100 });
  });
  afterEach(() => srv.close());

  const place = (body: Record<string, unknown>) => alice.api.post('/v1/agent/calls', { body: { ...ok, ...body } });

  it('returns the metadata exactly as placed on the call record and in list items, and null without it', async () => {
    const withIt = await place({ metadata });
    expect(withIt.status).to.equal(202);
    const without = await place({});
    const emptyObject = await place({ metadata: {} });
    const explicitNull = await place({ metadata: null });
    const record = await alice.api.get(`/v1/agent/calls/${withIt.body.callId}`);
    expect(record.body.metadata).to.deep.equal(metadata);
    expect(Object.keys(record.body.metadata)).to.deep.equal(Object.keys(metadata));
    expect((await alice.api.get(`/v1/agent/calls/${without.body.callId}`)).body.metadata).to.equal(null);
    expect((await alice.api.get(`/v1/agent/calls/${emptyObject.body.callId}`)).body.metadata).to.deep.equal({});
    expect((await alice.api.get(`/v1/agent/calls/${explicitNull.body.callId}`)).body.metadata).to.equal(null);
    const list = await alice.api.get('/v1/agent/calls');
    const byId = new Map(list.body.calls.map((c: { id: string; metadata: unknown }) => [c.id, c.metadata]));
    expect(byId.get(withIt.body.callId)).to.deep.equal(metadata);
    expect(byId.get(without.body.callId)).to.equal(null);
  });

  it('accepts the limits exactly: 50 keys, keys of 40 characters, values of 500', async () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_x, i) => [`k${String(i).padStart(2, '0')}${'x'.repeat(37)}`, 'v'.repeat(500)]));
    expect(Object.keys(fifty)[0]).to.have.length(40);
    const res = await place({ metadata: fifty });
    expect(res.status).to.equal(202);
    expect((await alice.api.get(`/v1/agent/calls/${res.body.callId}`)).body.metadata).to.deep.equal(fifty);
  });

  const invalid: [string, unknown][] = [
    ['an array', ['a']],
    ['a string', 'order=17'],
    ['a number', 17],
    ['51 keys', Object.fromEntries(Array.from({ length: 51 }, (_x, i) => [`k${i}`, 'v']))],
    ['a key of 41 characters', { ['k'.repeat(41)]: 'v' }],
    ['an empty key', { '': 'v' }],
    ['a value of 501 characters', { k: 'v'.repeat(501) }],
    ['a number value', { k: 17 }],
    ['a boolean value', { k: true }],
    ['a null value', { k: null }],
    ['a nested object', { k: { deeper: 'v' } }],
  ];
  for (const [what, value] of invalid) {
    it(`rejects metadata that is ${what} with 400 invalid_metadata, placing nothing`, async () => {
      const res = await place({ metadata: value });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('invalid_metadata');
      expect(res.body.message).to.match(/metadata/);
      expect((await alice.api.get('/v1/agent/calls')).body.calls).to.have.length(0);
    });
  }

  it('reports an earlier field first: a bad webhookUrl beside bad metadata is invalid_webhook_url', async () => {
    const res = await place({ webhookUrl: 'ftp://example.com', metadata: [] });
    expect(res.body.error).to.equal('invalid_webhook_url');
  });
});

forEachStore('metadata through a whole call', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  let rx: Receiver;
  const told: unknown[] = [];
  beforeEach(async () => {
    told.length = 0;
    // The default agent reads the call's tools' signing secrets from the service's store, made below: it is built
    // on the first conversation.
    let agent: Agent | undefined;
    const defaults = { analyst: defaultEngineParts(loadConfig({}), { db: undefined } as never).analyst };
    const spyAgent: Agent = {
      name: 'scripted',
      converse: (brief) => {
        agent ??= defaultEngineParts(loadConfig({}), srv.deps.store).agent as Agent;
        told.push(brief);
        return agent.converse(brief);
      },
    };
    const spyAnalyst: Analyst = {
      name: defaults.analyst.name,
      analyse: (input) => (told.push(input), defaults.analyst.analyse(input)),
    };
    srv = await startEngineServer(
      kind,
      {},
      {
        agent: spyAgent,
        analyst: spyAnalyst,
        carrier: ({ store }) => {
          const sandbox = new SandboxCarrier(store.db, { timeScale: 1, dialLatencyMs: 0 });
          const dial = sandbox.dial.bind(sandbox);
          sandbox.dial = (request, now) => (told.push(request), dial(request, now));
          return sandbox;
        },
      },
    );
    alice = await srv.tenant({ rateLimit: 100 });
    rx = await startReceiver();
  });
  afterEach(async () => {
    await rx.close();
    await srv.close();
  });

  it('carries it in every event, and tells none of it to the carrier, the agent or the analyst', async () => {
    const dispatcher = createWebhookDispatcher({ store: srv.deps.store, clock: srv.clock, config: srv.deps.config });
    const res = await alice.api.post('/v1/agent/calls', { body: { ...ok, fields: [{ name: 'open_sunday', type: 'boolean' }], webhookUrl: `${rx.url}/hooks`, metadata } });
    const row = await srv.drive(res.body.callId, 200, () => dispatcher.tick());
    await dispatcher.stop();
    expect(row.status).to.equal('completed');
    const events = rx.received.map((r) => JSON.parse(r.body) as { event: string; metadata: unknown });
    expect(events.map((e) => e.event)).to.deep.equal(['call.in_progress', 'call.completed']);
    for (const e of events) expect(e.metadata).to.deep.equal(metadata);
    // The dial, the agent's brief and the analyst's input were all seen, and none holds a value or key of it.
    expect(told).to.have.length(3);
    const seen = JSON.stringify(told);
    expect(seen).to.include('Ask whether the shop is open on Sunday');
    for (const [k, v] of Object.entries(metadata)) {
      expect(seen).to.not.include(k);
      if (v) expect(seen).to.not.include(v);
    }
  });
});
