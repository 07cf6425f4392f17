// Redials: a call placed with a redial policy that ends unanswered leads to a new call, created queued in the same
// transaction as that ending (so the client sees it at once, linked both ways, and can cancel it). The one place
// the rule is written: which endings redial, from which budget, and what the new call copies.
import type { Insertable } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { nextOpening, type AppliedWindow } from '../schedule/calling-window.js';
import type { RedialPolicy } from '../placement/prepare-placement.js';
import { NOT_STARTED, type CallRow } from '../store/calls-repo.js';
import type { CallsTable } from '../store/schema.js';
import type { CallPatch } from './call-state.js';

/** Failures worth dialling again: the network, not the carrier's refusal nor an unknown dial. */
const TRANSIENT_ERRORS = new Set(['carrier_unreachable', 'carrier_timeout']);

/** The budget an ending draws on, or null when it is never redialled (declined, canceled, completed, other failures). */
function budgetFor(patch: CallPatch): 'onNoAnswer' | 'onVoicemail' | null {
  if (patch.status === 'no_answer') return 'onNoAnswer';
  if (patch.status === 'failed' && TRANSIENT_ERRORS.has(patch.error ?? '')) return 'onNoAnswer';
  if (patch.status === 'voicemail') return 'onVoicemail';
  return null;
}

/**
 * The redial this ending leads to: its id and its row, due afterMinutes after the ending, moved to its calling
 * window's next opening; null for none.
 */
export function redialFor(row: CallRow, patch: CallPatch, now: number): { id: string; values: Insertable<CallsTable> } | null {
  if (row.redial_json === null || row.next_call_id !== null) return null;
  const policy = JSON.parse(row.redial_json) as RedialPolicy;
  const budget = budgetFor(patch);
  if (budget === null || policy[budget] <= 0) return null;
  const id = uuidv7();
  const after = (patch.ended_at ?? now) + policy.afterMinutes * 60_000;
  // A window that no longer opens leaves the time as it is; the engine's check at the dial ends the call then.
  const at = row.calling_window_json === null ? after : (nextOpening(JSON.parse(row.calling_window_json) as AppliedWindow, after) ?? after);
  const values: Insertable<CallsTable> = {
    id,
    account_id: row.account_id,
    api_key_id: row.api_key_id,
    status: 'queued',
    to_number: row.to_number,
    objective: row.objective,
    context: row.context,
    fields_json: row.fields_json,
    webhook_url: row.webhook_url,
    caller_id: row.caller_id,
    voice: row.voice,
    language: row.language,
    language_source: row.language_source,
    ...NOT_STARTED,
    created_at: now,
    updated_at: now,
    next_run_at: at,
    metadata_json: row.metadata_json,
    voicemail_message: row.voicemail_message,
    scheduled_at: at,
    redial_json: JSON.stringify({ ...policy, [budget]: policy[budget] - 1 }),
    previous_call_id: row.id,
    calling_window_json: row.calling_window_json,
    // A redial of a batch's call is the batch's too, and its row's: it counts against its concurrency and its end.
    batch_id: row.batch_id,
    batch_index: row.batch_index,
    machine_detection: row.machine_detection,
    on_behalf_of: row.on_behalf_of,
    recording_notice: row.recording_notice,
    send_digits: row.send_digits,
    tools_json: row.tools_json,
    transfer_json: row.transfer_json,
    hold_max_wait_sec: row.hold_max_wait_sec,
  };
  return { id, values };
}
