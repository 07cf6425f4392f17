// A media stream that reaches an api process other than the one holding the call's warm model session (recorded
// as calls.agent_host) is relayed there, WebSocket to WebSocket, message for message: the holder's bridge sees
// Twilio's stream as if Twilio had reached it (the same `start`, token and all) and joins it to its warm session.
// The relayed upgrade says so (RELAY_HEADER), so it is never relayed again. Should the holder not answer within
// RELAY_CONNECT_MS (gone, or unreachable), the stream is served here with a fresh session.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocket, type RawData, type WebSocketServer } from 'ws';
import { MEDIA_STREAM_PATH } from './media-stream.js';

export const RELAY_HEADER = 'x-svc-relayed-stream';
/** How long the holder has to take the relayed stream: it is a process on the same network. */
export const RELAY_CONNECT_MS = 2000;

/** A close code that may be sent on: the reserved ones (no status, abnormal closure) become a normal close. */
const sendable = (code: number) => (code === 1000 || (code >= 3000 && code <= 4999) || (code >= 1001 && code <= 1014 && ![1004, 1005, 1006].includes(code)) ? code : 1000);

/** Relays the upgrade to `holder` (an internal http(s) URL); `serveHere` when the holder cannot be reached. */
export function relayStream(wss: WebSocketServer, req: IncomingMessage, socket: Duplex, head: Buffer, holder: string, callId: string, log: Logger, serveHere: () => void): void {
  const url = new URL(holder.replace(/\/+$/, '') + MEDIA_STREAM_PATH + encodeURIComponent(callId));
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const upstream = new WebSocket(url, { headers: { [RELAY_HEADER]: '1' }, perMessageDeflate: false });
  let settled = false;
  const giveUp = (why: string) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    upstream.terminate();
    log.warn({ callId, holder, why }, 'the process holding the warm session cannot take the stream; serving it here with a fresh session');
    serveHere();
  };
  const timer = setTimeout(() => giveUp('no answer'), RELAY_CONNECT_MS);
  upstream.once('unexpected-response', (_req, res) => giveUp(`answered ${res.statusCode}`));
  upstream.once('error', (err: NodeJS.ErrnoException) => giveUp(err.code ?? 'socket error'));
  upstream.once('open', () => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    wss.handleUpgrade(req, socket, head, (twilio) => {
      log.info({ callId, holder }, 'media stream relayed to the process holding the warm session');
      pipe(twilio, upstream);
    });
  });
}

function pipe(a: WebSocket, b: WebSocket): void {
  const forward = (to: WebSocket) => (data: RawData, isBinary: boolean) => {
    if (to.readyState === WebSocket.OPEN) to.send(data, { binary: isBinary });
  };
  a.on('message', forward(b));
  b.on('message', forward(a));
  const closeOther = (other: WebSocket) => (code: number) => {
    if (other.readyState === WebSocket.OPEN || other.readyState === WebSocket.CONNECTING) other.close(sendable(code));
  };
  a.on('close', closeOther(b));
  b.on('close', closeOther(a));
  a.on('error', () => b.terminate());
  b.on('error', () => a.terminate());
}
