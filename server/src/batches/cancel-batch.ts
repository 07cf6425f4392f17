// cancelBatch as one unit of write work: the batch ends `canceled` and releases nothing more, its calls not yet
// dialled end canceled (each with its event, as cancelCall ends one), and its live calls finish. The batch's lease
// is cleared with it, so a runner mid-step finds its release fenced off (LeaseLost) and releases nothing; the
// calls' leases likewise, so a worker about to dial one never does.
import { ApiError } from '../errors/api-error.js';
import type { CallRow } from '../store/calls-repo.js';
import { runQuery } from '../store/prepared-query.js';
import type { WriteUnit } from '../store/store.js';
import { eventRow } from '../webhooks/outbox.js';

/** The statuses a batch is canceled from. */
const RUNNING = ['queued', 'running', 'paused'];

export type CancelBatchOutcome = { kind: 'canceled' } | { kind: 'rejected'; error: ApiError };

export function cancelBatchUnit(apiKeyId: string, batchId: string, now: number): WriteUnit<CancelBatchOutcome> {
  return ({ atomically }) =>
    atomically(null, async (ex) => {
      const db = ex.compiler;
      const id = batchId.toLowerCase();
      const [batch] = await runQuery(
        ex,
        db
          .updateTable('batches')
          .set({ status: 'canceled', ended_at: now, updated_at: now, next_run_at: null, lease_owner: null, lease_expires_at: null })
          .where('id', '=', id)
          .where('api_key_id', '=', apiKeyId)
          .where('status', 'in', RUNNING)
          .returning('id'),
      );
      if (!batch) {
        const [row] = await runQuery(ex, db.selectFrom('batches').select('status').where('id', '=', id).where('api_key_id', '=', apiKeyId));
        if (!row) return { kind: 'rejected', error: new ApiError(404, 'not_found', `No batch ${batchId} for this API key.`) };
        if (row.status === 'canceled') return { kind: 'canceled' };
        return { kind: 'rejected', error: new ApiError(409, 'batch_already_ended', `The batch already ended ${row.status}; only a batch not yet ended can be canceled.`) };
      }
      const ended = (await runQuery(
        ex,
        db
          .updateTable('calls')
          .set({ status: 'canceled', ended_at: now, duration_sec: 0, billed_minutes: 0, error: null, cancel_requested_at: now, next_run_at: null, lease_owner: null, lease_expires_at: null, updated_at: now })
          .where('batch_id', '=', id)
          .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'dialing'), eb('dial_attempted_at', 'is', null), eb('carrier_ref', 'is', null)])]))
          .returningAll(),
      )) as CallRow[];
      const events = ended.flatMap((row) => eventRow(row, 'call.canceled', now) ?? []);
      if (events.length > 0) await runQuery(ex, db.insertInto('webhook_events').values(events));
      return { kind: 'canceled' };
    });
}
