// getCall and listCalls: tenant-scoped reads. Another key's call is a 404, exactly like a missing one.
import type { Context } from 'koa';
import { findCallForKey, listCallsForKey, toCallRecord, toCallSummary } from '../../store/calls-repo.js';
import type { AppDeps } from '../app-deps.js';
import type { ApiCaller } from '../key-gate.js';
import { callNotFound } from '../../errors/api-error.js';
import type { ValidatedRequest } from '../../contract/request-validator.js';

export function readCallHandlers({ store, config }: AppDeps) {
  return {
    async getCall(ctx: Context, req: ValidatedRequest) {
      const { key } = ctx.state.caller as ApiCaller;
      const row = await findCallForKey(store, key.id, req.path.id);
      if (!row) throw callNotFound(req.path.id);
      ctx.body = toCallRecord(row, config.publicBaseUrl);
    },
    async listCalls(ctx: Context, req: ValidatedRequest) {
      const { key } = ctx.state.caller as ApiCaller;
      const rows = await listCallsForKey(store, key.id, req.query.limit as number, (req.query.batchId as string | undefined) ?? null);
      ctx.body = { calls: rows.map(toCallSummary) };
    },
  };
}
