// Rate limiting, the whole rule. Requests are counted in fixed windows that start at multiples of their length in
// epoch time, kept in the store (rate_windows), so every process sees one count:
// - an API key's window: its own limit (or SVC_DEFAULT_RATE_LIMIT) per SVC_RATE_WINDOW_SEC, bucket `key:<key id>`.
//   A placement consumes it; every other request only reports it (read with the key itself, see accounts-repo.ts);
// - a request without a valid key counts against its client address's window (SVC_UNAUTH_RATE_LIMIT), so keys
//   cannot be guessed at speed;
// - a request past its window's limit is 429 rate_limited with Retry-After: the seconds to the window's reset;
// - every /v1/agent response carries the RateLimit-* headers of the window that applied to it.
// Consuming is one atomic upsert, exact under any concurrency and across processes.
import { sql } from 'kysely';
import type { Config } from '../config.js';
import { ApiError } from '../errors/api-error.js';
import { PARAM, statement } from '../store/prepared-query.js';
import type { Executor } from '../store/store.js';

export type RateLimitSettings = Pick<Config, 'defaultRateLimit' | 'rateWindowSec' | 'unauthRateLimit'>;

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

/** Bucket names of key windows; the key lookup joins its window by this prefix and the key's id. */
export const KEY_BUCKET_PREFIX = 'key:';

export function keyWindow(key: { id: string; rate_limit: number | null }, settings: RateLimitSettings): RateWindow {
  return { bucket: `${KEY_BUCKET_PREFIX}${key.id}`, limit: key.rate_limit ?? settings.defaultRateLimit, windowSec: settings.rateWindowSec };
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

const upsert = statement((db) =>
  db
    .insertInto('rate_windows')
    .values({ bucket: PARAM, window_start: PARAM as unknown as number, count: 1 })
    .onConflict((oc) =>
      oc.column('bucket').doUpdateSet({
        count: sql<number>`case when rate_windows.window_start = excluded.window_start then rate_windows.count + 1 else 1 end`,
        window_start: sql<number>`excluded.window_start`,
      }),
    )
    .returning(['count']),
);

/** Counts one request against the window. It is allowed when the state's count is at most its limit. */
export async function consumeWindow(ex: Executor, w: RateWindow, nowMs: number): Promise<WindowState> {
  const start = windowStart(nowMs, w.windowSec);
  const [row] = await upsert(ex, w.bucket, start);
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
  if (w.count <= w.limit) return;
  throw new ApiError(429, 'rate_limited', `Too many ${what}: the limit is ${w.limit} per ${w.windowSec} seconds. Retry after ${w.resetSec} seconds.`, {
    'Retry-After': String(w.resetSec),
  });
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
