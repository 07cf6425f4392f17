// Verifies a webhook request from the service: `X-SVC-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]`,
// where v1 is HMAC-SHA256(secret, `<t>.<raw body>`). Signature first, then the timestamp, so a timestamp
// error means "authentic but stale", never a hint to a forger. A request to one of the client's own tools (a
// ToolRequest, the placement's `tools`) is signed the same way with the same secret: verifyToolRequest checks it
// and returns it typed.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CallEvent, ToolRequest } from './generated/types.gen.js';

export const SIGNATURE_HEADER = 'X-SVC-Signature';
export const DEFAULT_TOLERANCE_SEC = 300;

export type WebhookVerificationReason = 'missing_header' | 'malformed_header' | 'no_signature' | 'signature_mismatch' | 'timestamp_too_old' | 'timestamp_in_future' | 'body_not_raw' | 'invalid_json';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(message);
  }
}

export interface VerifyWebhookOptions {
  /** Largest accepted distance, either way, between the header's timestamp and now. Default 300 s. */
  toleranceSec?: number;
  /** The time to check against: a Date or epoch milliseconds. Default the current time. */
  now?: Date | number;
}

type RawBody = string | Uint8Array;

function rawBytes(body: unknown): Buffer {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const what = body === null || body === undefined ? `${body}` : typeof body === 'object' ? 'an object' : typeof body;
  throw new WebhookVerificationError(
    'body_not_raw',
    `The body is ${what}: pass the raw request body, not the parsed JSON (a string, Buffer or Uint8Array of the exact bytes received; ` +
      'e.g. express.raw({ type: "application/json" })). Re-serialised JSON does not match the signature.',
  );
}

function parseHeader(header: unknown): { timestamp: number; signatures: string[] } {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new WebhookVerificationError('missing_header', `No ${SIGNATURE_HEADER} header: pass the request's ${SIGNATURE_HEADER} header value.`);
  }
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    const name = part.slice(0, eq).trim();
    const item = part.slice(eq + 1).trim();
    if (eq < 1 || item === '') throw malformed(value);
    if (name === 't') {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(item)) throw malformed(value);
      timestamp = Number(item);
    } else if (name === 'v1') {
      signatures.push(item);
    }
    // Other schemes (v0, future versions) are ignored, so a new scheme can be added beside v1.
  }
  if (timestamp === undefined) throw malformed(value);
  if (signatures.length === 0) {
    throw new WebhookVerificationError('no_signature', `The ${SIGNATURE_HEADER} header has no v1= signature; this verifier checks v1 (HMAC-SHA256).`);
  }
  return { timestamp, signatures };
}

function malformed(value: string): WebhookVerificationError {
  // The header itself is not secret, but keep the message short and free of its signatures.
  return new WebhookVerificationError(
    'malformed_header',
    `The ${SIGNATURE_HEADER} header is not of the form t=<unix seconds>,v1=<hex> (it is ${value.length} characters long). Pass the header exactly as received.`,
  );
}

function matchesAny(expected: Buffer, signatures: string[]): boolean {
  let found = false;
  for (const signature of signatures) {
    const given = Buffer.from(signature, 'utf8');
    // timingSafeEqual needs equal lengths; a length mismatch reveals nothing about the expected value.
    if (given.length === expected.length && timingSafeEqual(given, expected)) found = true;
  }
  return found;
}

/**
 * Checks the signature and timestamp of a webhook request and returns its event. `secret` may be a list
 * (during a rotation, any of them may have signed). Throws WebhookVerificationError with a `reason`.
 */
export function verifyWebhook(rawBody: RawBody, signatureHeader: string | readonly string[] | null | undefined, secret: string | readonly string[], options: VerifyWebhookOptions = {}): CallEvent {
  const event = verifySigned(rawBody, signatureHeader, secret, options);
  if (typeof event !== 'object' || event === null || Array.isArray(event) || typeof (event as { event?: unknown }).event !== 'string') {
    throw new WebhookVerificationError('invalid_json', 'The signed body is not a JSON event object.');
  }
  return event as CallEvent;
}

/**
 * Checks the signature and timestamp of a request svc made to one of your tools during a call, as verifyWebhook
 * checks an event, and returns the request (`event` is `tool.call`). Throws WebhookVerificationError with a `reason`.
 */
export function verifyToolRequest(
  rawBody: RawBody,
  signatureHeader: string | readonly string[] | null | undefined,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): ToolRequest {
  const request = verifySigned(rawBody, signatureHeader, secret, options);
  if (typeof request !== 'object' || request === null || Array.isArray(request) || (request as { event?: unknown }).event !== 'tool.call') {
    throw new WebhookVerificationError('invalid_json', 'The signed body is not a JSON tool request (its `event` is not "tool.call").');
  }
  return request as ToolRequest;
}

/** The body's JSON once its signature and timestamp are checked (undefined when it is not JSON). */
function verifySigned(rawBody: RawBody, signatureHeader: string | readonly string[] | null | undefined, secret: string | readonly string[], options: VerifyWebhookOptions): unknown {
  const body = rawBytes(rawBody);
  const { timestamp, signatures } = parseHeader(signatureHeader);
  const secrets = (typeof secret === 'string' ? [secret] : [...(secret ?? [])]).filter((s) => typeof s === 'string' && s !== '');
  if (secrets.length === 0) throw new TypeError('verifyWebhook needs the webhook signing secret (whsec_…) of the account.');

  const signed = Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), body]);
  const given = signatures.map((v) => v.toLowerCase());
  const valid = secrets.some((s) => matchesAny(Buffer.from(createHmac('sha256', s).update(signed).digest('hex'), 'utf8'), given));
  if (!valid) {
    throw new WebhookVerificationError(
      'signature_mismatch',
      'No v1 signature matches the body. Check that the secret is the one of the account that placed the call, and that the body is ' +
        'the raw request body, byte for byte (not parsed and re-serialised JSON).',
    );
  }

  const toleranceSec = options.toleranceSec ?? DEFAULT_TOLERANCE_SEC;
  const nowMs = options.now === undefined ? Date.now() : typeof options.now === 'number' ? options.now : options.now.getTime();
  const ageSec = Math.floor(nowMs / 1000) - timestamp;
  if (ageSec > toleranceSec) {
    throw new WebhookVerificationError('timestamp_too_old', `The signature is ${ageSec} s old, more than the ${toleranceSec} s tolerance: a replayed request, or this server's clock is wrong.`);
  }
  if (-ageSec > toleranceSec) {
    throw new WebhookVerificationError('timestamp_in_future', `The signature is dated ${-ageSec} s ahead, more than the ${toleranceSec} s tolerance: check this server's clock.`);
  }

  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return undefined;
  }
}
