// Guards every /v1/agent path: authenticates the bearer key and writes the rate-limit headers, so that every
// response on those paths, 401 and 404 included, carries them. A known key reports its own window (placements
// consume it, reads only report it); an unauthenticated request counts against its client address's window,
// so guessing keys is throttled.
import type { Context, Next } from 'koa';
import { findActiveKeyWithWindow, type ApiKeyRow } from '../accounts/accounts-repo.js';
import { BEARER_PATTERN, hashApiKey } from '../accounts/secrets.js';
import type { Config } from '../config.js';
import { consumeWindow, windowFromRow, type WindowState } from '../store/rate-windows.js';
import { executorFor } from '../store/prepared-query.js';
import type { Store } from '../store/store.js';
import type { Clock } from '../clock.js';
import { ApiError } from '../errors/api-error.js';
import { rateLimited, setRateLimitHeaders } from './rate-limit-headers.js';

export const AGENT_PREFIX = '/v1/agent';

export const isAgentPath = (path: string): boolean => path === AGENT_PREFIX || path.startsWith(`${AGENT_PREFIX}/`);

export interface KeyWindow {
  bucket: string;
  limit: number;
  windowSec: number;
}

export interface AgentState {
  key: ApiKeyRow;
  window: KeyWindow;
  /**
   * The window the response's rate-limit headers report, written when the request leaves the gate: the key's
   * current window as read, unless the handler replaces it with the one it consumed (a placement).
   */
  reported: WindowState;
}

export function keyWindow(key: ApiKeyRow, config: Config): KeyWindow {
  return { bucket: `key:${key.id}`, limit: key.rate_limit ?? config.defaultRateLimit, windowSec: config.rateWindowSec };
}

export function agentGate(store: Store, config: Config, clock: Clock) {
  return async function gate(ctx: Context, next: Next): Promise<void> {
    if (!isAgentPath(ctx.path)) return next();
    const header = ctx.get('authorization');
    const match = BEARER_PATTERN.exec(header);
    const found = match ? await findActiveKeyWithWindow(store, hashApiKey(match[1])) : undefined;
    if (!found) {
      const w = await consumeWindow(executorFor(store.db), `addr:${ctx.ip}`, config.unauthRateLimit, config.rateWindowSec, clock.now());
      setRateLimitHeaders(ctx, w);
      if (w.count > w.limit) throw rateLimited(w, 'unauthenticated requests from this address');
      ctx.set('WWW-Authenticate', header ? 'Bearer realm="svc", error="invalid_token"' : 'Bearer realm="svc"');
      throw new ApiError(
        401,
        'unauthorized',
        header
          ? 'The API key is malformed, unknown or revoked. Send Authorization: Bearer svc_ak_<secret>.'
          : 'Missing API key. Send Authorization: Bearer svc_ak_<secret>.',
      );
    }
    const { window_start, window_count, ...key } = found;
    const window = keyWindow(key, config);
    const agent: AgentState = { key, window, reported: windowFromRow(window_start, window_count, window.limit, window.windowSec, clock.now()) };
    ctx.state.agent = agent;
    try {
      await next();
    } finally {
      // Written once, on the way out (errors included, before the error path renders them).
      if (!ctx.headerSent) setRateLimitHeaders(ctx, agent.reported);
    }
  };
}
