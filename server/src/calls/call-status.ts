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
