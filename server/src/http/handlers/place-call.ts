// placeCall: the request's work runs as one unit of write work (placement/placement.ts), batched with the other
// placements of its event-loop turn on SQLite; the response is written only once that work is committed, so a
// 202 always has its queued call and a rejection creates nothing. preflightCall runs the same checks and writes
// nothing.
import type { Context } from 'koa';
import { languageDetectorReady } from '../../placement/language.js';
import { placementAhead } from '../../placement/placement-ahead.js';
import { placementUnit, preflight, type PlacementPorts } from '../../placement/placement.js';
import { executorFor } from '../../store/prepared-query.js';
import type { ApiCaller } from '../key-gate.js';
import type { AppDeps } from '../app-deps.js';
import { normalizeIdempotencyKey, requestFingerprint } from '../../contract/idempotency-key.js';
import type { ValidatedRequest } from '../../contract/request-validator.js';

export function placeCallHandlers(deps: AppDeps) {
  const { store, clock, config } = deps;
  const ports: PlacementPorts = {
    catalogue: deps.catalogue,
    irsf: deps.irsf,
    idempotencyTtlMs: config.idempotencyTtlSec * 1000,
    warn: (fields, message) => deps.logger.warn(fields, message),
  };

  async function placeCall(ctx: Context, req: ValidatedRequest): Promise<void> {
    const caller = ctx.state.caller as ApiCaller;
    const { key, window, reported } = caller;
    const idemKey = normalizeIdempotencyKey(req.headers['idempotency-key']);
    const fingerprint = idemKey ? requestFingerprint(req.body) : '';
    // Language detection and number parsing, on the placement worker while this thread serves other requests.
    const ahead = await placementAhead(req.body, deps.catalogue.languages);
    await languageDetectorReady();
    const outcome = await store.write(
      placementUnit(ports, { key, window, seen: reported, idemKey, fingerprint, body: req.body, bodyProblems: req.bodyProblems, now: clock.now(), reqId: ctx.state.reqId, ahead }),
    );
    if (outcome.kind !== 'replayed' && outcome.window) caller.reported = outcome.window;
    if (outcome.kind === 'rejected') throw outcome.error;
    ctx.status = outcome.response.status;
    ctx.set(outcome.response.headers);
    if (outcome.kind === 'replayed') ctx.set('Idempotent-Replayed', 'true');
    else store.wake('calls');
    ctx.type = 'application/json';
    ctx.body = outcome.response.body;
  }

  async function preflightCall(ctx: Context, req: ValidatedRequest): Promise<void> {
    const { key, reported } = ctx.state.caller as ApiCaller;
    const ahead = await placementAhead(req.body, deps.catalogue.languages);
    await languageDetectorReady();
    ctx.body = await preflight(ports, executorFor(store.db), { key, seen: reported, body: req.body, bodyProblems: req.bodyProblems, now: clock.now(), ahead });
  }

  return { placeCall, preflightCall };
}
