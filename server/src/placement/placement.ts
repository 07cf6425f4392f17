// A placement as one unit of write work (write-batches.ts), in this order:
// 1. with an Idempotency-Key, claim it; a key already claimed is answered from its record (a replay, 422 for
//    another body, 409 while its first request is still running);
// 2. a key whose rate-limit window is full (as the gate read it) is 429 at once;
// 3. validate the body, resolve the defaults and apply the guardrails (400s, see prepare-placement.ts);
// 4. atomically: count the call against the window if it still has room (429 if not), then, on one read of the
//    account, check the destination (and the transfer's number) is not on its do-not-call list (400), the caller
//    id is the account's (400)
//    and the minute cap (429), and insert the queued call
//    with its idempotency record. A rejection here rolls the count back: only placed calls spend the window.
// Validation and guardrail rejections are stored under the key and replayed like successes; 429s are not, and
// neither is a fault (the key is released, or on SQLite the unit's savepoint rolled back). Expected rejections
// are returned, not thrown, so the record they leave is kept.
// A preflight (preflightCall) runs steps 2 and 3 and the account's checks of step 4 with the same code, and writes
// nothing.
import { v7 as uuidv7 } from 'uuid';
import type { ApiKeyRow } from '../accounts/accounts-repo.js';
import type { NumberType, PlaceCallRequest, PlaceCallResponse, PreflightResponse, RequestProblem } from '../generated/types.gen.js';
import { billingPeriod, checkMinuteCap, remainingMinutes, usageOf, type Allowance } from '../accounts/minute-billing.js';
import { checkRoom, consumeWithinLimit, RateLimited, type RateWindow, type WindowState } from '../accounts/rate-limit.js';
import { ApiError, errorBody, problemOf, problemsError } from '../errors/api-error.js';
import { readPlacementState, type PlacementState } from '../store/accounts/usage.js';
import { insertQueuedCall, iso, windowFields } from '../store/calls-repo.js';
import { claimIdempotencyKey, completeIdempotencyKey, findIdempotencyRecord, releaseIdempotencyKey, type IdempotencyRow, type StoredResponse } from '../store/idempotency-repo.js';
import type { Executor, WriteUnit } from '../store/store.js';
import type { IrsfList } from '../numbers/irsf.js';
import type { AgentCatalogue } from './agent-catalogue.js';
import { parseE164, withParsedNumbers } from './caller-id.js';
import type { PlacementAhead } from './placement-ahead.js';
import { checkCallerId, checkGuardrails, type AccountReads, type PreparedCall } from './prepare-placement.js';

export interface PlacementRequest {
  key: ApiKeyRow;
  window: RateWindow;
  /** The key's window as the gate read it. */
  seen: WindowState;
  /** The Idempotency-Key, unquoted; null without one. */
  idemKey: string | null;
  /** requestFingerprint of the body when there is an idempotency key. */
  fingerprint: string;
  body: unknown;
  /** Every problem of the body against the schema (request-validator.ts); empty when it is valid. */
  bodyProblems(): RequestProblem[];
  now: number;
  /** The request's id, for the lines it logs. */
  reqId?: string;
  /** What the placement worker computed ahead (placement-ahead.ts). */
  ahead?: PlacementAhead;
}

export interface PlacementPorts {
  catalogue: AgentCatalogue;
  irsf: IrsfList;
  idempotencyTtlMs: number;
  /** Told when an idempotency key could not be settled after a rejection. */
  warn(fields: { err: unknown; reqId?: string }, message: string): void;
}

export type PlacementOutcome =
  | { kind: 'placed'; window: WindowState; response: StoredResponse }
  | { kind: 'replayed'; response: StoredResponse }
  | { kind: 'rejected'; window?: WindowState; error: ApiError };

