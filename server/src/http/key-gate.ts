// Authentication by API key, once for every route that takes one: the /v1/agent gate here, and the tool server
// (mcp/mcp-route.ts). A bearer key is looked up by its hash together with its rate-limit window; a request
// without a valid key counts against its address's window and is refused 401 (429 past that window).
// The gate guards every /v1/agent path and writes the rate-limit headers as the request leaves, so that every
// response on those paths, 401 and 404 included, carries them.
import type { Context, Next } from 'koa';
import { findActiveKeyWithWindow, type ApiKeyRow } from '../accounts/accounts-repo.js';
import {
  addressWindow,
  checkWindow,
  consumeWindow,
  consumeWithinLimit,
  keyWindow,
  RateLimited,
  rateLimitHeaders,
  requestWindow,
  windowFromRow,
  type RateWindow,
  type WindowState,
} from '../accounts/rate-limit.js';
import { BEARER_PATTERN, hashApiKey } from '../accounts/secrets.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { ApiError } from '../errors/api-error.js';
import { executorFor } from '../store/prepared-query.js';
import type { Store } from '../store/store.js';

const API_PREFIX = '/v1/agent';

/** An Authorization header holding the scheme and nothing else. */
const EMPTY_BEARER = /^bearer\s*$/i;
const SEND = 'Send Authorization: Bearer svc_ak_<secret>.';
const NO_HEADER = `Missing API key. ${SEND}`;
const EMPTY_KEY = `Missing API key: the Authorization header is "Bearer" with no key after it (an empty SVC_API_KEY?). ${SEND}`;
const MALFORMED_KEY = `The API key is malformed: an API key is svc_ak_ and at least 16 letters, digits, - or _. ${SEND}`;
const UNKNOWN_KEY = `The API key is unknown or revoked. ${SEND}`;

export const isApiPath = (path: string): boolean => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);

/** Who is calling: the key, its rate-limit window, and the window's state the response reports. */
export interface ApiCaller {
  key: ApiKeyRow;
  /** The secret as sent (the tool server acts through the API with it). */
  secret: string;
  window: RateWindow;
  /**
   * The window the response's rate-limit headers report, written when the request leaves the gate: the key's
   * current window as read, unless the handler replaces it with the one it consumed (a placement).
   */
  reported: WindowState;
}

export interface KeyAuthDeps {
  store: Store;
  config: Config;
  clock: Clock;
}

/**
 * The caller behind the request's bearer key; otherwise its address's window is counted (429 past it) and the
 * request is refused 401 with `message` (by default, what is wrong with the header).
 */
export async function authenticate(ctx: Context, { store, config, clock }: KeyAuthDeps, message?: string): Promise<ApiCaller> {
  const header = ctx.get('authorization');
  const match = BEARER_PATTERN.exec(header);
  const found = match ? await findActiveKeyWithWindow(store, hashApiKey(match[1])) : undefined;
  if (!match || !found) {
    const w = await countAddress({ store, config, clock }, ctx.ip);
    ctx.set(rateLimitHeaders(w));
    checkWindow(w, 'unauthenticated requests from this address');
    ctx.set('WWW-Authenticate', header ? 'Bearer realm="svc", error="invalid_token"' : 'Bearer realm="svc"');
    // A bearer with nothing after it is a key left out (often an empty variable), not a wrong one.
    throw new ApiError(401, 'unauthorized', message ?? (header === '' ? NO_HEADER : EMPTY_BEARER.test(header) ? EMPTY_KEY : match ? UNKNOWN_KEY : MALFORMED_KEY));
  }
  const { window_start, window_count, ...key } = found;
  const window = keyWindow(key, config);
  return { key, secret: match[1], window, reported: windowFromRow(window_start, window_count, window, clock.now()) };
}

/** Counts one request without a valid key against its client address's window, and returns the window's state. */
export function countAddress({ store, config, clock }: KeyAuthDeps, address: string): Promise<WindowState> {
  return consumeWindow(executorFor(store.db), addressWindow(address, config), clock.now());
}

export function keyGate(deps: KeyAuthDeps) {
  return async function gate(ctx: Context, next: Next): Promise<void> {
    if (!isApiPath(ctx.path)) return next();
    const caller = await authenticate(ctx, deps);
    ctx.state.caller = caller;
    try {
      await next();
    } finally {
      // Written once, on the way out (errors included, before the error path renders them).
      if (!ctx.headerSent) ctx.set(rateLimitHeaders(caller.reported));
    }
  };
}

/**
 * Counts a request that costs the service more than a read (a stream opened, a redelivery) against the key's
 * request window; 429 rate_limited when it is full. The response reports that window, not the calls window.
 */
export async function chargeRequest(ctx: Context, { store, config, clock }: KeyAuthDeps): Promise<void> {
  const caller = ctx.state.caller as ApiCaller;
  try {
    caller.reported = await store.write(({ ex }) => consumeWithinLimit(ex, requestWindow(caller.key, config), clock.now(), 'redeliveries and streams opened'));
  } catch (err) {
    if (err instanceof RateLimited) caller.reported = err.window;
    throw err;
  }
}
