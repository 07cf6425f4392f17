// The Agent port: who speaks for the caller. The default is the scripted agent talking to a simulated callee
// (sandbox); the realtime speech agent is another adapter.
import type { CallBrief, Turn } from '../conversation.js';

export interface Agent {
  readonly name: string;
  /** Holds the whole conversation with whoever answered; returns it turn by turn, in order. */
  converse(brief: CallBrief): Promise<Turn[]>;
}