export function placementUnit(ports: PlacementPorts, req: PlacementRequest): WriteUnit<PlacementOutcome> {
  return async ({ ex, atomically }) => {
    const { key, idemKey } = req;
    if (idemKey && !(await claimIdempotencyKey(ex, key.id, idemKey, req.fingerprint, req.now, ports.idempotencyTtlMs))) {
      return answerFromRecord(await findIdempotencyRecord(ex, key.id, idemKey), req.fingerprint);
    }
    try {
      const call = await checkRequest(ports, ex, req);
      return await atomically(key.account_id, async (tx) => {
        const window = await consumeWithinLimit(tx, req.window, req.now, 'calls');
        return { kind: 'placed', window, response: await insertWithinCap(tx, key, call, idemKey, req.now) };
      });
    } catch (err) {
      if (idemKey) await settleKey(ex, req, idemKey, err);
      if (err instanceof ApiError) return { kind: 'rejected', window: err instanceof RateLimited ? err.window : req.seen, error: err };
      throw err;
    }
  };

  /** Validation and guardrail rejections are stored and replayed; 429 and faults are forgotten so a retry can succeed. */
  async function settleKey(ex: Executor, req: PlacementRequest, idemKey: string, err: unknown): Promise<void> {
    const apiKeyId = req.key.id;
    try {
      if (err instanceof ApiError && err.status === 400) {
        const body = JSON.stringify(errorBody(err));
        await completeIdempotencyKey(ex, apiKeyId, idemKey, { status: 400, headers: {}, body });
      } else {
        await releaseIdempotencyKey(ex, apiKeyId, idemKey);
      }
    } catch (storeErr) {
      ports.warn({ err: storeErr, reqId: req.reqId }, 'could not settle idempotency key');
    }
  }
}

type CheckedRequest = Pick<PlacementRequest, 'key' | 'seen' | 'body' | 'bodyProblems' | 'ahead' | 'now'>;

/**
 * Steps 2 and 3: the window as the gate read it, then the body's validation, defaults and guardrails. A request
 * with problems is refused with all of them: the schema's, the guardrails whose inputs the schema passed, and the
 * account's checks of the numbers that passed theirs (read here, outside the unit's atomic part: nothing is
 * written for a refused request). A valid request costs what it did: the schema's check finds nothing, the
 * guardrails run as before, and the account is read once, in step 4.
 */
async function checkRequest(ports: PlacementPorts, ex: Executor, req: CheckedRequest): Promise<PreparedCall> {
  checkRoom(req.seen, 'calls');
  const { schema, checked } = withParsedNumbers(req.ahead?.numbers, () => {
    const schema = req.bodyProblems();
    // A body that is not an object (field '') has nothing for the guardrails to read.
    if (schema.some((p) => p.field === '')) return { schema, checked: null };
    // The properties the schema refused (an unknown field is none of them, whatever its name holds).
    const unsound = new Set(schema.filter((p) => p.error !== 'unknown_field').map((p) => p.field.split('.')[0]));
    return { schema, checked: checkGuardrails({ catalogue: ports.catalogue, irsf: ports.irsf }, req.key, req.body as PlaceCallRequest, req.now, req.ahead?.language, unsound) };
  });
  if (schema.length === 0 && checked?.call) return checked.call;
  const problems = [...schema, ...(checked?.problems ?? [])];
  if (checked) problems.push(...accountProblems(await readAccount(ex, req.key, checked.reads, req.now), checked.reads));
  throw problemsError(problems);
}

/**
 * preflightCall: every check of a placement, in its order, and nothing written: the window is read as the gate
 * read it, the account's numbers and minutes are read, and the call that would be placed is described. Throws the
 * ApiError placeCall would answer with.
 */
export async function preflight(ports: PlacementPorts, ex: Executor, req: CheckedRequest): Promise<PreflightResponse> {
  const call = await checkRequest(ports, ex, req);
  const { callerId, allowance } = await checkAccount(ex, req.key, call, req.now);
  const { country, type } = withParsedNumbers(req.ahead?.numbers, () => parseE164(call.to));
  return {
    number: { e164: call.to, country: country!, type: numberType(type) },
    callerId,
    voice: call.voice,
    language: call.language,
    languageSource: call.languageSource,
    scheduledAt: iso(call.scheduledAt),
    ...windowFields(call.callingWindow),
    minutesRemaining: remainingMinutes(allowance),
  };
}

/** libphonenumber's type in the contract's spelling (FIXED_LINE_OR_MOBILE is fixed_line_or_mobile). */
function numberType(type: string | undefined): NumberType {
  return (type ? type.toLowerCase() : 'unknown') as NumberType;
}

/** The answer to a request whose Idempotency-Key was already claimed: its stored answer, or 422 / 409. */
export function answerFromRecord(record: IdempotencyRow | undefined, fingerprint: string): Exclude<PlacementOutcome, { kind: 'placed' }> {
  if (record && record.request_hash !== fingerprint) {
    return {
      kind: 'rejected',
      error: new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body; use a new key for a new request.'),
    };
  }
  if (record?.state !== 'done') {
    return {
      kind: 'rejected',
      error: new ApiError(409, 'idempotency_key_in_use', 'A request with this Idempotency-Key is still running; retry shortly.', { 'Retry-After': '1' }),
    };
  }
  const headers = JSON.parse(record.response_headers_json ?? '{}') as Record<string, string>;
  return { kind: 'replayed', response: { status: record.response_status!, headers, body: record.response_body! } };
}

