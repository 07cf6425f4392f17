// Text in the URL and the headers, on both stores: a path parameter that is not text (an invalid percent-encoding,
// bytes that are not UTF-8, an encoded surrogate, U+0000) names nothing and is 404 on every route that has one; a
// query value that is not text is its parameter's 400; headers holding U+0000 never reach a route. Never a 500
// (Postgres refuses U+0000 in text), and a well-encoded id still finds its resource.
import { expect } from 'chai';
import { connect } from 'node:net';
import { HTTP_METHODS, loadDocument, resolveRef, type Parameter } from '../../server/src/contract/openapi-document.js';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';

const doc = loadDocument();
const NOT_TEXT = 'is not text: it holds an invalid percent-encoding, bytes that are not UTF-8, or U+0000';

/** Path segments and query values that are not text, as sent. */
const notText: [string, string][] = [
  ['U+0000', '%00'],
  ['U+0000 inside an id', '0198f0aa-0000-7000-8000-%00000000000'],
  ['an invalid percent-encoding', '%zz'],
  ['a cut percent-encoding', 'abc%4'],
  ['a byte that is not UTF-8', '%ff'],
  ['an overlong U+0000', '%C0%80'],
  ['an encoded lone surrogate', '%ED%A0%80'],
];

/** Every route with a path parameter, with each of its methods and parameters. */
const routes = Object.entries(doc.paths).flatMap(([template, item]) =>
  HTTP_METHODS.filter((m) => item[m]).flatMap((method) => {
    const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    return names.map((name) => ({ template, method: method.toUpperCase(), operationId: item[method]!.operationId, name, names }));
  }),
);

/** The query parameters of every operation, with their tokens. */
const queries = Object.entries(doc.paths).flatMap(([path, item]) =>
  HTTP_METHODS.filter((m) => item[m]).flatMap((method) =>
    (item[method]!.parameters ?? [])
      .map((p) => resolveRef<Parameter>(doc, p))
      .filter((p) => p.in === 'query')
      .map((p) => ({ path, method: method.toUpperCase(), operationId: item[method]!.operationId, name: p.name, token: p['x-error'] })),
  ),
);

/** Sends raw bytes and returns the status line, the head and the body of the answer. */
function raw(baseUrl: string, request: Buffer): Promise<{ status: string; head: string; body: any }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const head = text.slice(0, text.indexOf('\r\n\r\n'));
      resolve({ status: head.split('\r\n')[0], head: head.toLowerCase(), body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) });
    });
    socket.write(request);
  });
}

forEachStore('text in the URL and the headers', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  let callId: string;
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant({ rateLimit: 1000 });
    callId = (await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' } })).body.callId;
  });
  afterEach(() => srv.close());

  it('has routes with path parameters to walk: every {id}, {eventId} and {number}', () => {
    expect([...new Set(routes.map((r) => r.name))].sort()).to.deep.equal(['eventId', 'id', 'number']);
    expect(routes.length).to.be.at.least(10);
  });

  for (const [what, value] of notText) {
    it(`answers every route whose path parameter holds ${what} with 404 not_found`, async () => {
      for (const { template, method, operationId, name, names } of routes) {
        // The other parameters name something real where they can, so only the one under test can fail.
        let path = template;
        for (const n of names) path = path.replace(`{${n}}`, n === name ? value : n === 'id' && template.startsWith('/v1/agent/calls/') ? callId : 'x');
        const res = await alice.api.request(method, path);
        expect([operationId, res.status, res.body], `${method} ${path}`).to.deep.equal([operationId, 404, { error: 'not_found', message: `The path's \`${name}\` ${NOT_TEXT}, so it names nothing.` }]);
      }
    });

    it(`answers every query parameter holding ${what} with its 400`, async () => {
      for (const { path, method, operationId, name, token } of queries) {
        const res = await alice.api.request(method, `${path}?${name}=${value}`);
        expect([operationId, res.status, res.body], `${method} ${path}?${name}=${value}`).to.deep.equal([operationId, 400, { error: token, message: `${name} ${NOT_TEXT}.` }]);
      }
    });
  }

  it('finds resources by well-encoded ids: a call in capitals, a number with %2B', async () => {
    expect((await alice.api.get(`/v1/agent/calls/${callId.toUpperCase()}`)).body.id).to.equal(callId);
    await alice.api.post('/v1/agent/do-not-call', { body: { number: '+14155550199' } });
    expect((await alice.api.request('DELETE', '/v1/agent/do-not-call/%2B14155550199')).status).to.equal(204);
    const listed = await alice.api.get(`/v1/agent/calls?batchId=${encodeURIComponent('é ü')}`);
    expect([listed.status, listed.body]).to.deep.equal([200, { calls: [], nextCursor: null }]);
  });

  it('answers batchId given twice or longer than 64 characters with 400 invalid_batch_id', async () => {
    const twice = await alice.api.get('/v1/agent/calls?batchId=a&batchId=b');
    expect([twice.status, twice.body]).to.deep.equal([400, { error: 'invalid_batch_id', message: 'batchId must be given once.' }]);
    const long = await alice.api.get(`/v1/agent/calls?batchId=${'a'.repeat(65)}`);
    expect([long.status, long.body.error]).to.deep.equal([400, 'invalid_batch_id']);
  });

  it('refuses an Idempotency-Key with bytes that are not ASCII with 400 invalid_idempotency_key', async () => {
    const body = '{"to":"+14155550123","objective":"Ask whether the shop is open on Sunday."}';
    const head = `POST /v1/agent/calls HTTP/1.1\r\nHost: svc\r\nConnection: close\r\nAuthorization: Bearer ${alice.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nIdempotency-Key: key-`;
    const res = await raw(srv.baseUrl, Buffer.concat([Buffer.from(head), Buffer.from([0xff, 0xed, 0xa0, 0x80]), Buffer.from(`\r\n\r\n${body}`)]));
    expect([res.status, res.body.error]).to.deep.equal(['HTTP/1.1 400 Bad Request', 'invalid_idempotency_key']);
  });

  for (const header of ['Idempotency-Key', 'Last-Event-ID']) {
    it(`answers a ${header} holding U+0000 with 400 malformed_request before any route`, async () => {
      const head = `GET /v1/agent/calls/${callId}/stream HTTP/1.1\r\nHost: svc\r\nAuthorization: Bearer ${alice.key}\r\n${header}: a\u0000b\r\n\r\n`;
      const res = await raw(srv.baseUrl, Buffer.from(head));
      expect([res.status, res.body.error]).to.deep.equal(['HTTP/1.1 400 Bad Request', 'malformed_request']);
    });
  }

  it("takes a Last-Event-ID with bytes that are not ASCII like any other: another key's call is 404", async () => {
    const bob = await srv.tenant();
    const head = `GET /v1/agent/calls/${callId}/stream HTTP/1.1\r\nHost: svc\r\nConnection: close\r\nAuthorization: Bearer ${bob.key}\r\nLast-Event-ID: `;
    const res = await raw(srv.baseUrl, Buffer.concat([Buffer.from(head), Buffer.from([0xff, 0xfe]), Buffer.from('\r\n\r\n')]));
    expect([res.status, res.body.error]).to.deep.equal(['HTTP/1.1 404 Not Found', 'not_found']);
  });
});
