// When and how long to wait before retrying a request. Only answers that say "try again" are retried: 429
// rate_limited, 502, 503 and transport faults (plus 409 idempotency_key_in_use for a placement, whose first
// attempt is still running). 429 over_minute_cap is not: its Retry-After is the time to the next billing period.
// A preflight's 429 is its verdict (a placement would be refused now), not a request to slow down: not retried.

/** What a request is, for the rules that differ: a placement, a preflight, or anything else. */
export type RequestKind = 'placement' | 'preflight' | 'other';
import { SvcApiError, SvcNetworkError } from './errors.js';

export interface RetryOptions {
  /** Attempts in all, the first included. Default 3. */
  maxAttempts?: number;
  /** Backoff before the first retry when the answer gives no Retry-After; doubles on each retry. Default 500 ms. */
  baseDelayMs?: number;
  /** The longest wait: backoff is capped here, and a Retry-After longer than this fails at once. Default 30 s. */
  maxDelayMs?: number;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export class RetryPolicy {
  readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;

  constructor(
    options: RetryOptions | false | undefined,
    private readonly random: () => number,
  ) {
    this.maxAttempts = options ? Math.max(1, Math.floor(options.maxAttempts ?? 3)) : 1;
    this.baseDelayMs = options ? (options.baseDelayMs ?? 500) : 0;
    this.maxDelayMs = options ? (options.maxDelayMs ?? 30_000) : 0;
  }

  /** Whether the failure is one that a later identical request may not meet. */
  static isTransient(error: unknown, kind: RequestKind): boolean {
    if (error instanceof SvcNetworkError) return true;
    if (!(error instanceof SvcApiError)) return false;
    if (error.status === 429) return kind !== 'preflight' && error.token === 'rate_limited';
    if (error.status === 409) return kind === 'placement' && error.token === 'idempotency_key_in_use';
    return error.status === 502 || error.status === 503;
  }

  /** Milliseconds to wait before attempt `attempt + 1`, or null when the failure must be thrown. */
  delayAfter(error: unknown, attempt: number, kind: RequestKind): number | null {
    if (attempt >= this.maxAttempts || !RetryPolicy.isTransient(error, kind)) return null;
    const retryAfterSec = error instanceof SvcApiError ? error.rateLimit.retryAfterSec : null;
    if (retryAfterSec !== null) {
      const ms = retryAfterSec * 1000;
      return ms <= this.maxDelayMs ? ms : null;
    }
    // Half fixed, half random ("equal jitter"), so clients that failed together do not retry together.
    const backoff = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(backoff / 2 + (backoff / 2) * this.random());
  }
}
