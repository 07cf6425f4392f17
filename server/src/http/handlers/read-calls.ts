// getCall and listCalls: tenant-scoped reads. Another key's call is a 404, exactly like a missing one.
import type { Context } from 'koa';
import { findCallForKey, listCallsForKey, toCallRecord, toCallSummary, type CallSummaryRow } from '../../store/calls-repo.js';
import { cursorOf, listCallsPage, positionOf } from '../../store/calls/call-list.js';
import type { AppDeps } from '../app-deps.js';
import type { ApiCaller } from '../key-gate.js';
import { ApiError, callNotFound } from '../../errors/api-error.js';
import type { ValidatedRequest } from '../../contract/request-validator.js';
import { periodOf } from './period.js';

const FILTERS = ['cursor', 'status', 'answeredBy', 'createdFrom', 'createdTo', 'q'] as const;

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
      const q = req.query;
      const limit = q.limit as number;
      const batchId = (q.batchId as string | undefined) ?? null;
      // One more than the page, to know whether a next page exists. Without filters, the compiled hot read.
      let rows: CallSummaryRow[];
      if (FILTERS.every((f) => q[f] === undefined)) {
        rows = await listCallsForKey(store, key.id, limit + 1, batchId);
      } else {
        const after = q.cursor === undefined ? null : positionOf(q.cursor as string);
        if (q.cursor !== undefined && after === null) throw new ApiError(400, 'invalid_cursor', 'cursor is not a nextCursor this service gave.');
        const { from, to } = periodOf(q);
        rows = await listCallsPage(store, key.id, limit, {
          batchId,
          statuses: q.status === undefined ? null : [...new Set((q.status as string).split(','))],
          answeredBy: (q.answeredBy as string | undefined) ?? null,
          createdFrom: from,
          createdTo: to,
          q: (q.q as string | undefined) ?? null,
          after,
        });
      }
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      ctx.body = { calls: page.map(toCallSummary), nextCursor: rows.length > limit && last ? cursorOf({ createdAt: last.created_at, id: last.id }) : null };
    },
  };
}
