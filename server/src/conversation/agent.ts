// The Agent port: who speaks for the caller. Two kinds:
// - a scripted agent holds the whole conversation the moment the call is answered and returns it turn by turn
//   (the default: the scripted agent talking to the sandbox's simulated callee);
// - a live agent talks on the line as the call happens: it joins the call's live line (telephony/live-line.ts,
//   LineAgent), which the carrier's media stream carries; the engine waits for the line to end, or hangs up at the
//   call's limit, then reads what was said (LiveAgent). The realtime speech agent is both, one object.
import type { LineBrief, TimedTurn, Turn } from './conversation.js';

export interface Agent {
  readonly name: string;
  /** Holds the whole conversation with whoever answered; returns it turn by turn, in order. */
  converse(brief: LineBrief): Promise<Turn[]>;
}

export interface LiveAgent {
  readonly name: string;
  readonly live: true;
  /** What was said on the line so far, in order, timed in ms from the answer. */
  turns(callId: string): Promise<TimedTurn[]>;
  /** Whether the agent recorded, during the call, that the callee asked not to be called again. */
  optedOut(callId: string): Promise<boolean>;
  /** The error the agent recorded when its model could not go on (the call then fails with it), or null. */
  failure?(callId: string): Promise<'agent_unavailable' | null>;
  /** Whether the agent hung up because it waited on hold past the call's hold budget. */
  heldTooLong?(callId: string): Promise<boolean>;
}

export type AnyAgent = Agent | LiveAgent;

export const isLive = (agent: AnyAgent): agent is LiveAgent => 'live' in agent && agent.live === true;
