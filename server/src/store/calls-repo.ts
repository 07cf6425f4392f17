// Call rows, read tenant-scoped (by the key that placed them) and mapped to the wire's call record and summary.
import type { Kysely, Selectable } from 'kysely';
import type { CallRecord, CallStatus, CallSummary, ExtractedValues, LanguageSource } from '../generated/types.gen.js';
import type { CallsTable, Database } from './schema.js';
import { PARAM, perStore, preparedQuery } from './prepared-query.js';
import type { Store } from './store.js';

export type CallRow = Selectable<CallsTable>;

export async function insertCall(db: Kysely<Database>, row: CallRow): Promise<void> {
  await db.insertInto('calls').values(row).execute();
}

const SUMMARY_COLUMNS = ['id', 'status', 'to_number', 'objective', 'summary', 'started_at', 'ended_at', 'duration_sec', 'error'] as const;
export type CallSummaryRow = Pick<CallRow, (typeof SUMMARY_COLUMNS)[number]>;

const reads = perStore((store) => ({
  findForKey: preparedQuery(store, (d) => d.selectFrom('calls').selectAll().where('id', '=', PARAM).where('api_key_id', '=', PARAM)),
  // Most recent first; calls placed in the same millisecond are ordered by id so the order is stable.
  listForKey: preparedQuery(store, (d) =>
    d.selectFrom('calls').select(SUMMARY_COLUMNS).where('api_key_id', '=', PARAM).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(PARAM as unknown as number),
  ),
}));

export async function findCallForKey(store: Store, apiKeyId: string, id: string): Promise<CallRow | undefined> {
  return (await reads(store).findForKey(id, apiKeyId))[0];
}

export async function listCallsForKey(store: Store, apiKeyId: string, limit: number): Promise<CallSummaryRow[]> {
  return reads(store).listForKey(apiKeyId, limit);
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

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
    extracted: row.extracted_json === null ? null : (JSON.parse(row.extracted_json) as ExtractedValues),
    recordingUrl: row.recording_path === null ? null : recordingUrl(publicBaseUrl, row.id),
    startedAt: iso(row.started_at),
    endedAt: iso(row.ended_at),
    durationSec: row.duration_sec,
    error: row.error,
  };
}
