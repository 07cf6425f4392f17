// Call rows, read tenant-scoped (by the key that placed them) and mapped to the wire's call record and summary.
import type { Selectable } from 'kysely';
import type {
  AnsweredBy,
  CallLatency,
  CallMetadata,
  CallRecord,
  CallStatus,
  CallSummary,
  CallTool,
  ClientTool,
  Evidence,
  ExtractedValues,
  LanguageSource,
  ToolCall,
  Transfer,
  Turn,
} from '../generated/types.gen.js';
import { singleZone, windowOnWire, type AppliedWindow } from '../schedule/calling-window.js';
import type { CallsTable } from './schema.js';
import { PARAM, perStore, preparedQuery, statement } from './prepared-query.js';
import type { Executor, Store } from './store.js';
import { LIST_COLUMNS } from './calls/call-list.js';

export type CallRow = Selectable<CallsTable>;

/** A client tool as the call keeps it: as placed, with its parameters and timeout resolved. */
export type StoredTool = Required<Omit<ClientTool, 'parameters'>> & { parameters: Record<string, unknown> };

/** A transfer as the call keeps it: as placed, its mode and condition filled in. */
export type CallTransfer = Required<Transfer>;

/** The call's transfer as placed; null for none. */
export const transferOf = (row: Pick<CallRow, 'transfer_json'>): CallTransfer | null => (row.transfer_json === null ? null : (JSON.parse(row.transfer_json) as CallTransfer));

/** The call's client tools as placed; empty for none. */
export const toolsOf = (row: Pick<CallRow, 'tools_json'>): StoredTool[] => (row.tools_json === null ? [] : (JSON.parse(row.tools_json) as StoredTool[]));

/** What a placement decides of a new call; the rest starts empty, and the engine takes it from next_run_at. */
export type QueuedCallRow = Pick<
  CallRow,
  | 'id'
  | 'account_id'
  | 'api_key_id'
  | 'to_number'
  | 'objective'
  | 'context'
  | 'fields_json'
  | 'webhook_url'
  | 'caller_id'
  | 'voice'
  | 'language'
  | 'language_source'
  | 'metadata_json'
  | 'voicemail_message'
  | 'scheduled_at'
  | 'redial_json'
  | 'previous_call_id'
  | 'calling_window_json'
  | 'batch_id'
  | 'machine_detection'
  | 'created_at'
  | 'on_behalf_of'
  | 'send_digits'
  | 'tools_json'
  | 'transfer_json'
  | 'hold_max_wait_sec'
> & { recording_notice: number };

/** What a call not yet started holds of all that happens to a call: nothing (a placement's and a redial's new row). */
export const NOT_STARTED = {
  summary: null,
  transcript: null,
  extracted_json: null,
  recording_path: null,
  started_at: null,
  ended_at: null,
  duration_sec: null,
  billed_minutes: null,
  error: null,
  lease_owner: null,
  lease_expires_at: null,
  dial_attempted_at: null,
  carrier_ref: null,
  engine_state: null,
  answered_by: null,
  voicemail_detected_at: null,
  tool_calls_json: null,
  transferred_to: null,
  transferred_at: null,
  hold_timed_out_at: null,
  hold_ms: null,
  end_reason: null,
} as const;

const P = PARAM as never;
const insertQueued = statement((db) =>
  db.insertInto('calls').values({
    id: P,
    account_id: P,
    api_key_id: P,
    status: 'queued',
    to_number: P,
    objective: P,
    context: P,
    fields_json: P,
    webhook_url: P,
    caller_id: P,
    voice: P,
    language: P,
    language_source: P,
    ...NOT_STARTED,
    created_at: P,
    updated_at: P,
    next_run_at: P,
    metadata_json: P,
    voicemail_message: P,
    scheduled_at: P,
    redial_json: P,
    previous_call_id: P,
    calling_window_json: P,
    batch_id: P,
    machine_detection: P,
    on_behalf_of: P,
    recording_notice: P,
    send_digits: P,
    tools_json: P,
    transfer_json: P,
    hold_max_wait_sec: P,
  }),
);

/** Inserts a call in status queued, due for the engine at once. */
export async function insertQueuedCall(ex: Executor, c: QueuedCallRow): Promise<void> {
  // In the order the builder above uses its parameters.
  const p = [c.id, c.account_id, c.api_key_id, c.to_number, c.objective, c.context, c.fields_json, c.webhook_url, c.caller_id, c.voice, c.language, c.language_source];
  // A scheduled call is due for the engine at its time; any other at once.
  await insertQueued(
    ex,
    ...p,
    c.created_at,
    c.created_at,
    c.scheduled_at ?? c.created_at,
    c.metadata_json,
    c.voicemail_message,
    c.scheduled_at,
    c.redial_json,
    c.previous_call_id,
    c.calling_window_json,
    c.batch_id,
    c.machine_detection,
    c.on_behalf_of,
    c.recording_notice,
    c.send_digits,
    c.tools_json,
    c.transfer_json,
    c.hold_max_wait_sec,
  );
}

const SUMMARY_COLUMNS = LIST_COLUMNS;
export type CallSummaryRow = Pick<CallRow, (typeof SUMMARY_COLUMNS)[number]>;

