// The one error path: every failure becomes `{ error, message }` with the status and headers of its ApiError.
// A store that is unreachable or busy is 503 store_error; anything unexpected is 500 internal_error, logged
// here and never described in the response.
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { isStoreFault } from '../store/store-fault.js';
import { ApiError, errorBody } from '../errors/api-error.js';

export function errorMiddleware(logger: Logger) {
  return async function renderErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.body === undefined && (ctx.status === 405 || ctx.status === 501)) {
        const allow = ctx.response.get('Allow');
        throw new ApiError(405, 'method_not_allowed', allow ? `This route accepts ${allow}.` : 'This method is not supported.');
      }
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new ApiError(404, 'not_found', `No route ${ctx.method} ${ctx.path}.`);
      }
    } catch (err) {
      const e = toApiError(err);
      if (e.status >= 500 && e.token === 'internal_error') logger.error({ reqId: ctx.state.reqId, err, method: ctx.method, path: ctx.path }, 'unexpected fault');
      if (e.token === 'store_error') logger.warn({ reqId: ctx.state.reqId, err: { message: (err as Error).message, code: (err as { code?: string }).code } }, 'store unavailable');
      ctx.status = e.status;
      for (const [name, value] of Object.entries(e.headers)) ctx.set(name, value);
      if (e.body) ctx.type = 'application/json';
      ctx.body = e.body ? Buffer.from(e.body.buffer, e.body.byteOffset, e.body.byteLength) : errorBody(e);
    }
  };
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (isStoreFault(err)) return new ApiError(503, 'store_error', 'The store is temporarily unavailable; retry shortly.', { 'Retry-After': '1' });
  return new ApiError(500, 'internal_error', 'An unexpected error occurred; it has been logged.');
}
