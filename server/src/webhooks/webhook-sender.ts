// One HTTP POST of a signed delivery to a checked endpoint, with node:http/https so the connection goes to the
// checked address (a `lookup` that answers only it), redirects are never followed and one deadline covers the
// whole exchange.
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { CheckedEndpoint } from './endpoint-guard.js';

export const USER_AGENT = 'svc-webhooks/1.0';

export interface SendResult {
  /** The response status, or null when there was none (connection error, timeout). */
  status: number | null;
  retryAfter: string | undefined;
  error: string | null;
}

/** http.request/https.request; injected so tests can see (or stop) every connection attempt. */
export type RequestFn = (options: https.RequestOptions, onResponse: (res: http.IncomingMessage) => void) => http.ClientRequest;

export const defaultRequest: RequestFn = (options, onResponse) => (options.protocol === 'https:' ? https.request(options, onResponse) : http.request(options, onResponse));

/** Answers every lookup with the checked address, in the shape the caller asked for (single or all). */
export function pinnedLookup(endpoint: CheckedEndpoint): LookupFunction {
  const { address, family } = endpoint.address;
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
}

export interface SendOptions {
  endpoint: CheckedEndpoint;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  agents: { http: http.Agent; https: https.Agent };
  request: RequestFn;
}

export function sendDelivery(o: SendOptions): Promise<SendResult> {
  const { url, hostname } = o.endpoint;
  const https_ = url.protocol === 'https:';
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = o.request(
      {
        protocol: url.protocol,
        host: hostname,
        port: url.port || (https_ ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        agent: https_ ? o.agents.https : o.agents.http,
        lookup: pinnedLookup(o.endpoint),
        // SNI and certificate checks use the name, never the address we pinned (an IP literal sends no SNI).
        servername: https_ && !isIP(hostname) ? hostname : undefined,
        headers: { ...o.headers, 'Content-Length': String(Buffer.byteLength(o.body)) },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const retryAfter = res.headers['retry-after'];
        // The body is not needed, only drained so a kept-alive socket can be reused.
        res.resume();
        res.on('end', () => done({ status, retryAfter, error: status >= 200 && status < 300 ? null : statusError(status) }));
        res.on('error', (e) => done({ status, retryAfter, error: `response aborted: ${e.message}` }));
      },
    );
    const timer = setTimeout(() => {
      done({ status: null, retryAfter: undefined, error: `timed out after ${o.timeoutMs} ms` });
      req.destroy();
    }, o.timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => done({ status: null, retryAfter: undefined, error: `connection failed: ${e.code ?? e.message}` }));
    req.end(o.body);
  });
}

function statusError(status: number): string {
  return status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}`;
}