const reads = perStore((store) => ({
  findForKey: preparedQuery(store, (d) => d.selectFrom('calls').selectAll().where('id', '=', PARAM).where('api_key_id', '=', PARAM)),
  // Most recent first; calls placed in the same millisecond are ordered by id so the order is stable.
  listForKey: preparedQuery(store, (d) =>
    d
      .selectFrom('calls')
      .select(SUMMARY_COLUMNS)
      .where('api_key_id', '=', PARAM)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(PARAM as unknown as number),
  ),
  listForBatch: preparedQuery(store, (d) =>
    d
      .selectFrom('calls')
      .select(SUMMARY_COLUMNS)
      .where('api_key_id', '=', PARAM)
      .where('batch_id', '=', PARAM)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(PARAM as unknown as number),
  ),
}));

/** The key's call with this id; a UUID names one call whatever the case of its hex digits (ids are stored lowercase). */
export async function findCallForKey(store: Store, apiKeyId: string, id: string): Promise<CallRow | undefined> {
  return (await reads(store).findForKey(id.toLowerCase(), apiKeyId))[0];
}

/** The key's most recent calls; with a batch id, only that batch's (another key's batch lists nothing). */
export async function listCallsForKey(store: Store, apiKeyId: string, limit: number, batchId: string | null = null): Promise<CallSummaryRow[]> {
  return batchId === null ? reads(store).listForKey(apiKeyId, limit) : reads(store).listForBatch(apiKeyId, batchId.toLowerCase(), limit);
}

/** Epoch ms as the wire's date-time, null kept. */
export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The metadata as placed: an object of strings, or null. */
export const metadataOf = (row: Pick<CallRow, 'metadata_json'>): CallMetadata | null => (row.metadata_json === null ? null : (JSON.parse(row.metadata_json) as CallMetadata));

export function toCallSummary(row: CallSummaryRow): CallSummary {
  return {
    id: row.id,
    status: row.status as CallStatus,
    to: row.to_number,
    objective: row.objective,
    summary: row.summary,
    startedAt: iso(row.started_at),
    endedAt: iso(row.ended_at),
    durationSec: row.duration_sec,
    error: row.error,
    metadata: metadataOf(row),
    batchId: row.batch_id,
    createdAt: new Date(row.created_at).toISOString(),
    answeredBy: row.answered_by as AnsweredBy | null,
    callerId: row.caller_id,
  };
}

export function recordingUrl(publicBaseUrl: string, callId: string): string {
  return `${publicBaseUrl}/v1/agent/calls/${callId}/recording`;
}

export function toCallRecord(row: CallRow, publicBaseUrl: string): CallRecord {
  return {
    id: row.id,
    status: row.status as CallStatus,
    to: row.to_number,
    objective: row.objective,
    voice: row.voice,
    language: row.language,
    languageSource: row.language_source as LanguageSource | null,
    summary: row.summary,
    transcript: row.transcript,
    turns: row.turns_json === null ? null : (JSON.parse(row.turns_json) as Turn[]),
    extracted: row.extracted_json === null ? null : (JSON.parse(row.extracted_json) as ExtractedValues),
    evidence: row.evidence_json === null ? null : (JSON.parse(row.evidence_json) as Record<string, Evidence | null>),
    // A recording kept, or one rendered when first asked for.
    recordingUrl: row.recording_path === null && row.recording_request_json === null ? null : recordingUrl(publicBaseUrl, row.id),
    startedAt: iso(row.started_at),
    endedAt: iso(row.ended_at),
    durationSec: row.duration_sec,
    error: row.error,
    answeredBy: row.answered_by as AnsweredBy | null,
    metadata: metadataOf(row),
    voicemailLeft: Number(row.voicemail_left) === 1,
    sendDigits: row.send_digits,
    hold: row.hold_max_wait_sec === null ? null : { maxWaitSec: Number(row.hold_max_wait_sec) },
    holdSec: row.hold_ms === null ? null : Number(row.hold_ms) / 1000,
    endReason: row.end_reason,
    batchId: row.batch_id,
    optOut: Number(row.opt_out) === 1,
    scheduledAt: iso(row.scheduled_at),
    previousCallId: row.previous_call_id,
    nextCallId: row.next_call_id,
    latency: row.latency_json === null ? null : (JSON.parse(row.latency_json) as CallLatency),
    // The tools as the model was offered them; their urls, which may carry the receiver's own token, stay in.
    tools: row.tools_json === null ? null : toolsOf(row).map(({ name, description, parameters, timeoutMs }): CallTool => ({ name, description, parameters, timeoutMs })),
    toolCalls: row.tool_calls_json === null ? [] : (JSON.parse(row.tool_calls_json) as ToolCall[]),
    transfer: transferOf(row),
    transferredTo: row.transferred_to,
    transferredAt: iso(row.transferred_at),
    createdAt: new Date(Number(row.created_at)).toISOString(),
    callerId: row.caller_id,
    billedMinutes: row.billed_minutes === null ? null : Number(row.billed_minutes),
    ...windowFields(row.calling_window_json === null ? null : (JSON.parse(row.calling_window_json) as AppliedWindow)),
  };
}

/** A calling window as the record and preflight show it: the window, its one zone, and all its zones. */
export function windowFields(w: AppliedWindow | null): Pick<CallRecord, 'callingWindow' | 'timeZone' | 'timeZones'> {
  if (w === null) return { callingWindow: null, timeZone: null, timeZones: null };
  return { callingWindow: windowOnWire(w), timeZone: singleZone(w), timeZones: w.zones };
}
