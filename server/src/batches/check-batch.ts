// A batch's calls checked as placeCall checks one, every one of them: validation is all or nothing, so
// every bad call is named by its index with the error placeCall would give it, in placeCall's order — the schema's
// tokens, then the guardrails (preparePlacement), then the account's do-not-call list and caller ids, read for the
// whole batch in a few queries rather than one read per call (outside the batch's write: the engine reads the
// list again before every dial, so a number listed meanwhile is still never called). A call is the batch's `defaults` overlaid with the
// call's own fields; a call does not take `startAt`, as a batch's calls start with the batch.
import type { ApiKeyRow } from '../accounts/accounts-repo.js';
import type { AgentCatalogue } from '../placement/agent-catalogue.js';
import type { IrsfList } from '../numbers/irsf.js';
import { languageDetectorReady } from '../placement/language.js';
import { checkCallerId, preparePlacement, type PreparedCall } from '../placement/prepare-placement.js';
import { optedOutMessage } from '../placement/placement.js';
import { ApiError } from '../errors/api-error.js';
import type { ErrorToken, PlaceCallRequest } from '../generated/types.gen.js';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { findDefaultCallerId } from '../store/accounts/accounts.js';
import { ownedAmong } from '../store/accounts/numbers.js';
import { listedAmong } from '../store/do-not-call/do-not-call.js';

/** One bad call of a batch: its index in `calls` and the error placeCall would answer it with. */
export interface BatchItemError {
  index: number;
  error: ErrorToken;
  message: string;
}

export interface BatchCheckPorts {
  catalogue: AgentCatalogue;
  irsf: IrsfList;
  /** placeCall's schema check of one call (request-validator.ts's compileBodyCheck on PlaceCallRequest). */
  checkCall(body: unknown): ApiError | null;
}

/** A call that passed, with its index in the batch. */
export interface CheckedCall {
  index: number;
  call: PreparedCall;
}

export type BatchCheck = { ok: true; calls: CheckedCall[] } | { ok: false; errors: BatchItemError[] };

/** How many values one `in (…)` list holds: well under both stores' limits on bound parameters. */
const CHUNK = 500;

const itemError = (index: number, err: ApiError): BatchItemError => ({ index, error: err.token, message: err.message });

/**
 * The schema and the guardrails for every call, with no store read; then checkBatchAccount for those that pass.
 * Calls that fail here are named and not read for.
 */
export function checkBatchCalls(
  ports: BatchCheckPorts,
  key: ApiKeyRow,
  calls: readonly unknown[],
  defaults: Record<string, unknown> | undefined,
  now: number,
): { passed: CheckedCall[]; errors: BatchItemError[] } {
  const passed: CheckedCall[] = [];
  const errors: BatchItemError[] = [];
  calls.forEach((item, index) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      errors.push({ index, error: 'invalid_body', message: 'Each call must be a JSON object, as placeCall takes.' });
      return;
    }
    const body: Record<string, unknown> = { ...defaults, ...(item as Record<string, unknown>) };
    if ('startAt' in body) {
      errors.push({ index, error: 'invalid_start_at', message: "A batch's calls start with the batch: give `startAt` on the batch, not on its calls." });
      return;
    }
    const problem = ports.checkCall(body);
    if (problem) {
      errors.push(itemError(index, problem));
      return;
    }
    try {
      passed.push({ index, call: preparePlacement(ports, key, body as unknown as PlaceCallRequest, now) });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      errors.push(itemError(index, err));
    }
  });
  return { passed, errors };
}

/**
 * The account's checks for the calls that passed checkBatchCalls, in placeCall's order: the do-not-call list
 * (destination_opted_out: the number called, then the transfer's), then the caller id (caller_id_not_owned). Returns the calls, each with the caller id it
 * dials from, and the errors.
 */
export async function checkBatchAccount(db: Kysely<Database>, key: ApiKeyRow, checked: readonly CheckedCall[]): Promise<{ passed: CheckedCall[]; errors: BatchItemError[] }> {
  const account = await findDefaultCallerId(db, key.account_id);
  const accountDefault = account?.default_caller_id ?? null;
  const listed = await within(
    db,
    'do_not_call',
    key.account_id,
    checked.flatMap((c) => [c.call.to, ...(c.call.transfer ? [c.call.transfer.to] : [])]),
  );
  const owned = await within(
    db,
    'numbers',
    key.account_id,
    checked.flatMap((c) => c.call.callerId ?? accountDefault ?? []),
  );
  const passed: CheckedCall[] = [];
  const errors: BatchItemError[] = [];
  for (const { index, call } of checked) {
    if (listed.has(call.to)) {
      errors.push({ index, error: 'destination_opted_out', message: optedOutMessage(call.to) });
      continue;
    }
    if (call.transfer && listed.has(call.transfer.to)) {
      errors.push({ index, error: 'destination_opted_out', message: `\`transfer.to\`: ${optedOutMessage(call.transfer.to)}` });
      continue;
    }
    try {
      const requested = call.callerId;
      const callerId = checkCallerId(requested, accountDefault, owned.has(requested ?? accountDefault ?? ''));
      passed.push({ index, call: { ...call, callerId } });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      errors.push(itemError(index, err));
    }
  }
  return { passed, errors };
}

/** Every call of a batch checked: the calls to create, or every error, by index. */
export async function checkBatch(
  ports: BatchCheckPorts,
  db: Kysely<Database>,
  key: ApiKeyRow,
  calls: readonly unknown[],
  defaults: Record<string, unknown> | undefined,
  now: number,
): Promise<BatchCheck> {
  // preparePlacement infers a call's language with the detector, which loads once, asynchronously.
  await languageDetectorReady();
  const first = checkBatchCalls(ports, key, calls, defaults, now);
  const second = await checkBatchAccount(db, key, first.passed);
  const errors = [...first.errors, ...second.errors].sort((a, b) => a.index - b.index);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, calls: second.passed };
}

/** Which of `values` the account has in `table` (its do-not-call list, or its numbers), in chunks. */
async function within(db: Kysely<Database>, table: 'do_not_call' | 'numbers', accountId: string, values: readonly string[]): Promise<Set<string>> {
  const unique = [...new Set(values)];
  const found = new Set<string>();
  for (let i = 0; i < unique.length; i += CHUNK) {
    const rows = await (table === 'do_not_call' ? listedAmong : ownedAmong)(db, accountId, unique.slice(i, i + CHUNK));
    for (const r of rows) found.add(r.e164);
  }
  return found;
}
