// Every operation of openapi.yaml, walked with a catalogue of bad inputs: each parameter missing, repeated,
// over-long, of the wrong type or holding U+0000, and bad bodies (not JSON, not an object, nested too deep, an
// unknown field, each property of the wrong type or holding U+0000, the wrong media type, bytes that are not
// UTF-8, too large). Every answer must be one the operation declares, with a token its schema lists (the contract
// helper checks both on every response), and none may be a 500. On both stores.
import { expect } from 'chai';
import { MAX_NESTING } from '../../server/src/contract/json-nesting.js';
import { HTTP_METHODS, loadDocument, resolveRef, type Operation, type Parameter, type Schema } from '../../server/src/contract/openapi-document.js';
import { assertContract, type RequestOptions } from '../support/contract.js';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';

const doc = loadDocument();

interface Walked {
  template: string;
  method: string;
  op: Operation;
}

const operations: Walked[] = Object.entries(doc.paths).flatMap(([template, item]) =>
  HTTP_METHODS.filter((m) => item[m] && template.startsWith('/v1/agent')).map((m) => ({ template, method: m.toUpperCase(), op: item[m]! })),
);

interface Probe {
  what: string;
  path: string;
  opts: RequestOptions;
}

const json = (body: unknown, headers: Record<string, string> = {}): RequestOptions => ({
  rawBody: typeof body === 'string' ? body : JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});
const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

/** A valid body for the operation: its first example. */
function exampleBody(op: Operation): Record<string, unknown> {
  const content = op.requestBody!.content['application/json'] as { example?: unknown; examples?: Record<string, { value: unknown }> };
  return (content.example ?? Object.values(content.examples ?? {})[0]?.value) as Record<string, unknown>;
}

/** What a value of the wrong type is for a schema: a number for text, text for anything else. */
const wrongType = (schema: Schema) => (schema.type === 'string' ? 12345 : 'not-the-type');

/** The catalogue for one operation; `ids` fills path parameters with values that name something where possible. */
function probes({ template, method, op }: Walked, ids: Record<string, string>, limitOf: (op: Operation) => number): Probe[] {
  const fill = (over: Record<string, string> = {}) => template.replace(/\{(\w+)\}/g, (_m, name: string) => over[name] ?? ids[name] ?? 'x');
  const base = fill();
  const params = (op.parameters ?? []).map((p) => resolveRef<Parameter>(doc, p));
  const withBody = (opts: RequestOptions): RequestOptions => (op.requestBody ? { ...json(exampleBody(op)), ...opts, headers: { ...json(exampleBody(op)).headers, ...opts.headers } } : opts);
  const out: Probe[] = [
    { what: 'as it is', path: base, opts: withBody({}) },
    { what: 'without a key', path: base, opts: withBody({ key: null }) },
    { what: 'with a key of the wrong form', path: base, opts: withBody({ key: 'sk_live_nope' }) },
    { what: 'with a query parameter it does not define', path: `${base}?surprise=%00`, opts: withBody({}) },
  ];
  if (!op.requestBody && method !== 'GET') out.push({ what: 'with a body it does not take', path: base, opts: json('{"not json') });
  for (const p of params) {
    if (p.in === 'path') {
      // Empty in the last segment, the path is the collection's (`/calls/`), another operation.
      const empty = template.endsWith(`{${p.name}}`) ? [] : [['empty', '']];
      for (const [what, value] of [...empty, ['U+0000', '%00'], ['over-long', 'a'.repeat(10_000)], ['a byte that is not UTF-8', '%ff']]) {
        out.push({ what: `path ${p.name} ${what}`, path: fill({ [p.name]: value }), opts: withBody({}) });
      }
    } else if (p.in === 'query') {
      const ok = p.schema.type === 'integer' ? '5' : 'abc';
      for (const [what, query] of [
        ['repeated', `${p.name}=${ok}&${p.name}=${ok}`],
        ['over-long', `${p.name}=${'9'.repeat(10_000)}`],
        ['empty', `${p.name}=`],
        ['of the wrong type', `${p.name}=${p.schema.type === 'integer' ? '1.5' : '%7B%7D'}`],
        ['negative', `${p.name}=-1`],
        ['U+0000', `${p.name}=%00`],
        ['a byte that is not UTF-8', `${p.name}=%ff`],
      ]) {
        out.push({ what: `query ${p.name} ${what}`, path: `${base}?${query}`, opts: withBody({}) });
      }
    } else {
      for (const [what, value] of [
        ['over-long', 'k'.repeat(300)],
        ['repeated', 'a, b'],
        ['empty', ''],
        ['with a space', 'a b'],
        ['with Latin-1', 'clé'],
      ]) {
        out.push({ what: `header ${p.name} ${what}`, path: base, opts: withBody({ headers: { [p.name]: value } }) });
      }
    }
  }
  if (op.requestBody) {
    const example = exampleBody(op);
    const schema = resolveRef<Schema>(doc, op.requestBody.content['application/json'].schema);
    const limit = limitOf(op);
    const bodies: [string, RequestOptions][] = [
      ['no body', { headers: { 'content-type': 'application/json' } }],
      ['an empty body', json('')],
      ['JSON cut short', json(JSON.stringify(example).slice(0, -1))],
      ['not JSON', json("{'to': 1}")],
      ['an array', json([example])],
      ['a string', json('"x"')],
      ['null', json('null')],
      ['a number', json('7')],
      ['nested too deep as a whole', json(deep(MAX_NESTING + 1))],
      ['nested 100,000 levels in an unknown field', json(`${JSON.stringify(example).slice(0, -1)},"deep":${deep(Math.min(100_000, Math.floor(limit / 2) - 1000))}}`)],
      ['an unknown field', json({ ...example, surprise: 1 })],
      ['text/plain', { rawBody: JSON.stringify(example), headers: { 'content-type': 'text/plain' } }],
      ['no content type', { rawBody: JSON.stringify(example), headers: { 'content-type': '' } }],
      ['a Latin-1 charset', { rawBody: JSON.stringify(example), headers: { 'content-type': 'application/json; charset=latin1' } }],
      ['bytes that are not UTF-8', { rawBody: Buffer.concat([Buffer.from('{"x":"'), Buffer.from([0xff]), Buffer.from('"}')]), headers: { 'content-type': 'application/json' } }],
      ['one byte too large', json(`${JSON.stringify(example).slice(0, -1)},"pad":"${'p'.repeat(limit)}"}`.slice(0, limit + 1))],
    ];
    for (const [prop, propSchema] of Object.entries<Schema>(schema.properties ?? {})) {
      const resolved = resolveRef<Schema>(doc, propSchema);
      bodies.push([`${prop} of the wrong type`, json({ ...example, [prop]: wrongType(resolved) })]);
      bodies.push([`${prop} an object`, json({ ...example, [prop]: { a: 'b' } })]);
      bodies.push([`${prop} holding U+0000`, json({ ...example, [prop]: 'a\u0000b' })]);
      bodies.push([`${prop} over-long`, json({ ...example, [prop]: 'o'.repeat(Math.min(20_000, limit / 2)) })]);
      bodies.push([`${prop} null`, json({ ...example, [prop]: null })]);
      bodies.push([`${prop} missing`, json(Object.fromEntries(Object.entries(example).filter(([k]) => k !== prop)))]);
    }
    for (const [what, opts] of bodies) out.push({ what: `body ${what}`, path: base, opts });
  }
  return out;
}

