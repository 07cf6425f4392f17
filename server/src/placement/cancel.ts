// cancelCall as one unit of write work. The engine owns a call's moves once it has been dialled; the cancel owns
// only the one move that needs no line:
// - a call not yet dialled (queued, or dialing while no dial stands: the carrier throttled the last one) ends
//   canceled here, in one statement with its event, and the lease any worker holds on it is cleared with it, so a
//   worker about to dial it finds its commit fenced off (LeaseLost) and never dials: 200;
// - a call being dialled or live is marked (cancel_requested_at) and made due at once; the engine hangs the line
//   up and ends it, canceled if it was never answered, completed if it was (call-engine.ts): 202;
// - a call already canceled is 200 again; one that ended otherwise is 409 call_already_ended; another key's is 404.
// With an Idempotency-Key, the first answer is stored and replayed, as for a placement; faults are not stored.
import type { Insertable } from 'kysely';
import type { CallRecord } from '../generated/types.gen.js';
import type { WebhookEventsTable } from '../store/schema.js';
import { cancelUndialledCall, markCancelRequested, readCallForKey } from '../store/calls/cancel-calls.js';
import { insertStatusChanges } from '../store/calls/status-changes.js';
import { ApiError, callNotFound } from '../errors/api-error.js';
import { toCallRecord, type CallRow } from '../store/calls-repo.js';
import { claimIdempotencyKey, completeIdempotencyKey, findIdempotencyRecord, releaseIdempotencyKey, type StoredResponse } from '../store/idempotency-repo.js';
import type { Executor, WriteUnit } from '../store/store.js';
import { eventRow } from '../webhooks/outbox.js';
import { isTerminal } from '../calls/call-status.js';
import { statusChangeRow } from '../calls/status-log.js';
import { answerFromRecord, type PlacementOutcome } from './placement.js';
import { insertEvents } from '../store/webhooks/events.js';

export interface CancelRequest {
  apiKeyId: string;
  /** The path's id, as given (ids are matched lowercase). */
  callId: string;
  idemKey: string | null;
  now: number;
  publicBaseUrl: string;
  idempotencyTtlMs: number;
}

export type CancelOutcome = Exclude<PlacementOutcome, { kind: 'placed' }> | { kind: 'answered'; response: StoredResponse; row: CallRow };

/** What an Idempotency-Key guards for a cancel: this operation on this call (never equal to a body's hex hash). */
export const cancelFingerprint = (callId: string) => `cancelCall:${callId.toLowerCase()}`;

export function cancelUnit(req: CancelRequest): WriteUnit<CancelOutcome> {
  return async ({ ex, atomically }) => {
    const { apiKeyId, idemKey } = req;
    const fingerprint = cancelFingerprint(req.callId);
    if (idemKey && !(await claimIdempotencyKey(ex, apiKeyId, idemKey, fingerprint, req.now, req.idempotencyTtlMs))) {
      return answerFromRecord(await findIdempotencyRecord(ex, apiKeyId, idemKey), fingerprint);
    }
    try {
      const outcome = await atomically(null, (tx) => cancel(tx, req));
      if (idemKey) await completeIdempotencyKey(ex, apiKeyId, idemKey, outcome.kind === 'answered' ? outcome.response : errorResponse(outcome.error));
      return outcome;
    } catch (err) {
      if (idemKey) await releaseIdempotencyKey(ex, apiKeyId, idemKey).catch(() => {});
      throw err;
    }
  };
}

/** The events and status changes of calls just ended canceled (with `also`, more outbox rows), in the same transaction. */
export async function logCanceled(ex: Executor, ended: readonly CallRow[], now: number, also: Insertable<WebhookEventsTable>[] = []): Promise<void> {
  await insertStatusChanges(
    ex,
    ended.map((row) => statusChangeRow(row, now)),
  );
  const events = [...ended.map((row) => eventRow(row, 'call.canceled', now)), ...also];
  if (events.length > 0) await insertEvents(ex, events);
}

function errorResponse(error: ApiError): StoredResponse {
  return { status: error.status, headers: {}, body: JSON.stringify({ error: error.token, message: error.message }) };
}

async function cancel(ex: Executor, req: CancelRequest): Promise<{ kind: 'answered'; response: StoredResponse; row: CallRow } | { kind: 'rejected'; error: ApiError }> {
  const id = req.callId.toLowerCase();
  const { now } = req;
  const answer = (status: 200 | 202, row: CallRow) => {
    const record: CallRecord = toCallRecord(row, req.publicBaseUrl);
    return { kind: 'answered' as const, row, response: { status, headers: {}, body: JSON.stringify(record) } };
  };

  // Not yet dialled: canceled here, with its event, fencing off any worker's claim.
  const ended = await cancelUndialledCall(ex, req.apiKeyId, id, now);
  if (ended) {
    await logCanceled(ex, [ended], now);
    return answer(200, ended);
  }

  // Being dialled or live: the engine takes it down; the first request's time is the one that counts.
  const marked = await markCancelRequested(ex, req.apiKeyId, id, now);
  if (marked) return answer(202, marked);

  const row = await readCallForKey(ex, req.apiKeyId, id);
  if (!row) return { kind: 'rejected', error: callNotFound(req.callId) };
  if (row.status === 'canceled') return answer(200, row);
  if (isTerminal(row.status)) {
    return { kind: 'rejected', error: new ApiError(409, 'call_already_ended', `The call already ended ${row.status}; only a call not yet ended can be canceled.`) };
  }
  // Neither update matched a call in flight: impossible, since each status is covered by one of them.
  throw new Error(`call ${row.id} is ${row.status}, which cancel does not know`);
}
