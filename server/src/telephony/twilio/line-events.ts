// Twilio's callbacks as line events. The status callback's CallStatus and the answering-machine verdict
// (AnsweredBy) map onto the Carrier port's events; the carrier inbox keeps each with where it came from, so
// the carrier can tell the pick-up from the verdict that lets it through.
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { AnsweredBy, LineEvent } from '../carrier.js';
import { readInbox } from '../carrier-inbox.js';

export type TwilioParams = Record<string, string>;

/** Which callback a stored event came from (`handover`: a transfer's person pressed 1); kept in the inbox row's payload. */
export type TwilioSource = 'status' | 'amd' | 'handover';

export interface TwilioLineEvent {
  source: TwilioSource;
  event: LineEvent;
  /** A machine's verdict given when its greeting ended (DetectMessageEnd's machine_end_*). */
  greetingEnded?: boolean;
  /** Enable's machine_start: a machine suspected from the greeting's length, not confirmed (see machine-screen.ts). */
  machineStart?: boolean;
  /** The verdict's MachineDetectionDuration: ms from the pick-up to the verdict. */
  verdictMs?: number;
  /** A `completed` status callback's CallDuration: seconds from the pick-up to the end. */
  callDurationSec?: number;
}

/**
 * CallStatus → line event. queued, initiated and ringing say nothing the engine acts on (null).
 *
 * | CallStatus  | line event                            | call status |
 * |-------------|---------------------------------------|-------------|
 * | in-progress | answered (held for the AMD verdict)   | in_progress |
 * | completed   | hung_up (the line ended after answer) | completed   |
 * | busy        | ended declined                        | declined    |
 * | no-answer   | ended no_answer                       | no_answer   |
 * | failed      | ended failed, carrier_unreachable     | failed      |
 * | canceled    | ended failed, carrier_rejected        | failed      |
 */
export function statusLineEvent(params: TwilioParams, at: number): LineEvent | null {
  switch (params.CallStatus) {
    case 'in-progress':
      return { kind: 'answered', at };
    case 'completed':
      return { kind: 'hung_up', at };
    case 'busy':
      return { kind: 'ended', at, outcome: 'declined' };
    case 'no-answer':
      return { kind: 'ended', at, outcome: 'no_answer' };
    case 'failed':
      return { kind: 'ended', at, outcome: 'failed', error: 'carrier_unreachable' };
    case 'canceled':
      return { kind: 'ended', at, outcome: 'failed', error: 'carrier_rejected' };
    default:
      return null;
  }
}

/** Twilio's AnsweredBy as the call record says it: machine_start and machine_end_* are a machine. */
export function answeredByOf(value: string | undefined): AnsweredBy | null {
  if (value === 'human' || value === 'unknown' || value === 'fax') return value;
  return value?.startsWith('machine_') ? 'machine' : null;
}

/**
 * AnsweredBy → line event as the inbox keeps it: a machine or a fax is voicemail, human or unknown lets the answer
 * through. The carrier reads machine_start as a suspicion only (twilio-carrier.ts).
 */
export function amdLineEvent(params: TwilioParams, at: number): LineEvent | null {
  const by = answeredByOf(params.AnsweredBy);
  if (by === 'machine' || by === 'fax') return { kind: 'ended', at, outcome: 'voicemail', by };
  if (by === 'human' || by === 'unknown') return { kind: 'answered', at, by };
  return null;
}

/** What the inbox keeps of a callback: where it came from and the fields that decided it (no credentials). */
export function callbackPayload(source: TwilioSource, params: TwilioParams) {
  const keep = ['CallSid', 'CallStatus', 'SequenceNumber', 'AnsweredBy', 'MachineDetectionDuration', 'CallDuration', 'SipResponseCode', 'ErrorCode', 'Digits'];
  return { source, params: Object.fromEntries(keep.filter((k) => params[k] !== undefined).map((k) => [k, params[k]])) };
}

/**
 * The inbox's events for a call after the first `seen`, each with its source: in arrival order, except that the
 * status callbacks among them are put in their SequenceNumber order. Twilio fires them in order but sends each as
 * its own request, so a `completed` can arrive before the `in-progress` fired ahead of it. Verdicts (which carry no
 * SequenceNumber) keep their places.
 */
export async function readTwilioEvents(db: Kysely<Database>, ref: string, seen: number): Promise<TwilioLineEvent[]> {
  const read = (await readInbox(db, ref, seen)).map(({ event, payload }) => {
    const kept = payload as { source?: TwilioSource; params?: TwilioParams } | null;
    const source = kept?.source ?? 'status';
    const params = kept?.params ?? {};
    // A verdict's event carries who answered, from the callback it was made of.
    const by = source === 'amd' ? answeredByOf(params.AnsweredBy) : null;
    const greetingEnded = source === 'amd' && (params.AnsweredBy ?? '').startsWith('machine_end_');
    const machineStart = source === 'amd' && params.AnsweredBy === 'machine_start';
    const duration = source === 'status' && event.kind === 'hung_up' ? wholeNumber(params.CallDuration) : null;
    const verdictMs = source === 'amd' ? wholeNumber(params.MachineDetectionDuration) : null;
    const e: TwilioLineEvent = {
      source,
      event: by && (event.kind === 'answered' || event.kind === 'ended') ? { ...event, by } : event,
      ...(greetingEnded ? { greetingEnded } : {}),
      ...(machineStart ? { machineStart } : {}),
    };
    if (duration !== null) e.callDurationSec = duration;
    if (verdictMs !== null) e.verdictMs = verdictMs;
    return { e, sequence: source === 'status' ? wholeNumber(params.SequenceNumber) : null };
  });
  const slots = read.flatMap((r, i) => (r.sequence === null ? [] : [i]));
  const inSequence = slots.map((i) => read[i]!).sort((a, b) => a.sequence! - b.sequence!);
  for (let k = 0; k < slots.length; k++) read[slots[k]!] = inSequence[k]!;
  return read.map((r) => r.e);
}

function wholeNumber(value: string | undefined): number | null {
  return value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : null;
}
