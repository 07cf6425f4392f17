// createBatch: a batch is checked whole before anything is written, then created in one unit of write
// work, in this order:
// 1. a key whose rate-limit window is full (as the gate read it) is 429 before the body is read (the handler);
// 2. the body, on the batch thread (batch-body.ts): its bytes and JSON, its shape (400 with the batch's own
//    tokens), its startAt and calling window, and every call's schema and guardrails; then here, every call's
//    do-not-call list and caller id (400 invalid_batch naming every bad call: check-batch.ts); these reads are
//    made before the write, which awaits nothing but its statements;
// 3. atomically: with an Idempotency-Key, claim it (a key already claimed is answered from its record, as for
//    placeCall); count the batch as one request against the window (429 if it is full by now); insert the batch,
//    queued, with its calls as items; store the answer under the key.
// A rejection in 2 is not stored under the key: it is computed again, the same, for a retry. A request refused
// after its body was read counts against the window all the same (the handler, see batches.ts).
import { v7 as uuidv7 } from 'uuid';
import type { ApiKeyRow } from '../accounts/accounts-repo.js';
import { consumeWithinLimit, RateLimited } from '../accounts/rate-limit.js';
import { answerFromRecord, type PlacementOutcome, type PlacementRequest } from '../placement/placement.js';
import { ApiError, errorBody } from '../errors/api-error.js';
import type { CreateBatchResponse } from '../generated/types.gen.js';
import { claimIdempotencyKey, completeIdempotencyKey, findIdempotencyRecord, releaseIdempotencyKey, type StoredResponse } from '../store/idempotency-repo.js';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { WriteUnit } from '../store/store.js';
import type { BatchBody } from './batch-body.js';
import { insertBatch, type NewBatch } from './batch-repo.js';
import { checkBatchAccount, type BatchItemError } from './check-batch.js';

export interface CreateBatchPorts {
  idempotencyTtlMs: number;
}

/** What a createBatch request carries: a placement's request, its fields meaning the same. */
export type BatchRequest = Pick<PlacementRequest, 'key' | 'window' | 'idemKey' | 'fingerprint' | 'now'>;

/** The rest of step 2, on a body the batch thread found sound: the batch to create, or the ApiError it is refused with. */
export async function prepareBatch(db: Kysely<Database>, key: ApiKeyRow, body: BatchBody): Promise<NewBatch> {
  const account = await checkBatchAccount(db, key, body.passed);
  const n = body.failed + account.errors.length;
  if (n > 0) {
    const message = `${n} of the batch's ${body.total} calls ${n === 1 ? 'is' : 'are'} not valid (see \`errors\`); nothing was created.`;
    // The thread's errors as it rendered them, unless the account's are to be merged in by index.
    if (account.errors.length === 0) throw withErrorsJson(new ApiError(400, 'invalid_batch', message), body.errorsJson);
    const errors = [...(JSON.parse(new TextDecoder().decode(body.errorsJson)) as BatchItemError[]), ...account.errors].sort((a, b) => a.index - b.index);
    throw new ApiError(400, 'invalid_batch', message, {}, { errors });
  }
  const calls = account.passed;
  // A stop condition on a field a call does not request could never count that call: refused, naming the first.
  const stopField = body.stopWhen?.field;
  const without = stopField === undefined ? undefined : calls.find((c) => !(c.call.fields ?? []).some((f) => f.name === stopField));
  if (without) throw new ApiError(400, 'invalid_stop_when', `\`stopWhen.field\` must be a field every call requests; call ${without.index} does not request "${stopField}".`);
  return {
    id: uuidv7(),
    accountId: key.account_id,
    apiKeyId: key.id,
    maxConcurrency: body.maxConcurrency,
    webhookUrl: body.webhookUrl,
    metadataJson: body.metadata ? JSON.stringify(body.metadata) : null,
    scheduledAt: body.scheduledAt,
    stopWhenJson: body.stopWhen ? JSON.stringify(body.stopWhen) : null,
    calls,
  };
}

/** `err` with its `errors` given as JSON, spliced into its body as the error path renders one (errorBody). */
function withErrorsJson(err: ApiError, errorsJson: Uint8Array): ApiError {
  const head = JSON.stringify(errorBody(err));
  const body = Buffer.concat([Buffer.from(`${head.slice(0, -1)},"errors":`), errorsJson, Buffer.from('}')]);
  return new ApiError(err.status, err.token, err.message, err.headers, err.fields, body);
}

/** Step 3. */
export function createBatchUnit(ports: CreateBatchPorts, req: BatchRequest, batch: NewBatch): WriteUnit<PlacementOutcome> {
  return async ({ ex, atomically }) => {
    const { key, idemKey } = req;
    if (idemKey && !(await claimIdempotencyKey(ex, key.id, idemKey, req.fingerprint, req.now, ports.idempotencyTtlMs))) {
      return answerFromRecord(await findIdempotencyRecord(ex, key.id, idemKey), req.fingerprint);
    }
    try {
      return await atomically(key.account_id, async (tx) => {
        const window = await consumeWithinLimit(tx, req.window, req.now, 'batches');
        await insertBatch(tx, batch, req.now);
        const scheduled = batch.scheduledAt === null ? {} : { scheduledAt: new Date(batch.scheduledAt).toISOString() };
        const response: CreateBatchResponse = { batchId: batch.id, status: 'queued', total: batch.calls.length, ...scheduled };
        const stored: StoredResponse = { status: 202, headers: { Location: `/agent/batches/${batch.id}` }, body: JSON.stringify(response) };
        if (idemKey) await completeIdempotencyKey(tx, key.id, idemKey, stored);
        return { kind: 'placed' as const, window, response: stored };
      });
    } catch (err) {
      // A 429 (or a fault) is forgotten, so that a retry with the same key can succeed.
      if (idemKey) await releaseIdempotencyKey(ex, key.id, idemKey).catch(() => {});
      if (err instanceof RateLimited) return { kind: 'rejected', window: err.window, error: err };
      throw err;
    }
  };
}
