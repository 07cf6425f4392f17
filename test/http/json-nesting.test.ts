// Bodies nesting arrays and objects deeper than MAX_NESTING (32 levels, the body itself level 1) are refused with
// 400 and the token of the top-level property holding the too-deep value, on every operation that takes a body,
// before anything recursive looks at them: a hundred thousand levels are a 400, never a 500, and nothing is stored.
// Most bodies are limited to 64 KiB, which holds only about 32,000 levels, so the hundred-thousand-level cases run
// against the same document with every body limit raised to 4 MiB; createBatch's own 16 MiB limit holds them as is.
import { expect } from 'chai';
import { MAX_NESTING } from '../../server/src/contract/json-nesting.js';
import { loadDocument, type OpenApiDocument } from '../../server/src/contract/openapi-document.js';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';

const LEVELS = 100_000;
const objective = 'Ask whether the shop is open on Sunday and until what time.';
const ok = { to: '+14155550123', objective };

/** `levels` arrays inside one another (the outermost is one level), as JSON text. */
const arrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
/** `levels` objects inside one another, each `{"k": …}`, around a string. */
const objects = (levels: number) => `${'{"k":'.repeat(levels)}"x"${'}'.repeat(levels)}`;

/** A JSON body: `fields` as they are, then `prop` holding the raw JSON `deep`. */
const bodyWith = (fields: Record<string, unknown>, prop: string, deep: string) => {
  const before = JSON.stringify(fields).slice(1, -1);
  return `{${before}${before ? ',' : ''}${JSON.stringify(prop)}:${deep}}`;
};

const message = (prop: string) => `\`${prop}\` nests arrays and objects more than ${MAX_NESTING} levels deep (the body itself is level 1).`;

function withLargeBodies(): OpenApiDocument {
  const doc = loadDocument();
  for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) if (op.requestBody) op['x-max-body-bytes'] = 4 * 1024 * 1024;
  return doc;
}

interface Case {
  what: string;
  path: string;
  /** Valid fields beside the deep one. */
  fields: Record<string, unknown>;
  prop: string;
  deep: string;
  token: string;
}

const cases: Case[] = [
  { what: 'placeCall metadata', path: '/v1/agent/calls', fields: ok, prop: 'metadata', deep: objects(LEVELS), token: 'invalid_metadata' },
  { what: 'placeCall fields', path: '/v1/agent/calls', fields: ok, prop: 'fields', deep: arrays(LEVELS), token: 'invalid_fields' },
  { what: 'placeCall context', path: '/v1/agent/calls', fields: ok, prop: 'context', deep: objects(LEVELS), token: 'invalid_context' },
  { what: 'placeCall an unknown property', path: '/v1/agent/calls', fields: ok, prop: 'extra', deep: arrays(LEVELS), token: 'unknown_field' },
  { what: 'preflightCall metadata', path: '/v1/agent/calls/preflight', fields: ok, prop: 'metadata', deep: arrays(LEVELS), token: 'invalid_metadata' },
  { what: 'addDoNotCall reason', path: '/v1/agent/do-not-call', fields: { number: '+14155550123' }, prop: 'reason', deep: objects(LEVELS), token: 'invalid_reason' },
  { what: 'addDoNotCall number', path: '/v1/agent/do-not-call', fields: {}, prop: 'number', deep: arrays(LEVELS), token: 'invalid_number' },
  { what: 'createBatch calls', path: '/v1/agent/batches', fields: {}, prop: 'calls', deep: `[${objects(LEVELS)}]`, token: 'invalid_calls' },
  { what: 'createBatch defaults', path: '/v1/agent/batches', fields: { calls: [ok] }, prop: 'defaults', deep: objects(LEVELS), token: 'invalid_defaults' },
  { what: 'createBatch stopWhen', path: '/v1/agent/batches', fields: { calls: [ok] }, prop: 'stopWhen', deep: arrays(LEVELS), token: 'invalid_stop_when' },
];

