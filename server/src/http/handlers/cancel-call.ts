// cancelCall: the cancel's work runs as one unit of write work (placement/cancel.ts); then the engines are woken
// so that a call being dialled or live is taken down at once rather than at its next due time, or the dispatchers
// so that the event of a call it ended at once goes out at once.
import type { Context } from 'koa';
import { cancelUnit } from '../../placement/cancel.js';
import type { AppDeps } from '../app-deps.js';
import type { ApiCaller } from '../key-gate.js';
import { normalizeIdempotencyKey } from '../../contract/idempotency-key.js';
import type { ValidatedRequest } from '../../contract/request-validator.js';

export function cancelCallHandler(deps: AppDeps) {
  const { store, clock, config } = deps;
  return async function cancelCall(ctx: Context, req: ValidatedRequest): Promise<void> {
    const { key } = ctx.state.caller as ApiCaller;
    const outcome = await store.write(
      cancelUnit({
        apiKeyId: key.id,
        callId: req.path.id,
        idemKey: normalizeIdempotencyKey(req.headers['idempotency-key']),
        now: clock.now(),
        publicBaseUrl: config.publicBaseUrl,
        idempotencyTtlMs: config.idempotencyTtlSec * 1000,
      }),
    );
    if (outcome.kind === 'rejected') throw outcome.error;
    // 202: a live call, which its engine takes down; 200: a call ended here and now, whose event is to be sent.
    if (outcome.kind === 'answered' && outcome.response.status === 202) store.wake('calls');
    if (outcome.kind === 'answered' && outcome.response.status === 200) store.wake('webhooks');
    if (outcome.kind === 'replayed') ctx.set('Idempotent-Replayed', 'true');
    ctx.status = outcome.response.status;
    ctx.set(outcome.response.headers);
    ctx.type = 'application/json';
    ctx.body = outcome.response.body;
  };
}
