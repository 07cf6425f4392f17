// The webhook payload, exactly the spec's table: fields not known when the event is built are null, and there
// is never a transcript or a recording URL (those are read with getCall).
import type { AnsweredBy, CallEvent, CallEventName, CallStatus, ExtractedValues } from '../generated/types.gen.js';
import { iso, metadataOf, type CallRow } from '../store/calls-repo.js';

export function eventId(callId: string, event: CallEventName, builtAt: number): string {
  return `${callId}:${event}:${builtAt}`;
}

/** Builds the payload of `event` for the call as it stands after the status change. */
export function buildEventPayload(call: CallRow, event: CallEventName, builtAt: number): CallEvent {
  const terminal = event !== 'call.in_progress';
  return {
    event,
    eventId: eventId(call.id, event, builtAt),
    timestamp: new Date(builtAt).toISOString(),
    callId: call.id,
    status: call.status as CallStatus,
    to: call.to_number,
    objective: call.objective,
    startedAt: iso(call.started_at),
    endedAt: terminal ? iso(call.ended_at) : null,
    durationSec: terminal ? call.duration_sec : null,
    summary: event === 'call.completed' ? call.summary : null,
    extracted: event === 'call.completed' && call.extracted_json !== null ? (JSON.parse(call.extracted_json) as ExtractedValues) : null,
    error: terminal ? call.error : null,
    answeredBy: call.answered_by as AnsweredBy | null,
    metadata: metadataOf(call),
    nextCallId: terminal ? call.next_call_id : null,
    batchId: call.batch_id,
    optOut: terminal && Number(call.opt_out) === 1,
    // Only a call the agent handed over says so: every other event is as it was before transfers.
    ...(event === 'call.completed' && call.transferred_to !== null ? { transferredTo: call.transferred_to, transferredAt: iso(call.transferred_at) } : {}),
  } as CallEvent;
}
