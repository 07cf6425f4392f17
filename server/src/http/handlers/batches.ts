// createBatch, getBatch, listBatches and listBatchRows, scoped to the key that created the batch: another key's batch is a 404,
// exactly like a missing one. createBatch reads its own body: a key whose calls window is full is refused before
// the body is read (and the connection closed, so the rest of it never is), and the body is parsed and checked on the
// batch thread. Once its body has been read, the request counts once against the key's calls window whatever the
// answer, as an accepted batch does: only a replay of a stored answer, a 429 and a fault spend nothing.
import type { Context } from 'koa';
import { consumeWindow, checkRoom, RateLimited } from '../../accounts/rate-limit.js';
import { findBatchForKey, listBatchesForKey } from '../../batches/batch-repo.js';
import type { BatchBody, BatchBodySettings } from '../../batches/batch-body.js';
import { listBatchRows } from '../../batches/batch-rows.js';
import { batchBodyWorker } from '../../batches/batch-body-worker.js';
import { cancelBatchUnit } from '../../batches/cancel-batch.js';
import { createBatchUnit, prepareBatch, type CreateBatchPorts } from '../../batches/create-batch.js';
import { ApiError, batchNotFound } from '../../errors/api-error.js';
import type { BatchRowState } from '../../generated/types.gen.js';
import { executorFor } from '../../store/prepared-query.js';
import type { AppDeps } from '../app-deps.js';
import { normalizeIdempotencyKey } from '../../contract/idempotency-key.js';
import { closeUnread } from '../../contract/json-body.js';
import type { ApiCaller } from '../key-gate.js';
import type { Handler } from '../operation-router.js';
import type { ValidatedRequest } from '../../contract/request-validator.js';

export function batchHandlers(deps: AppDeps) {
  const { store, clock, config } = deps;
  const ports: CreateBatchPorts = { idempotencyTtlMs: config.idempotencyTtlSec * 1000 };
  const settings: BatchBodySettings = { allowPrivateWebhooks: config.webhookAllowPrivate, catalogue: deps.catalogue, irsf: [...deps.irsf.prefixes] };

  /**
   * What createBatch and preflightBatch share: the room in the key's window before the body is read, the body
   * checked on the batch thread, then `then` on it; a refusal after the body was read counts against the window.
   */
  async function withBatchBody(ctx: Context, req: ValidatedRequest, idempotent: boolean, then: (body: BatchBody, now: number, idemKey: string | null) => Promise<void>): Promise<void> {
    const caller = ctx.state.caller as ApiCaller;
    const { key } = caller;
    try {
      checkRoom(caller.reported, 'batches');
    } catch (err) {
      closeUnread(ctx);
      throw err;
    }
    const bytes = await req.readBody!();
    if (bytes === undefined) throw new ApiError(400, 'invalid_body', 'The request body must be a JSON object.');
    const idemKey = idempotent ? normalizeIdempotencyKey(req.headers['idempotency-key']) : null;
    const now = clock.now();
    try {
      await then(await batchBodyWorker.check({ bytes, key, now, fingerprint: idemKey !== null, settings }), now, idemKey);
    } catch (err) {
      if (err instanceof ApiError && err.status < 500 && !(err instanceof RateLimited)) {
        caller.reported = await consumeWindow(executorFor(store.db), caller.window, clock.now());
      }
      throw err;
    }
  }

  async function createBatch(ctx: Context, req: ValidatedRequest): Promise<void> {
    await withBatchBody(ctx, req, true, async (body, now, idemKey) => {
      const caller = ctx.state.caller as ApiCaller;
      const { key } = caller;
      const batch = await prepareBatch(store.db, key, body);
      const outcome = await store.write(createBatchUnit(ports, { key, window: caller.window, idemKey, fingerprint: body.fingerprint, now }, batch));
      if (outcome.kind !== 'replayed' && outcome.window) caller.reported = outcome.window;
      if (outcome.kind === 'rejected') throw outcome.error;
      ctx.status = outcome.response.status;
      ctx.set(outcome.response.headers);
      if (outcome.kind === 'replayed') ctx.set('Idempotent-Replayed', 'true');
      else store.wake('batches');
      ctx.type = 'application/json';
      ctx.body = outcome.response.body;
    });
  }

  // createBatch's checks, prepareBatch included, with nothing written: its invalid_batch is answered 200 with the
  // same errors, a batch it would create 200 with none. Counted once against the window as a refused batch is.
  async function preflightBatch(ctx: Context, req: ValidatedRequest): Promise<void> {
    await withBatchBody(ctx, req, false, async (body) => {
      const caller = ctx.state.caller as ApiCaller;
      let valid = true;
      let errors: Uint8Array = Buffer.from('[]');
      try {
        await prepareBatch(store.db, caller.key, body);
      } catch (err) {
        if (!(err instanceof ApiError) || err.token !== 'invalid_batch') throw err;
        // The errors as the refusal carries them: merged with the account's, or the thread's JSON as it rendered it.
        valid = false;
        errors = err.fields.errors === undefined ? body.errorsJson : Buffer.from(JSON.stringify(err.fields.errors));
      }
      caller.reported = await consumeWindow(executorFor(store.db), caller.window, clock.now());
      ctx.status = 200;
      ctx.type = 'application/json';
      ctx.body = Buffer.concat([Buffer.from(`{"valid":${valid},"total":${body.total},"errors":`), errors, Buffer.from('}')]);
    });
  }

  return {
    createBatch: Object.assign(createBatch, { readsBody: true as const }) satisfies Handler,
    preflightBatch: Object.assign(preflightBatch, { readsBody: true as const }) satisfies Handler,
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
    async listBatchRows(ctx: Context, req: ValidatedRequest) {
      const { key } = ctx.state.caller as ApiCaller;
      const query = { limit: req.query.limit as number, after: (req.query.after as number | undefined) ?? null, state: (req.query.state as BatchRowState | undefined) ?? null };
      const page = await listBatchRows(store.db, key.id, req.path.id, query);
      if (!page) throw batchNotFound(req.path.id);
      ctx.body = page;
    },
  };
}
