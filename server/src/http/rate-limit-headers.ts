// The five rate-limit headers of the spec, written from a window's state.
import type { Context } from 'koa';
import type { WindowState } from '../store/rate-windows.js';
import { ApiError } from '../errors/api-error.js';

export function setRateLimitHeaders(ctx: Context, w: WindowState): void {
  ctx.set('RateLimit-Limit', String(w.limit));
  ctx.set('RateLimit-Remaining', String(w.remaining));
  ctx.set('RateLimit-Reset', String(w.resetSec));
  ctx.set('RateLimit-Policy', `${w.limit};w=${w.windowSec}`);
}

/** 429 rate_limited with Retry-After equal to RateLimit-Reset (at least 1). */
export function rateLimited(w: WindowState, what: string): ApiError {
  return new ApiError(429, 'rate_limited', `Too many ${what}: the limit is ${w.limit} per ${w.windowSec} seconds. Retry after ${w.resetSec} seconds.`, {
    'Retry-After': String(w.resetSec),
  });
}
