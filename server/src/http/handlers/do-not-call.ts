// The do-not-call list's operations, scoped to the caller's account (every key of the account shares the list).
import type { Context } from 'koa';
import { addToDoNotCall, listDoNotCall, removeFromDoNotCall } from '../../accounts/do-not-call.js';
import { ApiError } from '../../errors/api-error.js';
import type { DoNotCallRequest } from '../../generated/types.gen.js';
import type { AppDeps } from '../app-deps.js';
import type { ApiCaller } from '../key-gate.js';
import type { ValidatedRequest } from '../../contract/request-validator.js';

const E164 = /^\+[1-9][0-9]{6,14}$/;

export function doNotCallHandlers({ store, clock }: AppDeps) {
  return {
    async addDoNotCall(ctx: Context, req: ValidatedRequest) {
      req.checkBody();
      const { key } = ctx.state.caller as ApiCaller;
      const body = req.body as DoNotCallRequest;
      const { entry, added } = await addToDoNotCall(store.db, { accountId: key.account_id, e164: body.number, reason: body.reason ?? null, source: 'api' }, clock.now());
      ctx.status = added ? 201 : 200;
      ctx.body = entry;
    },
    async listDoNotCall(ctx: Context, req: ValidatedRequest) {
      const { key } = ctx.state.caller as ApiCaller;
      const after = (req.query.after as string | undefined) ?? null;
      if (after !== null && !E164.test(after)) throw new ApiError(400, 'invalid_after', '`after` must be the `nextAfter` of a previous page.');
      const page = await listDoNotCall(store.db, key.account_id, req.query.limit as number, after);
      ctx.body = { numbers: page.entries, nextAfter: page.nextAfter };
    },
    async removeDoNotCall(ctx: Context, req: ValidatedRequest) {
      const { key } = ctx.state.caller as ApiCaller;
      const number = req.path.number;
      if (!(await removeFromDoNotCall(store.db, key.account_id, number))) throw new ApiError(404, 'not_found', `${number} is not on this account's do-not-call list.`);
      ctx.status = 204;
    },
  };
}
