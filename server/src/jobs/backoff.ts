// Waiting before trying again: exponential back-off with jitter, for work a remote party asked us to slow down on
// (Twilio's 429) or that failed for a reason that may pass: the n-th wait is `baseMs` doubled n-1 times, capped at
// `maxMs`, spread uniformly over ±20% so that many waiters do not come back at once; a server's Retry-After (read
// by parseRetryAfter, for webhook receivers as for Twilio) only ever makes the wait longer.

export interface Backoff {
  baseMs: number;
  maxMs: number;
}

const JITTER = 0.2;

/** The wait before attempt `n + 1`, after `n` (≥ 1) attempts failed; `retryAfterMs` is the server's own ask. */
export function backoffMs(b: Backoff, n: number, random: () => number, retryAfterMs: number | null = null): number {
  const exact = Math.min(b.maxMs, b.baseMs * 2 ** Math.max(0, n - 1));
  const wait = Math.round(exact * (1 + JITTER * (2 * random() - 1)));
  return Math.max(wait, retryAfterMs ?? 0);
}

/** The longest wait a Retry-After header can impose; beyond it the server gets this. */
const MAX_RETRY_AFTER_MS = 24 * 3600 * 1000;

/**
 * Retry-After as a wait in ms from `now`: delta-seconds or an HTTP date (a past date is 0), capped at 24 hours;
 * null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (value === undefined || value === null) return null;
  const v = value.trim();
  let ms: number;
  if (/^\d+$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    if (Number.isNaN(at) || !/[a-z]/i.test(v)) return null;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}