/**
 * The numbers must not be on the do-not-call list and the caller id must be the account's (400 with every such
 * problem), and the minute cap must allow another call (429).
 */
async function checkAccount(ex: Executor, key: ApiKeyRow, call: PreparedCall, now: number): Promise<{ callerId: string; allowance: Allowance }> {
  const reads: AccountReads = { to: call.to, transferTo: call.transfer?.to ?? null, callerIdChecked: true, callerId: call.callerId };
  const state = await readAccount(ex, key, reads, now);
  const problems = accountProblems(state, reads);
  if (problems.length > 0) throw problemsError(problems);
  const callerId = checkCallerId(call.callerId, state?.default_caller_id ?? null, Boolean(state?.owned));
  const allowance = usageOf(state);
  checkMinuteCap(allowance, now);
  return { callerId, allowance };
}

/** One read: the plan and usage, the default caller id, whether the caller id is owned and the numbers listed. */
function readAccount(ex: Executor, key: ApiKeyRow, reads: AccountReads, now: number): Promise<PlacementState | undefined> {
  return readPlacementState(ex, reads.callerId, reads.to ?? '', reads.transferTo, billingPeriod(now).start, key.account_id);
}

/** The account's problems, in placeCall's order, for the values that are read (AccountReads). */
function accountProblems(state: PlacementState | undefined, reads: AccountReads): RequestProblem[] {
  const problems: RequestProblem[] = [];
  if (reads.to !== null && state?.listed) problems.push({ error: 'destination_opted_out', message: optedOutMessage(reads.to), field: 'to' });
  if (reads.transferTo !== null && state?.transfer_listed) {
    problems.push({ error: 'destination_opted_out', message: `\`transfer.to\`: ${optedOutMessage(reads.transferTo)}`, field: 'transfer.to' });
  }
  if (reads.callerIdChecked) {
    try {
      checkCallerId(reads.callerId, state?.default_caller_id ?? null, Boolean(state?.owned));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      problems.push(problemOf(err, 'callerId'));
    }
  }
  return problems;
}

/** Why a number on the do-not-call list is refused: the same words for the number called and the transfer's. */
export const optedOutMessage = (e164: string) => `${e164} is on this account's do-not-call list; remove it from the list to call it.`;

/** Passes the account's checks (checkAccount), then inserts the call, queued. */
async function insertWithinCap(ex: Executor, key: ApiKeyRow, call: PreparedCall, idemKey: string | null, now: number): Promise<StoredResponse> {
  const { callerId } = await checkAccount(ex, key, call, now);
  const id = uuidv7();
  // A call dialled at once is answered exactly as in v1; a scheduled one also says when.
  const scheduled = call.scheduledAt === null ? {} : { scheduledAt: iso(call.scheduledAt) };
  const response: PlaceCallResponse = { callId: id, status: 'queued', language: call.language, languageSource: call.languageSource, voice: call.voice, ...scheduled };
  const stored: StoredResponse = { status: 202, headers: { Location: `/agent/calls/${id}` }, body: JSON.stringify(response) };
  await insertQueuedCall(ex, {
    id,
    account_id: key.account_id,
    api_key_id: key.id,
    to_number: call.to,
    objective: call.objective,
    context: call.context,
    fields_json: call.fields ? JSON.stringify(call.fields) : null,
    webhook_url: call.webhookUrl,
    caller_id: callerId,
    voice: call.voice,
    language: call.language,
    language_source: call.languageSource,
    metadata_json: call.metadata === null ? null : JSON.stringify(call.metadata),
    voicemail_message: call.voicemailMessage,
    scheduled_at: call.scheduledAt,
    redial_json: call.redial === null ? null : JSON.stringify(call.redial),
    previous_call_id: null,
    calling_window_json: call.callingWindow === null ? null : JSON.stringify(call.callingWindow),
    batch_id: null,
    machine_detection: call.machineDetection,
    created_at: now,
    on_behalf_of: call.onBehalfOf,
    recording_notice: call.recordingNotice ? 1 : 0,
    send_digits: call.sendDigits,
    tools_json: call.tools ? JSON.stringify(call.tools) : null,
    transfer_json: call.transfer ? JSON.stringify(call.transfer) : null,
    hold_max_wait_sec: call.holdMaxWaitSec ?? null,
  });
  if (idemKey) await completeIdempotencyKey(ex, key.id, idemKey, stored);
  return stored;
}
