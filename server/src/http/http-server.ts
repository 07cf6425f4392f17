// The HTTP server in front of the app, with its limits for slow clients set here rather than left to Node's
// defaults (which hold a body trickled a byte at a time for five minutes). Whatever the client does to the
// connection itself — too slow, malformed framing, hanging up mid-request — is answered here with the API's
// error body where anyone is still listening, and is never logged as the service's error. Such a request names no
// key (often not even a path), so it counts against its address's window, as a request without a valid key does at
// the key gate, and its answer carries that window's rate-limit headers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { rateLimitHeaders, type WindowState } from '../accounts/rate-limit.js';
import type { HttpTimeouts } from '../config.js';

/** Error codes that mean the client went away or broke its own request; none is a fault of the service. */
export const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED', 'HPE_INVALID_EOF_STATE', 'ERR_HTTP_REQUEST_TIMEOUT']);

export function isClientGone(err: { code?: string }): boolean {
  return err.code !== undefined && CLIENT_GONE.has(err.code);
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface HttpServerOptions {
  handler?: Handler;
  /** Counts a request against its client address's window (key-gate.ts's countAddress); without it, none is. */
  countAddress?: (address: string) => Promise<WindowState>;
}

export function createHttpServer(timeouts: HttpTimeouts, logger: Logger, { handler, countAddress }: HttpServerOptions = {}): Server {
  const server = createServer({
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    // Node looks for expired requests on this interval, so a slow request is cut within it of its limit.
    connectionsCheckingInterval: Math.min(1000, Math.ceil(timeouts.headersMs / 4)),
  });
  if (handler) server.on('request', handler);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => void answerClientError(err, socket, timeouts, logger, countAddress));
  return server;
}

async function answerClientError(err: NodeJS.ErrnoException, socket: Duplex, timeouts: HttpTimeouts, logger: Logger, countAddress: HttpServerOptions['countAddress']): Promise<void> {
  const answer = clientErrorAnswer(err.code, timeouts);
  logger.info({ code: err.code, status: answer.status }, 'request cut');
  // Node's own rule: answer only when nothing of a response has been written on this connection yet.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  const answerable = () => err.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent;
  if (!answerable()) {
    socket.destroy();
    return;
  }
  // A store that cannot count it leaves the answer without the headers, as a 503 store_error has none.
  const address = (socket as Duplex & { remoteAddress?: string }).remoteAddress ?? '';
  const window = await countAddress?.(address).catch(() => undefined);
  if (!answerable()) {
    socket.destroy();
    return;
  }
  const limits = window
    ? Object.entries(rateLimitHeaders(window))
        .map(([name, value]) => `\r\n${name}: ${value}`)
        .join('')
    : '';
  const body = JSON.stringify({ error: answer.token, message: answer.message });
  const head = `HTTP/1.1 ${answer.status} ${answer.reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}${limits}\r\nConnection: close`;
  // Closed once the answer is flushed, whether or not the client ever closes its side.
  socket.end(`${head}\r\n\r\n${body}`, () => socket.destroy());
}

function clientErrorAnswer(code: string | undefined, timeouts: HttpTimeouts) {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    const message = `The request did not arrive in time: headers within ${timeouts.headersMs / 1000} s, the whole request within ${timeouts.requestMs / 1000} s.`;
    return { status: 408, reason: 'Request Timeout', token: 'request_timeout', message };
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, reason: 'Request Header Fields Too Large', token: 'headers_too_large', message: 'The request headers are larger than 16 KiB.' };
  }
  return { status: 400, reason: 'Bad Request', token: 'malformed_request', message: 'The request is not well-formed HTTP/1.1.' };
}
