// A client's tool endpoint on 127.0.0.1:0 (http, or https with a certificate of the test's own): it keeps every
// request svc makes to it (path, headers, the raw body as received) and answers each with the next reply queued,
// as a client's server does on good and bad days: a JSON answer, at once or late; another status, a redirect; a
// body that is not JSON or is too large; an answer cut off mid-body; or nothing at all until the request is
// dropped (a request svc gave up on is marked `aborted`).
import { EventEmitter } from 'node:events';
import { createServer as createHttpServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { untilChange } from './until-change.js';

export interface ToolHit {
  method: string;
  /** The path and query as requested. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The body's bytes as received, as text (what a signature is checked over). */
  raw: string;
  /** The client dropped the request before it was answered. */
  aborted: boolean;
}

export interface ToolReply {
  /** 200 unless given. */
  status?: number;
  /** JSON-serialised unless a string (sent as it is). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Waits this long before answering. */
  delayMs?: number;
  /** Never answers: the request is held until the client gives up on it (or the server closes). */
  hold?: boolean;
  /** Sends the headers and half the body, then destroys the socket. */
  cut?: boolean;
}

export class FakeToolServer extends EventEmitter {
  readonly hits: ToolHit[] = [];
  /** The answer to a request with no reply queued. */
  defaultReply: ToolReply = { body: { ok: true } };
  private readonly queue: ToolReply[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {
    super();
  }

  /** Starts the server: plain http, or https with `tls`'s key and certificate. */
  static async start(tls?: { key: string; cert: string }): Promise<FakeToolServer> {
    let fake: FakeToolServer | undefined;
    const handler = (req: IncomingMessage, res: ServerResponse) => fake!.handle(req, res);
    const server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert, keepAliveTimeout: 60_000 }, handler) : createHttpServer({ keepAliveTimeout: 60_000 }, handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    fake = new FakeToolServer(server, `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('connection', (s: Socket) => {
      fake!.sockets.add(s);
      s.on('close', () => fake!.sockets.delete(s));
    });
    return fake;
  }

  /** Queues replies, used in order; a request with none queued gets `defaultReply` (200 `{ "ok": true }` unless set). */
  reply(...replies: ToolReply[]): void {
    this.queue.push(...replies);
  }

  until(test: () => boolean): Promise<void> {
    return untilChange(this, test);
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit: ToolHit = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks).toString('utf8'), aborted: false };
      this.hits.push(hit);
      res.on('close', () => {
        if (!res.writableFinished) {
          hit.aborted = true;
          this.emit('change');
        }
      });
      this.emit('change');
      const reply = this.queue.shift() ?? this.defaultReply;
      if (reply.hold) return;
      const answer = () => this.answer(res, reply);
      if (reply.delayMs) {
        const t = setTimeout(() => {
          this.timers.delete(t);
          answer();
        }, reply.delayMs);
        this.timers.add(t);
      } else answer();
    });
  }

  private answer(res: ServerResponse, reply: ToolReply): void {
    if (res.destroyed) return;
    const body = Buffer.from(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? { ok: true }));
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', 'content-length': String(body.length), ...reply.headers });
    if (reply.cut) {
      res.write(body.subarray(0, Math.floor(body.length / 2)));
      setImmediate(() => res.socket?.destroy());
      return;
    }
    res.end(body);
  }
}
