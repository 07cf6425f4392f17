// The event logs and redeliveries of calls (listCallEvents, redeliverEvent) and of batches' own events
// (listBatchEvents, redeliverBatchEvent): one event log over a subject (webhooks/event-log.ts), scoped to the key
// that made the subject: another key's call or batch is a 404, exactly like a missing one.
import type { Context } from 'koa';
import { findBatchIdForKey } from '../../batches/batch-repo.js';
import { batchNotFound, callNotFound } from '../../errors/api-error.js';
import { findCallForKey } from '../../store/calls-repo.js';
import { eventLog, redeliverUnit, type EventSubject } from '../../webhooks/event-log.js';
import type { AppDeps } from '../app-deps.js';
import { chargeRequest, type ApiCaller } from '../key-gate.js';
import type { ValidatedRequest } from '../../contract/request-validator.js';

export function eventLogHandlers(deps: AppDeps) {
  const { store, clock } = deps;
  const subjects: Record<EventSubject['kind'], (keyId: string, id: string) => Promise<EventSubject>> = {
    async call(keyId, id) {
      const row = await findCallForKey(store, keyId, id);
      if (!row) throw callNotFound(id);
      return { kind: 'call', id: row.id };
    },
    async batch(keyId, id) {
      const found = await findBatchIdForKey(store.db, keyId, id);
      if (!found) throw batchNotFound(id);
      return { kind: 'batch', id: found };
    },
  };
  const subjectOf = (kind: EventSubject['kind'], ctx: Context, req: ValidatedRequest) => subjects[kind]((ctx.state.caller as ApiCaller).key.id, String(req.path.id));

  const list = (kind: EventSubject['kind']) => async (ctx: Context, req: ValidatedRequest) => {
    ctx.body = { events: await eventLog(store.db, await subjectOf(kind, ctx, req)) };
  };
  const redeliver = (kind: EventSubject['kind']) => async (ctx: Context, req: ValidatedRequest) => {
    // Counted first, so a redelivery refused (409, 404, 400) costs its request as one queued does.
    await chargeRequest(ctx, deps);
    const subject = await subjectOf(kind, ctx, req);
    const entry = await store.write(redeliverUnit(subject, String(req.path.eventId), clock.now()));
    store.wake('webhooks');
    ctx.status = 202;
    ctx.body = entry;
  };
  return {
    listCallEvents: list('call'),
    redeliverEvent: redeliver('call'),
    listBatchEvents: list('batch'),
    redeliverBatchEvent: redeliver('batch'),
  };
}
