// listCallEvents and redeliverEvent: a call's event log and one more delivery of one of its events
// (webhooks/event-log.ts), scoped to the key that placed the call: another key's call is a 404, as for getCall.
import type { Context } from 'koa';
import { callNotFound } from '../../errors/api-error.js';
import { findCallForKey } from '../../store/calls-repo.js';
import { callEventLog, redeliverUnit } from '../../webhooks/event-log.js';
import type { AppDeps } from '../app-deps.js';
import { chargeRequest, type ApiCaller } from '../key-gate.js';
import type { ValidatedRequest } from '../request-validator.js';

export function callEventHandlers(deps: AppDeps) {
  const { store, clock } = deps;
  const callOf = async (ctx: Context, req: ValidatedRequest) => {
    const { key } = ctx.state.caller as ApiCaller;
    const row = await findCallForKey(store, key.id, req.path.id);
    if (!row) throw callNotFound(req.path.id);
    return row;
  };
  return {
    async listCallEvents(ctx: Context, req: ValidatedRequest) {
      const call = await callOf(ctx, req);
      ctx.body = { events: await callEventLog(store.db, call.id) };
    },
    async redeliverEvent(ctx: Context, req: ValidatedRequest) {
      // Counted first, so a redelivery refused (409, 404, 400) costs its request as one queued does.
      await chargeRequest(ctx, deps, 'redeliveries and streams opened');
      const call = await callOf(ctx, req);
      const entry = await store.write(redeliverUnit(call.id, String(req.path.eventId), clock.now()));
      store.wake('webhooks');
      ctx.status = 202;
      ctx.body = entry;
    },
  };
}
