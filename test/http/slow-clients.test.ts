// The server's limits for slow and broken clients: a trickled body or header is cut with 408 and the API's error
// body, malformed framing gets a JSON 400 or 431, and idle kept-alive connections close on time.
import { expect } from 'chai';
import { connect } from 'node:net';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';

interface Exchange {
  /** Everything the server sent before it closed the connection. */
  text: string;
  /** Milliseconds from the connection to its close by the server. */
  closedAfterMs: number;
}

/** Opens a raw connection, writes `head` and then each of `drip` one `everyMs` apart, until the server closes it. */
function exchange(baseUrl: string, head: string, drip: string[] = [], everyMs = 0): Promise<Exchange> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (d) => (text += d));
    socket.on('error', reject);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, closedAfterMs: Date.now() - started });
    });
    socket.write(head);
    let i = 0;
    if (drip.length > 0) {
      timer = setInterval(() => {
        if (i < drip.length && socket.writable) socket.write(drip[i++]);
      }, everyMs);
    }
  });
}

const statusAndBody = (text: string) => ({ status: text.split('\r\n')[0], body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) });
const headersOf = (text: string) => text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase();

forEachStore('slow and broken clients', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startServer(kind, { SVC_HTTP_HEADERS_TIMEOUT_MS: '600', SVC_HTTP_REQUEST_TIMEOUT_MS: '1200', SVC_HTTP_KEEP_ALIVE_TIMEOUT_MS: '400' });
    alice = await srv.tenant();
  });
  afterEach(() => srv.close());

  const callCount = async () =>
    Number(
      (
        await srv.deps.store.db
          .selectFrom('calls')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('cuts a body trickled a byte at a time at the request timeout with 408 request_timeout, and places nothing', async () => {
    const body = JSON.stringify({ to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' });
    const head = `POST /v1/agent/calls HTTP/1.1\r\nHost: svc\r\nAuthorization: Bearer ${alice.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const res = await exchange(srv.baseUrl, head, [...body], 100);
    expect(statusAndBody(res.text)).to.deep.equal({
      status: 'HTTP/1.1 408 Request Timeout',
      body: { error: 'request_timeout', message: 'The request did not arrive in time: headers within 0.6 s, the whole request within 1.2 s.' },
    });
    expect(headersOf(res.text)).to.include('connection: close');
    // Cut at the limit, give or take Node's checking interval (a quarter of the headers timeout here) and a busy
    // machine's delays, and long before the body (about 6 s at this pace) would have ended.
    expect(body.length * 100).to.be.above(5000);
    expect(res.closedAfterMs).to.be.within(1200, 1200 + 1500);
    expect(await callCount()).to.equal(0);
  });

  it('cuts headers trickled a byte at a time at the headers timeout with 408 request_timeout', async () => {
    const head = `GET /v1/agent/calls HTTP/1.1\r\nHost: svc\r\nAuthorization: Bearer ${alice.key}\r\n`;
    const res = await exchange(srv.baseUrl, head.slice(0, 10), [...head.slice(10), 'X-Slow: 1\r\n'.repeat(20)], 100);
    expect(statusAndBody(res.text).status).to.equal('HTTP/1.1 408 Request Timeout');
    expect(statusAndBody(res.text).body.error).to.equal('request_timeout');
    expect(res.closedAfterMs).to.be.within(600, 600 + 1500);
  });

  it('closes an idle kept-alive connection after the keep-alive timeout, and says so in Keep-Alive', async () => {
    const res = await exchange(srv.baseUrl, `GET /healthz HTTP/1.1\r\nHost: svc\r\n\r\n`);
    expect(res.text.split('\r\n')[0]).to.equal('HTTP/1.1 200 OK');
    expect(headersOf(res.text)).to.include('keep-alive: timeout=0'); // 400 ms, in whole seconds
    // Node closes one second after the time it announces, so a client reusing the connection at the last moment
    // never meets a closed socket.
    expect(res.closedAfterMs).to.be.within(400 + 1000, 400 + 1000 + 1000);
  });

  it('answers a request line that is not HTTP with 400 malformed_request and closes', async () => {
    const res = await exchange(srv.baseUrl, 'HELLO THERE\r\n\r\n');
    expect(statusAndBody(res.text)).to.deep.equal({
      status: 'HTTP/1.1 400 Bad Request',
      body: { error: 'malformed_request', message: 'The request is not well-formed HTTP/1.1.' },
    });
  });

  it('answers headers over 16 KiB with 431 headers_too_large and closes', async () => {
    const res = await exchange(srv.baseUrl, `GET /healthz HTTP/1.1\r\nHost: svc\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
    expect(statusAndBody(res.text)).to.deep.equal({
      status: 'HTTP/1.1 431 Request Header Fields Too Large',
      body: { error: 'headers_too_large', message: 'The request headers are larger than 16 KiB.' },
    });
  });

  /** The rate-limit headers of an answer, by name. */
  const limitsOf = (text: string) =>
    Object.fromEntries(
      headersOf(text)
        .split('\r\n')
        .filter((line) => line.startsWith('ratelimit-'))
        .map((line) => line.split(': ')),
    );

  it("gives a 431 and a 400 malformed_request on an API path the address window's rate-limit headers, each counted", async () => {
    const big = await exchange(srv.baseUrl, `GET /v1/agent/calls HTTP/1.1\r\nHost: svc\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
    expect(statusAndBody(big.text).status).to.equal('HTTP/1.1 431 Request Header Fields Too Large');
    expect(limitsOf(big.text)).to.deep.equal({ 'ratelimit-limit': '60', 'ratelimit-remaining': '59', 'ratelimit-reset': '30', 'ratelimit-policy': '60;w=60' });
    const broken = await exchange(srv.baseUrl, `GET /v1/agent/calls HTTP/1.1\r\nHost: svc\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n`);
    expect(statusAndBody(broken.text)).to.deep.equal({ status: 'HTTP/1.1 400 Bad Request', body: { error: 'malformed_request', message: 'The request is not well-formed HTTP/1.1.' } });
    expect(limitsOf(broken.text)).to.deep.equal({ 'ratelimit-limit': '60', 'ratelimit-remaining': '58', 'ratelimit-reset': '30', 'ratelimit-policy': '60;w=60' });
  });

  it('counts the requests it cuts against their address: past its window, a request without a key is 429', async () => {
    const strict = await startServer(kind, { SVC_UNAUTH_RATE_LIMIT: '2' });
    try {
      for (let i = 0; i < 2; i++) expect(statusAndBody((await exchange(strict.baseUrl, 'HELLO THERE\r\n\r\n')).text).status).to.equal('HTTP/1.1 400 Bad Request');
      const past = await exchange(strict.baseUrl, 'HELLO THERE\r\n\r\n');
      expect(statusAndBody(past.text).body.error).to.equal('malformed_request');
      expect(limitsOf(past.text)['ratelimit-remaining']).to.equal('0');
      const anon = await strict.anon.get('/v1/agent/calls');
      expect([anon.status, anon.body.error, anon.headers.get('ratelimit-remaining')]).to.deep.equal([429, 'rate_limited', '0']);
      // A key's requests are counted against the key, not the address.
      const bob = await strict.tenant();
      expect((await bob.api.get('/v1/agent/calls')).status).to.equal(200);
    } finally {
      await strict.close();
    }
  });
});

describe('the server timeouts by default', () => {
  let srv: TestServer;
  beforeEach(async () => (srv = await startServer('sqlite')));
  afterEach(() => srv.close());

  it('are 10 s for headers, 30 s for the whole request and 65 s between requests', () => {
    const server = srv.httpServer;
    expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout]).to.deep.equal([10_000, 30_000, 65_000]);
  });
});
