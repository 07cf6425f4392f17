// The streamed POST the chat model and OpenAI's voice go through: connections kept alive and reused, a body the
// reader is done with drained (or stopped when it does not end), and every way a request fails reaching its reader.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { expect } from 'chai';
import { ProviderHttp, type ProviderResponse } from '../../server/src/speech/provider-http.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

describe('speech/provider-http: a vendor’s streamed answer over kept-alive connections', () => {
  let server: http.Server;
  let url: URL;
  let handler: Handler;
  const sockets = new Set<Socket>();
  let connections = 0;
  let client: ProviderHttp;

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => handler(req, res, body));
    });
    server.on('connection', (s: Socket) => {
      connections++;
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    url = new URL(`http://127.0.0.1:${port}/v1/chat/completions`);
  });
  beforeEach(() => {
    connections = 0;
    client = new ProviderHttp(200);
  });
  afterEach(() => {
    client.close();
    for (const s of sockets) s.destroy();
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const post = (signal = new AbortController().signal) => client.post(url, { 'content-type': 'application/json', authorization: 'Bearer k' }, '{"a":"é"}', signal);
  async function readAll(res: ProviderResponse): Promise<string> {
    const parts: string[] = [];
    for (let c = await res.next(); !c.done; c = await res.next()) parts.push(Buffer.from(c.value).toString('utf8'));
    return parts.join('');
  }
  const settled = (p: Promise<unknown>) =>
    p.then(
      () => 'resolved',
      (err: NodeJS.ErrnoException) => err.code ?? err.name,
    );
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('posts the body with its length and headers, and streams the answer chunk by chunk as it is written', async () => {
    let seen: { method?: string; length?: string; auth?: string; body?: string } = {};
    handler = (req, res, body) => {
      seen = { method: req.method, length: req.headers['content-length'], auth: req.headers.authorization, body };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      setTimeout(() => res.end('data: two\n\n'), 30);
    };
    const res = await post();
    expect(res.status).to.equal(200);
    expect(res.header('Content-Type')).to.equal('text/event-stream');
    expect(res.header('x-absent')).to.equal(null);
    res.utf8();
    const first = await res.next();
    expect(first).to.deep.equal({ done: false, value: 'data: one\n\n' });
    expect(await readAll(res)).to.equal('data: two\n\n');
    expect(seen).to.deep.equal({ method: 'POST', length: String(Buffer.byteLength('{"a":"é"}')), auth: 'Bearer k', body: '{"a":"é"}' });
  });

  it('reuses one connection for requests whose answers were read to their end', async () => {
    handler = (_req, res) => res.end('pcm');
    for (let i = 0; i < 3; i++) expect(await readAll(await post())).to.equal('pcm');
    expect(connections).to.equal(1);
  });

  it('release drains a body that ends on its own, so the next request reuses its connection', async () => {
    handler = (_req, res) => {
      res.write('data: [DONE]\n\n');
      setTimeout(() => res.end(), 20);
    };
    const res = await post();
    await res.next();
    res.release();
    await wait(60);
    await readAll(await post());
    expect(connections).to.equal(1);
  });

  it('release stops a body that does not end within its bound, and closes that connection', async () => {
    let closed = false;
    handler = (req, res) => {
      req.socket.on('close', () => (closed = true));
      res.write('data: [DONE]\n\n');
    };
    const res = await post();
    await res.next();
    res.release();
    await wait(100);
    expect(closed).to.equal(false);
    await wait(250);
    expect(closed).to.equal(true);
  });

  it('cancel closes the connection at once (it is not reused)', async () => {
    handler = (_req, res) => res.write('x');
    const res = await post();
    await res.next();
    res.cancel();
    handler = (_req, res) => res.end('y');
    expect(await readAll(await post())).to.equal('y');
    expect(connections).to.equal(2);
  });

  it('gives a refusal’s status, headers and body as text, bounded', async () => {
    handler = (_req, res) => {
      res.writeHead(429, { 'retry-after': '2' });
      res.end(JSON.stringify({ error: { type: 'rate_limit', code: 'x'.repeat(100) } }));
    };
    const res = await post();
    expect(res.status).to.equal(429);
    expect(res.header('retry-after')).to.equal('2');
    expect(JSON.parse(await res.text())).to.deep.equal({ error: { type: 'rate_limit', code: 'x'.repeat(100) } });
    handler = (_req, res) => res.end('y'.repeat(10_000));
    expect(await (await post()).text(100)).to.equal('y'.repeat(100));
  });

  it('an abort before the answer rejects the request; an abort mid-body makes the next read throw', async () => {
    handler = () => undefined;
    const early = new AbortController();
    const pending = post(early.signal);
    setTimeout(() => early.abort(), 20);
    expect(await settled(pending)).to.equal('ABORT_ERR');

    handler = (_req, res) => res.write('first');
    const late = new AbortController();
    const res = await post(late.signal);
    expect((await res.next()).done).to.equal(false);
    late.abort();
    // The body is cut with its connection (the reader tells an abort from a drop by its own signal).
    expect(await settled(res.next())).to.equal('ECONNRESET');
  });

  it('a connection cut mid-body is an error for the reader, never a clean end', async () => {
    handler = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write('part');
      setTimeout(() => req.socket.destroy(), 20);
    };
    const res = await post();
    expect(Buffer.from((await res.next()).value as Buffer).toString()).to.equal('part');
    expect(await settled(res.next())).to.equal('ECONNRESET');
  });

  it('a server that is not there rejects with its code', async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((r) => probe.close(() => r()));
    const err = await settled(client.post(new URL(`http://127.0.0.1:${port}/v1`), {}, '{}', new AbortController().signal));
    expect(err).to.equal('ECONNREFUSED');
  });
});
