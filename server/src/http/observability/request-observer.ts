// Outermost middleware: gives every request an id (a sane incoming X-Request-Id, else a new one), echoes it in
// X-Request-Id, keeps it in ctx.state.reqId for the log lines written while handling it, and on the way out writes one
// log line and records the request in the metrics. The operation is the route's operationId (looked up when a
// request was answered before routing, as a 401 is), or the name an operations route set in
// ctx.state.operation; anything else is "unmatched", so arbitrary paths cannot blow up the metric labels.
import type { Context, Next } from 'koa';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { ServiceMetrics } from './service-metrics.js';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const SECRET_LIKE = /(svc_ak_|whsec_)/;

/** The incoming id when it is short, printable and not a secret; otherwise null. */
export function acceptedRequestId(header: string | undefined): string | null {
  if (!header || !SANE_REQUEST_ID.test(header) || SECRET_LIKE.test(header)) return null;
  return header;
}

export interface RequestObserverOptions {
  logger: Logger;
  metrics: ServiceMetrics;
  newId?: () => string;
  /** The operationId for a method and path that routing did not reach. */
  operationFor?: (method: string, path: string) => string | undefined;
}

export function requestObserver({ logger, metrics, newId = randomUUID, operationFor = () => undefined }: RequestObserverOptions) {
  return async function observeRequest(ctx: Context, next: Next): Promise<void> {
    const reqId = acceptedRequestId(ctx.get('x-request-id') || undefined) ?? newId();
    const started = performance.now();
    ctx.set('X-Request-Id', reqId);
    ctx.state.reqId = reqId;
    try {
      await next();
    } finally {
      const seconds = (performance.now() - started) / 1000;
      const operation = (ctx as { _matchedRouteName?: string })._matchedRouteName ?? (ctx.state.operation as string | undefined) ?? operationFor(ctx.method, ctx.path) ?? 'unmatched';
      metrics.observeRequest(operation, ctx.status, seconds);
      logger[ctx.status >= 500 ? 'warn' : 'info']({ reqId, method: ctx.method, path: ctx.path, operation, status: ctx.status, durationMs: Math.round(seconds * 1e4) / 10 }, 'request');
    }
  };
}
