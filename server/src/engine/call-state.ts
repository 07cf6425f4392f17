// The call state machine, pure: given a call's status and what happened, the next status, the fields that
// change with it, and the webhook event it emits. The runner commits all three in one transaction.
//
//   queued ─dial_started→ dialing ─answered→ in_progress ─conversation_over→ completed
//   dialing ─dial_throttled→ dialing (the carrier did not take the dial: no attempt stands, dial_started again later)
//   dialing ─ended(no_answer | voicemail | declined | failed)→ that status
//   dialing ─interrupted→ failed (engine_interrupted: dialled, but the carrier's reference was never recorded)
//   dialing | in_progress ─carrier_silent→ failed (carrier_timeout)
//   in_progress ─dropped→ failed (call_dropped)
//   in_progress ─agent_failed→ failed (agent_unavailable: the live agent's model could not go on)
//   dialing ─throttled_out→ failed (carrier_throttled)
//   any status not terminal ─step_failed→ failed (engine_error: its steps kept failing)
//   queued | dialing ─canceled→ canceled (the client canceled it before the answer; never connected)
//   dialing ─voicemail_left→ voicemail (a machine answered and took the message; its connected time is billed)
//
// durationSec is the time connected, from answer to end, in call time; 0 for a call never answered. What it bills
// is minute-billing.ts's rule.
import { billedMinutes } from '../accounts/minute-billing.js';
import { terminalEvent, type CallErrorToken, type TerminalStatus } from '../calls/call-status.js';
import type { AnsweredBy } from '../telephony/carrier.js';
import type { CallEventName, CallStatus } from '../generated/types.gen.js';

export type EngineEvent =
  | { type: 'dial_started'; at: number }
  | { type: 'dial_throttled'; at: number }
  | { type: 'throttled_out'; at: number }
  | { type: 'answered'; at: number; by?: AnsweredBy }
  | { type: 'ended'; at: number; outcome: 'no_answer' | 'voicemail' | 'declined' | 'failed'; error?: CallErrorToken; by?: AnsweredBy }
  | { type: 'step_failed'; at: number; connectedMs: number }
  | { type: 'interrupted'; at: number }
  | { type: 'canceled'; at: number; error?: CallErrorToken }
  | { type: 'voicemail_left'; at: number; pickedUpAt: number; connectedMs: number; left: boolean }
  | { type: 'carrier_silent'; at: number; connectedMs?: number }
  | { type: 'dropped'; at: number; connectedMs: number }
  | { type: 'agent_failed'; at: number; connectedMs: number }
  | { type: 'conversation_over'; at: number; connectedMs: number };

export interface CallPatch {
  status: CallStatus;
  started_at?: number;
  ended_at?: number;
  duration_sec?: number;
  billed_minutes?: number;
  error?: string | null;
  dial_attempted_at?: number | null;
  answered_by?: AnsweredBy;
  voicemail_left?: number;
}

export interface Transition {
  patch: CallPatch;
  /** The webhook event this move emits, if any. */
  event: CallEventName | null;
}

export class IllegalTransition extends Error {
  constructor(from: CallStatus, event: EngineEvent['type']) {
    super(`illegal move: ${event} from ${from}`);
    this.name = 'IllegalTransition';
  }
}

const ALLOWED: Record<EngineEvent['type'], readonly CallStatus[]> = {
  dial_started: ['queued', 'dialing'],
  dial_throttled: ['dialing'],
  throttled_out: ['dialing'],
  step_failed: ['queued', 'dialing', 'in_progress'],
  answered: ['dialing'],
  ended: ['dialing'],
  interrupted: ['dialing'],
  canceled: ['queued', 'dialing'],
  voicemail_left: ['dialing'],
  carrier_silent: ['dialing', 'in_progress'],
  dropped: ['in_progress'],
  agent_failed: ['in_progress'],
  conversation_over: ['in_progress'],
};

function end(status: TerminalStatus, at: number, connectedMs: number, error: string | null): Transition {
  const durationSec = Math.round(connectedMs) / 1000;
  return {
    patch: { status, ended_at: at, duration_sec: durationSec, billed_minutes: billedMinutes(durationSec), error },
    event: terminalEvent(status),
  };
}

export function transition(from: CallStatus, e: EngineEvent): Transition {
  if (!ALLOWED[e.type].includes(from)) throw new IllegalTransition(from, e.type);
  switch (e.type) {
    case 'dial_started':
      return { patch: { status: 'dialing', dial_attempted_at: e.at }, event: null };
    case 'dial_throttled':
      return { patch: { status: 'dialing', dial_attempted_at: null }, event: null };
    case 'throttled_out':
      return end('failed', e.at, 0, 'carrier_throttled');
    case 'step_failed':
      return end('failed', e.at, e.connectedMs, 'engine_error');
    case 'answered':
      // A carrier that cannot tell who picked up says so.
      return { patch: { status: 'in_progress', started_at: e.at, answered_by: e.by ?? 'unknown' }, event: 'call.in_progress' };
    case 'ended': {
      const t = end(e.outcome, e.at, 0, e.outcome === 'failed' ? (e.error ?? 'carrier_unreachable') : null);
      // Voicemail is a machine that picked up (or a fax); no other ending was answered.
      return e.outcome === 'voicemail' ? { ...t, patch: { ...t.patch, answered_by: e.by ?? 'machine' } } : t;
    }
    case 'interrupted':
      return end('failed', e.at, 0, 'engine_interrupted');
    case 'canceled':
      return end('canceled', e.at, 0, e.error ?? null);
    case 'voicemail_left': {
      const t = end('voicemail', e.at, e.connectedMs, null);
      return { ...t, patch: { ...t.patch, started_at: e.pickedUpAt, answered_by: 'machine', voicemail_left: e.left ? 1 : 0 } };
    }
    case 'carrier_silent':
      return end('failed', e.at, e.connectedMs ?? 0, 'carrier_timeout');
    case 'dropped':
      return end('failed', e.at, e.connectedMs, 'call_dropped');
    case 'agent_failed':
      return end('failed', e.at, e.connectedMs, 'agent_unavailable');
    case 'conversation_over':
      return end('completed', e.at, e.connectedMs, null);
  }
}
