// Property: whatever arrives at POST /v1/agent/calls — random JSON, wrong types, junk headers — the answer is
// never a 5xx, every error body matches the schema (the contract helper checks each response), and no
// rejection creates a call.
import { expect } from 'chai';
import fc from 'fast-check';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';

const PROPERTY_RUNS = Number(process.env.SVC_FUZZ_RUNS ?? 1500);

const anyJson = fc.jsonValue({ maxDepth: 3 });
const phoneish = fc.oneof(
  fc.constantFrom('+14155550123', '+441534123456', '+18765551234', '+19005551234', '+870773111632', '+97231234567', '', ' ', '+', '+1', '0014155550123'),
  fc.stringMatching(/^\+?[0-9 ()-]{0,18}$/),
  anyJson,
);
const field = fc.record(
  {
    name: fc.oneof(fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/), anyJson),
    type: fc.oneof(fc.constantFrom('string', 'boolean', 'number', 'date'), anyJson),
    description: fc.oneof(fc.string(), anyJson),
  },
  { requiredKeys: [] },
);
const body = fc.record(
  {
    to: phoneish,
    objective: fc.oneof(fc.string({ maxLength: 60 }), fc.constant('Ask whether the shop is open on Sunday.'), anyJson),
    context: fc.oneof(fc.string(), anyJson),
    fields: fc.oneof(fc.array(field, { maxLength: 22 }), anyJson),
    webhookUrl: fc.oneof(fc.constantFrom('https://example.com/h', 'http://example.com/h', 'https://10.0.0.1/h', 'https://u:p@example.com', 'nope'), anyJson),
    callerId: fc.oneof(fc.constantFrom('+14155550100', '+14155550199', 'x'), anyJson),
    voice: fc.oneof(fc.constantFrom('alloy', 'ALLOY', 'nope'), anyJson),
    language: fc.oneof(fc.constantFrom('en-us', 'auto', 'he', 'zz', 'en_US!'), anyJson),
    extra: anyJson,
  },
  { requiredKeys: [] },
);
const request = fc.record({
  body: fc.oneof({ weight: 6, arbitrary: body }, { weight: 1, arbitrary: anyJson }),
  raw: fc.option(fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('{', '{"to":', 'null', '[]', '""', '{"to": "+1"}}')), { freq: 5 }),
  contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/merge-patch+json', 'application/json; charset=latin1'),
  idempotencyKey: fc.option(fc.oneof(fc.string({ maxLength: 8 }), fc.stringMatching(/^[\x21-\x7e]{1,20}$/)), { freq: 3 }),
});

forEachStore('placeCall under random input', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  before(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant({ rateLimit: 1_000_000 });
  });
  after(() => srv.close());

  it(`never answers 5xx, always with a contract-valid body, and creates a call only on 202 (${PROPERTY_RUNS} runs)`, async function () {
    this.timeout(240_000);
    const accepted = new Set<string>();
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers: Record<string, string> = { 'content-type': r.contentType };
        if (r.idempotencyKey !== null) headers['idempotency-key'] = r.idempotencyKey;
        const res = await alice.api.post('/v1/agent/calls', { rawBody: r.raw ?? JSON.stringify(r.body), headers });
        expect(res.status).to.be.below(500);
        if (res.status === 202) accepted.add(res.body.callId);
        else expect(res.body.error).to.be.a('string');
      }),
      { numRuns: PROPERTY_RUNS },
    );
    const rows = await srv.deps.store.db.selectFrom('calls').select('id').execute();
    expect(new Set(rows.map((r) => r.id))).to.deep.equal(accepted);
  });
});