/**
 * One request, its answer checked by the contract helper. A stream's body is not read (it stays open): its status
 * and headers are what the contract says of it.
 */
async function send(baseUrl: string, key: string, method: string, path: string, opts: RequestOptions): Promise<{ status: number; error?: string; text: string }> {
  const sent = opts.key === undefined ? key : opts.key;
  const headers: Record<string, string> = { ...(sent ? { authorization: `Bearer ${sent}` } : {}), ...opts.headers };
  const body = opts.rawBody === undefined ? undefined : typeof opts.rawBody === 'string' ? opts.rawBody : new Blob([new Uint8Array(opts.rawBody)]);
  const res = await fetch(baseUrl + path, { method, headers, body });
  const type = res.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) {
    await res.body?.cancel();
    assertContract(method, path.split('?')[0], res.status, res.headers, '{}');
    return { status: res.status, text: '' };
  }
  const text = Buffer.from(await res.arrayBuffer()).toString('utf8');
  const isJson = type.startsWith('application/json');
  assertContract(method, path.split('?')[0], res.status, res.headers, isJson ? text : '{}');
  return { status: res.status, error: isJson ? JSON.parse(text).error : undefined, text };
}

forEachStore('every operation against bad input', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  let ids: Record<string, string>;
  before(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant({ rateLimit: 100_000 });
    const callId = (await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' } })).body.callId;
    const batchId = (await alice.api.post('/v1/agent/batches', { body: { defaults: { objective: 'Ask about Sunday.' }, calls: [{ to: '+14155550124' }] } })).body.batchId;
    await alice.api.post('/v1/agent/do-not-call', { body: { number: '+14155550125' } });
    ids = { callId, batchId, number: '%2B14155550125', eventId: `${callId}:call.completed:1` };
  });
  after(() => srv.close());

  const limitOf = (op: Operation) => op['x-max-body-bytes'] ?? srv.deps.config.maxBodyBytes;

  for (const walked of operations) {
    it(`answers every bad input to ${walked.op.operationId} with a status and token it declares, never 500`, async function () {
      this.timeout(120_000);
      const filled = { id: walked.template.includes('/batches/') ? ids.batchId : ids.callId, eventId: ids.eventId, number: ids.number };
      const seen = new Set<string>();
      for (const probe of probes(walked, filled, limitOf)) {
        const res = await send(srv.baseUrl, alice.key, walked.method, probe.path, probe.opts).catch((err: Error) => {
          throw new Error(`${probe.what}: ${err.message}`);
        });
        expect(res.status, `${probe.what}: ${res.text.slice(0, 200)}`).to.be.below(500);
        seen.add(`${res.status} ${res.error ?? ''}`.trim());
      }
      expect(seen.size).to.be.above(0);
    });
  }
});