forEachStore('deeply nested bodies', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startServer(kind, {}, { document: withLargeBodies() });
    alice = await srv.tenant({ rateLimit: 1000 });
  });
  afterEach(() => srv.close());

  const stored = async () => {
    const counts = await Promise.all((['calls', 'batches', 'do_not_call', 'idempotency_keys'] as const).map((t) => srv.deps.store.db.selectFrom(t).selectAll().execute()));
    return counts.map((rows) => rows.length);
  };
  const post = (path: string, rawBody: string, headers: Record<string, string> = {}) => alice.api.post(path, { rawBody, headers: { 'content-type': 'application/json', ...headers } });

  for (const c of cases) {
    it(`refuses ${LEVELS.toLocaleString('en')} levels in ${c.what} with 400 ${c.token}, and stores nothing`, async () => {
      const res = await post(c.path, bodyWith(c.fields, c.prop, c.deep));
      expect([res.status, res.body]).to.deep.equal([400, { error: c.token, message: message(c.prop) }]);
      expect(await stored()).to.deep.equal([0, 0, 0, 0]);
    });
  }

  it('refuses a body that is itself 100,000 nested arrays with 400 invalid_body', async () => {
    const res = await post('/v1/agent/calls', arrays(LEVELS));
    expect([res.status, res.body]).to.deep.equal([
      400,
      { error: 'invalid_body', message: `The request body nests arrays and objects more than ${MAX_NESTING} levels deep (the body itself is level 1).` },
    ]);
  });

  it('refuses a deep placement sent with an Idempotency-Key before its fingerprint is taken, and leaves the key unused', async () => {
    const res = await post('/v1/agent/calls', bodyWith(ok, 'metadata', objects(LEVELS)), { 'idempotency-key': 'deep-1' });
    expect([res.status, res.body.error]).to.deep.equal([400, 'invalid_metadata']);
    const placed = await alice.api.post('/v1/agent/calls', { body: ok, headers: { 'idempotency-key': 'deep-1' } });
    expect([placed.status, placed.headers.get('idempotent-replayed')]).to.deep.equal([202, null]);
  });

  it(`takes ${MAX_NESTING} levels to the schema, and refuses ${MAX_NESTING + 1} at the door`, async () => {
    // The body is level 1 and metadata level 2: metadata holding 30 more objects reaches level 32.
    const within = await post('/v1/agent/calls', bodyWith(ok, 'metadata', objects(MAX_NESTING - 1)));
    expect(within.status).to.equal(400);
    expect(within.body.error).to.equal('invalid_metadata');
    expect(within.body.message).to.not.equal(message('metadata'));
    const past = await post('/v1/agent/calls', bodyWith(ok, 'metadata', objects(MAX_NESTING)));
    expect([past.status, past.body]).to.deep.equal([400, { error: 'invalid_metadata', message: message('metadata') }]);
  });
});

forEachStore('deeply nested bodies within the real limits', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant({ rateLimit: 1000 });
  });
  afterEach(() => srv.close());

  it('refuses 32,000 levels in a placement (as deep as 64 KiB holds) with 400 invalid_metadata', async () => {
    const res = await alice.api.post('/v1/agent/calls', { rawBody: bodyWith(ok, 'metadata', arrays(32_000)), headers: { 'content-type': 'application/json' } });
    expect([res.status, res.body]).to.deep.equal([400, { error: 'invalid_metadata', message: message('metadata') }]);
  });

  it(`refuses ${LEVELS.toLocaleString('en')} levels in a batch's call with 400 invalid_calls`, async () => {
    const body = bodyWith({ defaults: { objective } }, 'calls', `[{"to":"+14155550123","metadata":${objects(LEVELS)}}]`);
    const res = await alice.api.post('/v1/agent/batches', { rawBody: body, headers: { 'content-type': 'application/json' } });
    expect([res.status, res.body]).to.deep.equal([400, { error: 'invalid_calls', message: message('calls') }]);
  });
});
