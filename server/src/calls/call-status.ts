// The call statuses of openapi.yaml's CallStatus, grouped as the rules need them. The one place the groups are
// written: adding a status to the contract fails the type check here until it is put in a group.
import type { CallEventName, CallStatus } from '../generated/types.gen.js';

const GROUP = {
  queued: 'in_flight',
  dialing: 'in_flight',
  in_progress: 'in_flight',
  completed: 'terminal',
  no_answer: 'terminal',
  voicemail: 'terminal',
  declined: 'terminal',
  failed: 'terminal',
  canceled: 'terminal',
} as const satisfies Record<CallStatus, 'in_flight' | 'terminal'>;

type Group<G> = { [S in keyof typeof GROUP]: (typeof GROUP)[S] extends G ? S : never }[keyof typeof GROUP];
export type TerminalStatus = Group<'terminal'>;
export type InFlightStatus = Group<'in_flight'>;

const statuses = Object.keys(GROUP) as CallStatus[];
/** Every status, in the contract's order. */
export const CALL_STATUSES: readonly CallStatus[] = statuses;
/** A call not yet ended: it reserves a minute of the plan and the engine still steps it. */
export const IN_FLIGHT_STATUSES = statuses.filter((s): s is InFlightStatus => GROUP[s] === 'in_flight');
export const TERMINAL_STATUSES = statuses.filter((s): s is TerminalStatus => GROUP[s] === 'terminal');
/** A call whose line has been dialled and not yet ended: its media stream may connect. */
export const LIVE_STATUSES: readonly InFlightStatus[] = ['dialing', 'in_progress'];

export const TERMINAL: ReadonlySet<CallStatus> = new Set(TERMINAL_STATUSES);

export function isTerminal(status: string): status is TerminalStatus {
  return TERMINAL.has(status as CallStatus);
}

/** The event a terminal status emits: its name prefixed `call.`, one to one as the spec says. */
export function terminalEvent(status: TerminalStatus): CallEventName {
  return `call.${status}`;
}

/** Error tokens a failed call can carry. */
export type CallErrorToken =
  | 'engine_interrupted' // dialled, but the worker stopped before recording the carrier's reference; never redialled
  | 'dial_failed' // the carrier's API failed while dialling; whether it placed the call is unknown, so not retried
  | 'carrier_rejected' // the carrier refused to place the call
  | 'carrier_unreachable' // the network could not reach the number
  | 'carrier_timeout' // the carrier went silent; the watchdog ended the call
  | 'carrier_throttled' // the carrier kept refusing the dial as too many requests (429); nothing was dialled
  | 'call_dropped' // the line dropped after the answer
  | 'agent_unavailable' // the live agent's model could not be reached or went away, and could not be brought back
  | 'engine_error' // the call's steps kept failing; it was ended rather than left live
  | 'destination_opted_out' // canceled, undialled: the number went on the account's do-not-call list before its dial
  | 'over_minute_cap' // a redial canceled, undialled: the plan's minutes were used up when it was due
  | 'outside_calling_window'; // canceled, undialled: its calling window no longer opens in all the number's zones
