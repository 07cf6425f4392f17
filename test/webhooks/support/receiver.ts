// A real HTTP receiver on loopback that records every request (raw body and headers) and every TCP connection,
// and answers as the test scripts it.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** status and headers to answer with (after delayMs), or 'hang' to never answer. */
export type Reply = { status: number; headers?: Record<string, string>; delayMs?: number } | 'hang';

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  connections: number;
  close(): Promise<void>;
}

/** `reply` may answer later: a promise holds the response until it settles (a test's attempt in flight). */
export async function startReceiver(reply: (req: Received, index: number) => Reply | Promise<Reply> = () => ({ status: 200 })): Promise<Receiver> {
  const hanging: ServerResponse[] = [];
  const r = { received: [] as Received[], connections: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      r.received.push(rec);
      void Promise.resolve(reply(rec, r.received.length - 1)).then((answer) => {
        if (answer === 'hang') return void hanging.push(res);
        const send = () => void res.writeHead(answer.status, answer.headers).end();
        if (answer.delayMs) setTimeout(send, answer.delayMs);
        else send();
      });
    });
  });
  server.on('connection', () => r.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received: r.received,
    get connections() {
      return r.connections;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
