// The operations routes, outside /v1 and outside openapi.yaml: /healthz (the process is alive), /readyz (the
// store answers and every migration is applied; 503 otherwise, so a load balancer holds traffic back) and
// /metrics (Prometheus text). None of them needs a key; none reveals more than aggregate counts.
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { pendingMigrations, type Store } from '../../store/store.js';
import type { ServiceMetrics } from './service-metrics.js';

export type Readiness = { ready: true } | { ready: false; reason: 'store_unreachable' | 'migrations_pending' };

/** A store that has not answered by then counts as unreachable: probes have short deadlines of their own. */
const READINESS_TIMEOUT_MS = 2000;

export async function readiness(store: Store, timeoutMs = READINESS_TIMEOUT_MS): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  try {
    const pending = await Promise.race([pendingMigrations(store), late]);
    if (pending === 'late') return { ready: false, reason: 'store_unreachable' };
    return pending === 0 ? { ready: true } : { ready: false, reason: 'migrations_pending' };
  } catch {
    return { ready: false, reason: 'store_unreachable' };
  } finally {
    clearTimeout(timer);
  }
}

export function operationsRoutes(store: Store, metrics: ServiceMetrics, logger: Logger) {
  return async function operations(ctx: Context, next: Next): Promise<void> {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/healthz') {
      ctx.state.operation = 'healthz';
      ctx.body = { status: 'ok' };
    } else if (ctx.path === '/readyz') {
      ctx.state.operation = 'readyz';
      const r = await readiness(store);
      if (!r.ready) logger.warn({ reqId: ctx.state.reqId, reason: r.reason }, 'not ready');
      ctx.status = r.ready ? 200 : 503;
      ctx.body = r.ready ? { status: 'ready' } : { status: 'unavailable', reason: r.reason };
    } else if (ctx.path === '/metrics') {
      ctx.state.operation = 'metrics';
      const { contentType, text } = await metrics.render();
      ctx.type = contentType;
      ctx.body = text;
    } else {
      return next();
    }
    ctx.set('Cache-Control', 'no-store');
  };
}
