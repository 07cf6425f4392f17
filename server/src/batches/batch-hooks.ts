// What a batch does as one of its calls ends, given to the call engine as its hooks (engine/step-context.ts) by
// the composition root, so the engine writes nothing of a batch itself.
import type { Logger } from 'pino';
import type { CallHooks } from '../engine/step-context.js';
import type { Store } from '../store/store.js';
import { countTowardStop } from './batch-stop.js';

export function batchCallHooks(store: Pick<Store, 'db'>, logger: Logger): CallHooks {
  return {
    // A batch's completed call counts toward its stop condition in the transaction that completes it.
    onCallCompleted: async (ex, call, extracted, now) => {
      if (call.batch_id !== null) await countTowardStop(ex, call.batch_id, extracted, now);
    },
    // A batch's call that ends frees one of the batch's slots: the batch is due now to release the next (were this
    // lost, the batch's own poll finds it).
    onCallEnded: async (call, now) => {
      if (call.batch_id === null) return;
      await store.db
        .updateTable('batches')
        .set({ next_run_at: now })
        .where('id', '=', call.batch_id)
        .where('next_run_at', '>', now)
        .execute()
        .catch((err: unknown) => logger.warn({ err, batchId: call.batch_id }, 'could not make the batch due; its poll will'));
    },
  };
}
