// Ending a batch early, the one way: cancelBatch (`canceled`) and its stop condition met (`stopped`,
// condition_met, batch-stop.ts). The batch releases nothing more, its calls not yet dialled end canceled (each with
// its event, as cancelCall ends one), and its live calls finish. The batch's lease is cleared with it, so a runner
// mid-step finds its release fenced off (LeaseLost) and releases nothing; the calls' leases likewise, so a worker
// about to dial one never does.
import { logCanceled } from '../placement/cancel.js';
import { ApiError, batchNotFound } from '../errors/api-error.js';
import { cancelUndialledBatchCalls } from '../store/calls/batch-calls.js';
import type { Executor, WriteUnit } from '../store/store.js';
import { batchEventRow, endedCounts } from './batch-events.js';
import { batchStatusForKey, updateBatchFrom } from '../store/batches/batches.js';

/** The statuses a batch is ended early from. */
export const RUNNING = ['queued', 'running', 'paused'];

export type CancelBatchOutcome = { kind: 'canceled' } | { kind: 'rejected'; error: ApiError };

/**
 * Ends a batch that has not ended: `status` (canceled or stopped) with `stopReason`, its undialled calls canceled
 * with their events. False when it had already ended (or is not the key's, when `apiKeyId` is given).
 */
export async function endBatch(ex: Executor, id: string, how: { status: 'canceled' | 'stopped'; stopReason: string | null; apiKeyId?: string }, now: number): Promise<boolean> {
  const batch = await updateBatchFrom(
    ex,
    id,
    RUNNING,
    { status: how.status, stop_reason: how.stopReason, ended_at: now, updated_at: now, next_run_at: null, lease_owner: null, lease_expires_at: null },
    how.apiKeyId,
  );
  if (!batch) return false;
  // Its calls not yet dialled end canceled.
  const ended = await cancelUndialledBatchCalls(ex, id, now);
  await logCanceled(ex, ended, now, [batchEventRow(batch, how.status, await endedCounts(ex, batch), now)]);
  return true;
}

export function cancelBatchUnit(apiKeyId: string, batchId: string, now: number): WriteUnit<CancelBatchOutcome> {
  return ({ atomically }) =>
    atomically(null, async (ex) => {
      const id = batchId.toLowerCase();
      if (await endBatch(ex, id, { status: 'canceled', stopReason: null, apiKeyId }, now)) return { kind: 'canceled' };
      const status = await batchStatusForKey(ex, id, apiKeyId);
      if (status === undefined) return { kind: 'rejected', error: batchNotFound(batchId) };
      if (status === 'canceled') return { kind: 'canceled' };
      return { kind: 'rejected', error: new ApiError(409, 'batch_already_ended', `The batch already ended ${status}; only a batch not yet ended can be canceled.`) };
    });
}
