// One request to a client's tool (the placement's `tools`): the ToolRequest POSTed to the tool's url, signed
// exactly as a webhook delivery is (X-SVC-Signature over the same secrets, signature.ts), through the same SSRF
// guard (the host resolved once, every address public unless SVC_WEBHOOK_ALLOW_PRIVATE, the connection pinned
// to the checked address: endpoint-guard.ts, webhook-sender.ts's pinned lookup), with one deadline over the whole
// exchange. A url whose host is an IP address needs no lookup, and its check gives the same answer every time: it
// is made once per process, and the requests after it skip the parse and the lookup's deadline. Unlike a
// delivery, the answer is the point: it is read, at most MAX_ANSWER_BYTES, and must be JSON.
// A request is never retried (the model is waiting, and a tool may not be safe to call twice), and redirects are
// never followed. What went wrong is said without the URL or its host, since it is told to the model and kept on
// the record.
import type http from 'node:http';
import type https from 'node:https';
import { isIP } from 'node:net';
import { checkEndpoint, RefusedDestination, type CheckedEndpoint, type Resolver } from './endpoint-guard.js';
import { SIGNATURE_HEADER, signatureHeader } from './signature.js';
import { pinnedLookup, type RequestFn } from './webhook-sender.js';

export const TOOL_USER_AGENT = 'svc-tools/1.0';
/** The largest answer a tool may give: more is a failure, and the rest is not read. */
export const MAX_ANSWER_BYTES = 16 * 1024;

export interface ToolRequestOptions {
  url: string;
  /** The ToolRequest as JSON: the bytes signed and sent. */
  body: string;
  /** The key's signing secrets, newest first (webhook-secrets.ts's signingSecrets). */
  secrets: readonly string[];
  /** Unix seconds for the signature's t. */
  timestampSec: number;
  timeoutMs: number;
  allowPrivate: boolean;
  resolver: Resolver;
  agents: { http: http.Agent; https: https.Agent };
  request: RequestFn;
  /** Aborted when the call ends first: the request is dropped. */
  signal?: AbortSignal;
}

export type ToolAnswer = { status: 'ok'; answer: unknown } | { status: 'failed' | 'timeout'; error: string };

/** The checked endpoints of urls whose host is an IP address, by address rule and url. */
const literalEndpoints = new Map<string, CheckedEndpoint>();
/** More distinct urls than this and the checks kept are dropped, and made again as they come. */
const MAX_LITERAL_ENDPOINTS = 1000;

/** POSTs the signed request and reads the tool's answer; never throws. */
export async function requestTool(o: ToolRequestOptions): Promise<ToolAnswer> {
  const deadline = performance.now() + o.timeoutMs;
  const timedOut = (): ToolAnswer => ({ status: 'timeout', error: `the tool did not answer within ${o.timeoutMs} ms` });
  if (o.signal?.aborted) return ended();
  const literalKey = `${o.allowPrivate ? 1 : 0} ${o.url}`;
  let endpoint = literalEndpoints.get(literalKey);
  if (!endpoint) {
    try {
      // The lookup counts against the deadline too: a resolver that hangs is a tool that does not answer.
      endpoint = await withDeadline(checkEndpoint(o.url, { allowPrivate: o.allowPrivate, resolver: o.resolver }), deadline - performance.now());
    } catch (err) {
      if (err === DEADLINE) return timedOut();
      if (err instanceof RefusedDestination) return { status: 'failed', error: "the tool's URL is refused: only https to a public address is allowed" };
      return { status: 'failed', error: `the tool's host could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'no address'})` };
    }
    if (isIP(endpoint.hostname)) {
      if (literalEndpoints.size >= MAX_LITERAL_ENDPOINTS) literalEndpoints.clear();
      literalEndpoints.set(literalKey, endpoint);
    }
    if (o.signal?.aborted) return ended();
  }
  const { url, hostname } = endpoint;
  const secure = url.protocol === 'https:';
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': TOOL_USER_AGENT,
    [SIGNATURE_HEADER]: signatureHeader(o.body, o.secrets, o.timestampSec),
    'Content-Length': String(Buffer.byteLength(o.body)),
  };
  return new Promise<ToolAnswer>((resolve) => {
    let settled = false;
    const done = (a: ToolAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      resolve(a);
    };
    const req = o.request(
      {
        protocol: url.protocol,
        host: hostname,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        agent: secure ? o.agents.https : o.agents.http,
        lookup: pinnedLookup(endpoint),
        servername: secure && !isIP(hostname) ? hostname : undefined,
        headers,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          res.resume();
          const why = status >= 300 && status < 400 ? ` (redirects are not followed)` : '';
          return done({ status: 'failed', error: `the tool answered HTTP ${status}${why}` });
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            done({ status: 'failed', error: `the tool's answer is larger than ${MAX_ANSWER_BYTES / 1024} KiB` });
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => done(parsed(Buffer.concat(chunks))));
        res.on('error', () => done({ status: 'failed', error: "the tool's answer broke off" }));
      },
    );
    const timer = setTimeout(
      () => {
        done(timedOut());
        req.destroy();
      },
      Math.max(0, deadline - performance.now()),
    );
    const onAbort = () => {
      done(ended());
      req.destroy();
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (e: NodeJS.ErrnoException) => done({ status: 'failed', error: `the tool could not be reached (${e.code ?? 'connection failed'})` }));
    req.end(o.body);
  });
}

const ended = (): ToolAnswer => ({ status: 'failed', error: 'the call ended before the tool answered' });

/** The answer's JSON, or the failure of one that is not. */
function parsed(bytes: Buffer): ToolAnswer {
  try {
    return { status: 'ok', answer: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) };
  } catch {
    return { status: 'failed', error: "the tool's answer is not JSON" };
  }
}

const DEADLINE = Symbol('deadline');

/** `work`, or a rejection with DEADLINE once `ms` have passed. */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(DEADLINE), Math.max(0, ms));
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
