// The SDK's error classes. Every failure of an API call is one of these, so callers can branch on the class and,
// for API errors, on the spec's `error` token.
import type { BatchItemError, ErrorToken, RequestProblem } from './generated/types.gen.js';

/** The rate-limit headers of a response; null where the response did not carry the header. */
export interface RateLimitInfo {
  /** RateLimit-Limit: requests permitted per window. */
  limit: number | null;
  /** RateLimit-Remaining: requests left in the current window. */
  remaining: number | null;
  /** RateLimit-Reset: seconds until the window resets. */
  resetSec: number | null;
  /** Retry-After (429 and 503 only): seconds to wait before retrying. */
  retryAfterSec: number | null;
}

function intHeader(headers: Headers, name: string): number | null {
  const value = headers.get(name);
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value.trim()) : null;
}

export function rateLimitInfo(headers: Headers): RateLimitInfo {
  return {
    limit: intHeader(headers, 'RateLimit-Limit'),
    remaining: intHeader(headers, 'RateLimit-Remaining'),
    resetSec: intHeader(headers, 'RateLimit-Reset'),
    retryAfterSec: intHeader(headers, 'Retry-After'),
  };
}

/** The service answered with an error status. `token` is the spec's `error` field; the set may grow. */
export class SvcApiError extends Error {
  override readonly name = 'SvcApiError';
  constructor(
    readonly status: number,
    readonly token: ErrorToken | (string & {}),
    message: string,
    readonly rateLimit: RateLimitInfo,
    /** X-Request-Id of the response, to quote when reporting a problem. */
    readonly requestId: string | null,
    /** With createBatch's `invalid_batch`, every bad call by its index; null otherwise. */
    readonly errors: BatchItemError[] | null = null,
    /**
     * With a 400 of placeCall or preflightCall, every problem of the request at once, each with the field it is
     * about (the first is `token` and `message`); null otherwise.
     */
    readonly problems: RequestProblem[] | null = null,
  ) {
    super(message);
  }

  /** Builds the error from a non-2xx response whose body has been parsed (or left as text) already. */
  static fromResponse(response: Response, body: unknown): SvcApiError {
    const parsed = typeof body === 'object' && body !== null ? (body as { error?: unknown; message?: unknown }) : {};
    const token = typeof parsed.error === 'string' ? parsed.error : `http_${response.status}`;
    const message = typeof parsed.message === 'string' ? parsed.message : `The service answered ${response.status} ${response.statusText}`.trim();
    // The body's `errors` names a batch's bad calls with invalid_batch, and a request's problems otherwise.
    const list = (parsed as { errors?: unknown }).errors;
    const items = Array.isArray(list) ? list : null;
    const errors = token === 'invalid_batch' ? (items as BatchItemError[] | null) : null;
    const problems = token === 'invalid_batch' ? null : (items as RequestProblem[] | null);
    return new SvcApiError(response.status, token, message, rateLimitInfo(response.headers), response.headers.get('X-Request-Id'), errors, problems);
  }
}

/** The request never got an HTTP answer (connection refused, reset, DNS failure...). `cause` is the fetch error. */
export class SvcNetworkError extends Error {
  override readonly name = 'SvcNetworkError';
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
  }
}

/** waitForCall gave up: the call had not reached a terminal status within `timeoutMs`. */
export class SvcTimeoutError extends Error {
  override readonly name = 'SvcTimeoutError';
  constructor(
    /** The call's id (or, from waitForBatch, the batch's). */
    readonly callId: string,
    readonly timeoutMs: number,
    /** The status seen at the last successful poll, or null when no poll succeeded. */
    readonly lastStatus: string | null,
    what = 'Call',
  ) {
    super(`${what} ${callId} did not reach a terminal status within ${timeoutMs} ms (last status: ${lastStatus ?? 'unknown'}). Wait longer, or subscribe to webhooks instead of polling.`);
  }
}
