// The loopback receiver of bench/webhook-throughput.ts, in its own process so it does not share the sender's
// event loop: answers every POST 200 once the body is read, and prints its port.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'Content-Length': '0' }).end());
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`));
