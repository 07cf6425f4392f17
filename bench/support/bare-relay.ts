// The media benchmark's baseline: a bare `ws` relay. Each socket opened at /twilio/media/<id> gets a socket of its
// own to the realtime server (SVC_REALTIME_URL), and every message is forwarded untouched both ways: what any
// bridge between a carrier's media stream and a model's socket costs at the least (the WebSocket framing in and
// out), with none of svc's work (parsing, translating, marks, checks, turns). Prints `ready <port>`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer, type RawData } from 'ws';

const target = process.env.SVC_REALTIME_URL!;
const server = createServer((_req, res) => res.writeHead(404).end());
const wss = new WebSocketServer({ server, maxPayload: 64 * 1024 });
wss.on('connection', (line) => {
  const model = new WebSocket(`${target}?model=relay`);
  const queued: RawData[] = [];
  model.on('open', () => {
    for (const m of queued.splice(0)) model.send(m, { binary: false });
  });
  line.on('message', (data: RawData) => {
    if (model.readyState === WebSocket.OPEN) model.send(data, { binary: false });
    else if (model.readyState === WebSocket.CONNECTING) queued.push(data);
  });
  model.on('message', (data: RawData) => {
    if (line.readyState === WebSocket.OPEN) line.send(data, { binary: false });
  });
  line.on('close', () => model.close());
  model.on('close', () => line.close());
  line.on('error', () => {});
  model.on('error', () => {});
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(`ready ${(server.address() as AddressInfo).port}`));
