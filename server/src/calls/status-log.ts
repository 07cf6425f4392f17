// The status log: each status a call reaches after queued is a row written in the transaction that reaches it
// (queued is the call's created_at). The streams read it (calls/call-stream.ts), so every change is seen, by any
// process, however quickly the changes follow each other.
import type { Insertable } from 'kysely';
import type { CallStatusChangesTable } from '../store/schema.js';

export function statusChangeRow(call: { id: string; api_key_id: string; status: string }, at: number): Insertable<CallStatusChangesTable> {
  return { call_id: call.id, api_key_id: call.api_key_id, status: call.status, at };
}
