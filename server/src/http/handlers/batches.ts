// createBatch, getBatch and listBatches, scoped to the key that created the batch: another key's batch is a 404,
// exactly like a missing one.
import type { Context } from 'koa';
import { findBatchForKey, listBatchesForKey } from '../../batches/batch-repo.js';
import { cancelBatchUnit } from '../../batches/cancel-batch.js';
import { createBatchUnit, prepareBatch, type CreateBatchPorts } from '../../batches/create-batch.js';
import { batchNotFound } from '../../errors/api-error.js';
import { compileBodyCheck } from '../request-validator.js';
import { loadDocument } from '../openapi-document.js';
import { ajvFor, formatReasons } from '../schema-ajv.js';
import type { AppDeps } from '../app-deps.js';
import { normalizeIdempotencyKey, requestFingerprint } from '../idempotency-key.js';
import type { ApiCaller } from '../key-gate.js';
import type { ValidatedRequest } from '../request-validator.js';

export function batchHandlers(deps: AppDeps) {
  const { store, clock, config } = deps;
  const doc = loadDocument();
  const schemaOptions = { allowPrivateWebhooks: config.webhookAllowPrivate };
  const ports: CreateBatchPorts = {
    catalogue: deps.catalogue,
    irsf: deps.irsf,
    // Each call of a batch is checked against placeCall's own schema, tokens and order.
    checkCall: compileBodyCheck(doc, ajvFor(doc, schemaOptions), ['components', 'schemas', 'PlaceCallRequest'], formatReasons(schemaOptions)),
    idempotencyTtlMs: config.idempotencyTtlSec * 1000,
  };

  return {
    async createBatch(ctx: Context, req: ValidatedRequest) {
      const caller = ctx.state.caller as ApiCaller;
      const idemKey = normalizeIdempotencyKey(req.headers['idempotency-key']);
      const request = {
        key: caller.key,
        window: caller.window,
        seen: caller.reported,
        idemKey,
        fingerprint: idemKey ? requestFingerprint(req.body) : '',
        body: req.body,
        checkBody: req.checkBody,
        now: clock.now(),
      };
      const batch = await prepareBatch(ports, store.db, request);
      const outcome = await store.write(createBatchUnit(ports, request, batch));
      if (outcome.kind !== 'replayed' && outcome.window) caller.reported = outcome.window;
      if (outcome.kind === 'rejected') throw outcome.error;
      ctx.status = outcome.response.status;
      ctx.set(outcome.response.headers);
      if (outcome.kind === 'replayed') ctx.set('Idempotent-Replayed', 'true');
      else store.wake('batches');
      ctx.type = 'application/json';
      ctx.body = outcome.response.body;
    },
    async getBatch(ctx: Context, req: ValidatedRequest) {
      const { key } = ctx.state.caller as ApiCaller;
      const batch = await findBatchForKey(store.db, key.id, req.path.id);
      if (!batch) throw batchNotFound(req.path.id);
      ctx.body = batch;
    },
    async cancelBatch(ctx: Context, req: ValidatedRequest) {
      const { key } = ctx.state.caller as ApiCaller;
      const outcome = await store.write(cancelBatchUnit(key.id, req.path.id, clock.now()));
      if (outcome.kind === 'rejected') throw outcome.error;
      // The calls it ended undialled have events to send.
      store.wake('webhooks');
      ctx.body = await findBatchForKey(store.db, key.id, req.path.id);
    },
    async listBatches(ctx: Context, req: ValidatedRequest) {
      const { key } = ctx.state.caller as ApiCaller;
      ctx.body = { batches: await listBatchesForKey(store.db, key.id, req.query.limit as number) };
    },
  };
}
