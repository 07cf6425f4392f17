// Opening a vendor's streaming WebSocket, in the port's words for how it fails: a handshake the vendor answers with
// an HTTP status instead of 101 is a ProviderError of that status (refused, throttled with its Retry-After,
// unavailable), a vendor that cannot be reached is unavailable, and one that does not finish the handshake within
// the bound is stalled. Both speech-to-text adapters open their sockets here, so the handshake is read one way.
//
// The key travels in a header and never in the URL, so no error of the socket library quotes it; whatever text the
// vendor sends back (a header, a body) goes through `redact` before it reaches an error message or a log.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { failureOfStatus, ProviderError, retryAfterMs } from './provider-error.js';

/** The most of a refused handshake's body that is read: enough for a vendor's JSON error, no more. */
const BODY_LIMIT = 4096;

export interface SocketTarget {
  provider: string;
  url: string;
  headers: Record<string, string>;
  /** The credential sent in `headers`: removed from any text the vendor sends back. */
  secret: string;
  /** How long the handshake may take before the socket is given up as stalled. */
  timeoutMs: number;
  /** The vendor's reason for a refused handshake, from its headers and body; null when it gives none. */
  describe(status: number, headers: IncomingHttpHeaders, body: string): string | null;
  /** Called as the socket opens, before the promise resolves: where its listeners go, so no early message is missed. */
  opened(ws: WebSocket): void;
}

/** `text` with every occurrence of `secret` (and of a long enough piece of it) replaced. */
export function redact(text: string, secret: string): string {
  if (!secret) return text;
  let out = text.split(secret).join('[redacted]');
  // A vendor may quote part of a key ("sk-abc…wxyz"): any run of a dozen of its characters goes too.
  const piece = 12;
  if (secret.length > piece) {
    for (let i = 0; i + piece <= secret.length; i++) out = out.split(secret.slice(i, i + piece)).join('[redacted]');
  }
  return out;
}

/** Resolves with the open socket; rejects with a ProviderError saying why it is not. */
export function openProviderSocket(target: SocketTarget): Promise<WebSocket> {
  // Compression is not offered: audio gains little from it and would cost CPU on every frame.
  const ws = new WebSocket(target.url, { headers: target.headers, perMessageDeflate: false });
  return new Promise<WebSocket>((resolve, reject) => {
    let settled = false;
    const onError = (err: NodeJS.ErrnoException) => {
      // The library's message names the host and a status at most; its code says enough.
      settle(new ProviderError(target.provider, 'unavailable', `${target.provider} could not be reached (${err.code ?? 'socket error'})`));
    };
    const onClose = () => settle(new ProviderError(target.provider, 'unavailable', `${target.provider} closed the socket during the handshake`));
    const settle = (error: ProviderError | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ws.off('error', onError);
      ws.off('close', onClose);
      if (error) {
        ws.removeAllListeners('open');
        // An error the socket emits while it is torn down is expected and has been reported.
        ws.on('error', () => {});
        ws.terminate();
        reject(error);
      } else {
        target.opened(ws);
        resolve(ws);
      }
    };
    const timer = setTimeout(() => settle(new ProviderError(target.provider, 'stalled', `${target.provider} did not finish the handshake within ${target.timeoutMs} ms`)), target.timeoutMs);
    ws.once('open', () => settle(null));
    ws.once('unexpected-response', (_req, res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      readBody(res, (body) => {
        const reason = target.describe(status, res.headers, body);
        const message = `${target.provider} refused the stream: HTTP ${status}${reason ? ` (${redact(reason, target.secret)})` : ''}`;
        const retryAfter = status === 429 ? retryAfterMs(headerValue(res.headers['retry-after'])) : null;
        settle(new ProviderError(target.provider, failureOfStatus(status), message, retryAfter));
      });
    });
    ws.on('error', onError);
    ws.on('close', onClose);
  });
}

/** Reads up to BODY_LIMIT characters of a response, then hands them on (at the end, or at the limit). */
function readBody(res: IncomingMessage, done: (body: string) => void): void {
  let body = '';
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    res.removeAllListeners('data');
    res.resume();
    done(body);
  };
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    body += chunk;
    if (body.length >= BODY_LIMIT) {
      body = body.slice(0, BODY_LIMIT);
      finish();
    }
  });
  res.once('end', finish);
  res.once('error', finish);
  res.once('close', finish);
}

const headerValue = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** A JSON body's field at `path` when it is a string; null otherwise or when the body is not JSON. */
export function jsonField(body: string, ...path: string[]): string | null {
  try {
    let v: unknown = JSON.parse(body);
    for (const key of path) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined;
    return typeof v === 'string' ? v : null;
  } catch {
    return null;
  }
}
