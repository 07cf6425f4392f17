// Rate limiting, the whole rule. Requests are counted in fixed windows that start at multiples of their length in
// epoch time, kept in the store (rate_windows), so every process sees one count:
// - an API key's window: its own limit (or SVC_DEFAULT_RATE_LIMIT) per SVC_RATE_WINDOW_SEC, bucket `key:<key id>`,
//   counts calls placed: only an accepted placement (202) consumes it, in the transaction that inserts its call, so
//   a rejected request (a 400 being fixed, a guardrail, the minute cap) spends nothing. A placement made while the
//   window is full is 429 before anything else is checked. A batch is the exception: once its body (up to 16 MiB)
//   has been read, it consumes the window once whether created or refused, and while the window is full it is 429
//   before its body is read (http/handlers/batches.ts). Every other request only reports the window (read with the
//   key itself, see accounts-repo.ts);
// - an API key's request window: SVC_KEY_REQUEST_LIMIT per SVC_RATE_WINDOW_SEC, bucket `req:<key id>`, counts the
//   requests that cost the service more than a read and place nothing: a live stream opened, a redelivery asked
//   for. It is apart from the calls window so that following calls or re-sending events never spends what the
//   key may place, and placing never starves a stream's reconnect;
// - a request without a valid key counts against its client address's window (SVC_UNAUTH_RATE_LIMIT), every such
//   request consuming it, so keys cannot be guessed at speed;
// - a request past its window's limit is 429 rate_limited with Retry-After: the seconds to the window's reset;
// - every /v1/agent response carries the RateLimit-* headers of the window that applied to it.
// Consuming is one atomic upsert (conditional on room, for a key's window), exact under any concurrency and across
// processes.
import type { Config } from '../config.js';
import { ApiError } from '../errors/api-error.js';
import { countInWindow, countWithinLimit, KEY_BUCKET_PREFIX } from '../store/accounts/rate-windows.js';
import type { Executor } from '../store/store.js';

export type RateLimitSettings = Pick<Config, 'defaultRateLimit' | 'rateWindowSec' | 'unauthRateLimit' | 'keyRequestLimit'>;

/** A window to count against: its bucket in the store, and its limit per length. */
export interface RateWindow {
  bucket: string;
  limit: number;
  windowSec: number;
}

export interface WindowState {
  limit: number;
  windowSec: number;
  /** Requests counted in the current window, this one included when consumed. */
  count: number;
  remaining: number;
  /** Whole seconds until the window resets, at least 1. */
  resetSec: number;
}

/** Bucket names of key windows: `key:<key id>`. */
export { KEY_BUCKET_PREFIX };

export function keyWindow(key: { id: string; rate_limit: number | null }, settings: RateLimitSettings): RateWindow {
  return { bucket: `${KEY_BUCKET_PREFIX}${key.id}`, limit: key.rate_limit ?? settings.defaultRateLimit, windowSec: settings.rateWindowSec };
}

/** The key's request window: stream opens and redeliveries (see the head of this file). */
export function requestWindow(key: { id: string }, settings: RateLimitSettings): RateWindow {
  return { bucket: `req:${key.id}`, limit: settings.keyRequestLimit, windowSec: settings.rateWindowSec };
}

export function addressWindow(address: string, settings: RateLimitSettings): RateWindow {
  return { bucket: `addr:${address}`, limit: settings.unauthRateLimit, windowSec: settings.rateWindowSec };
}

function windowStart(nowMs: number, windowSec: number): number {
  return Math.floor(nowMs / (windowSec * 1000)) * windowSec * 1000;
}

function state(w: Pick<RateWindow, 'limit' | 'windowSec'>, count: number, start: number, nowMs: number): WindowState {
  return {
    limit: w.limit,
    windowSec: w.windowSec,
    count,
    remaining: Math.max(0, w.limit - count),
    resetSec: Math.max(1, Math.ceil((start + w.windowSec * 1000 - nowMs) / 1000)),
  };
}

/**
 * Counts one accepted request against the window if it has room, and returns its state; throws 429 rate_limited
 * when it is full. Run it in the transaction that makes the request's effect, so a rollback gives the room back.
 */
export async function consumeWithinLimit(ex: Executor, w: RateWindow, nowMs: number, what: string): Promise<WindowState> {
  const start = windowStart(nowMs, w.windowSec);
  const [row] = await countWithinLimit(ex, w.bucket, start, w.limit);
  const consumed = row ? state(w, Number(row.count), start, nowMs) : null;
  if (!consumed) throw new RateLimited(state(w, w.limit, start, nowMs), what);
  return consumed;
}

/** 429 rate_limited when the window has no room left for one more (its state as last read). */
export function checkRoom(w: WindowState, what: string): void {
  if (w.count >= w.limit) throw new RateLimited(w, what);
}

/** Counts one request against the window. It is allowed when the state's count is at most its limit. */
export async function consumeWindow(ex: Executor, w: RateWindow, nowMs: number): Promise<WindowState> {
  const start = windowStart(nowMs, w.windowSec);
  const [row] = await countInWindow(ex, w.bucket, start);
  return state(w, Number(row.count), start, nowMs);
}

/** The current window from its stored row (or none): a row of an earlier window counts as empty. */
export function windowFromRow(rowStart: number | null, rowCount: number | null, w: Pick<RateWindow, 'limit' | 'windowSec'>, nowMs: number): WindowState {
  const start = windowStart(nowMs, w.windowSec);
  const count = rowStart !== null && Number(rowStart) === start ? Number(rowCount) : 0;
  return state(w, count, start, nowMs);
}

/** Throws 429 rate_limited when the consumed window is past its limit; `what` names what is counted. */
export function checkWindow(w: WindowState, what: string): void {
  if (w.count > w.limit) throw new RateLimited(w, what);
}

/** The 429 of a window with no room; `window` is its state, for the RateLimit-* headers. */
export class RateLimited extends ApiError {
  constructor(
    readonly window: WindowState,
    what: string,
  ) {
    super(429, 'rate_limited', `Too many ${what}: the limit is ${window.limit} per ${window.windowSec} seconds. Retry after ${window.resetSec} seconds.`, {
      'Retry-After': String(window.resetSec),
    });
  }
}

/** The five rate-limit headers of the spec for a window's state (Retry-After comes with the 429 itself). */
export function rateLimitHeaders(w: WindowState): Record<string, string> {
  return {
    'RateLimit-Limit': String(w.limit),
    'RateLimit-Remaining': String(w.remaining),
    'RateLimit-Reset': String(w.resetSec),
    'RateLimit-Policy': `${w.limit};w=${w.windowSec}`,
  };
}
