// What a phase of a call's step works with: the engine's parts, what the engine keeps of a call between steps
// (engine_state), and the driver's two writes: a commit of the call's row, and a move of the state machine
// committed with its event (call-engine.ts). The phases (dial.ts, line.ts, voicemail.ts, finish.ts) are plain
// functions of this context.
import type { Updateable } from 'kysely';
import type { Logger } from 'pino';
import type { Analyst, EndReason } from '../analysis/analyst.js';
import type { Clock } from '../clock.js';
import type { CallEventName, ExtractedValues } from '../generated/types.gen.js';
import type { NewRow } from '../jobs/job-queue.js';
import type { Tone } from '../recording/recorder.js';
import type { CallRow } from '../store/calls-repo.js';
import type { CallsTable } from '../store/schema.js';
import type { Executor, Store } from '../store/store.js';
import type { Carrier } from '../telephony/carrier.js';
import type { AnyAgent } from '../conversation/agent.js';
import type { TimedTurn } from '../conversation/conversation.js';
import type { EngineEvent } from './call-state.js';

export interface EngineSettings {
  maxCallDurationSec: number;
  /** How long a claim lasts; a worker that dies loses its calls to another after this. */
  leaseMs: number;
  /** Call-time seconds a dialling call may go without news from the carrier before it is ended. */
  watchdogSec: number;
  /** Calls one worker steps at once in each of its lanes (calls to dial, calls on a line). */
  concurrency: number;
  /** Longest wait between looks at the store when nothing is due. */
  idlePollMs: number;
}

/**
 * What the rest of the service does as a call ends, named here so the engine knows none of it: the composition
 * root wires an implementation in (batches/batch-hooks.ts gives a batch's). Both are given the call as written.
 */
export interface CallHooks {
  /**
   * Runs inside the transaction that completes an answered call with its analysis, after the call's own writes:
   * what it writes commits or fails with the completion. `extracted` is the analysis's values.
   */
  onCallCompleted(ex: Executor, call: CallRow, extracted: ExtractedValues | null, now: number): Promise<void>;
  /**
   * Runs once the write that ends a call (any terminal status) is committed. The ending stands whatever it does:
   * it resolves on failure too, having logged it.
   */
  onCallEnded(call: CallRow, now: number): Promise<void>;
}

export interface EngineDeps {
  store: Store;
  clock: Clock;
  carrier: Carrier;
  agent: AnyAgent;
  analyst: Analyst;
  logger: Logger;
  settings: EngineSettings;
  hooks: CallHooks;
  /** Names this worker's leases; random by default. */
  owner?: string;
  /** Jitter source, in [0, 1). */
  random?: () => number;
}

/** The conversation once the call is answered: everything needed to finish it after a restart. */
export interface Talk {
  answeredAt: number;
  /** The scripted conversation; a live agent's turns are read from it when the call ends. */
  turns: TimedTurn[];
  /** Call-time ms the conversation lasts: the script's length, or where the engine cuts it. */
  talkMs: number;
  reason: EndReason;
  /** Wall-clock ms the conversation ends (for a live agent: when the engine hangs up unless the line ends first). */
  endsAt: number;
  live?: boolean;
  /** The scripted conversation ends with the agent handing the call over to this number: the line is left up. */
  transferTo?: string;
}

/** A dial the carrier throttled: when the first was attempted, and how many were. */
export interface Throttle {
  since: number;
  tries: number;
}

/** A voicemail message being left: planned when the machine's greeting ended; the line is hung up at endsAt. */
export interface VoicemailDrop {
  /** Wall-clock ms the machine picked up. */
  pickedUpAt: number;
  /** The machine's greeting (when the carrier told it) and the message, in call-time ms from the pick-up. */
  turns: TimedTurn[];
  tones: Tone[];
  /** Call-time ms connected to the machine once the message is over. */
  talkMs: number;
  endsAt: number;
}

export interface EngineState {
  line: unknown;
  talk?: Talk;
  throttle?: Throttle;
  voicemail?: VoicemailDrop;
}

/** A step's write: the call's new columns, when it is next due, and the event the change emits. */
export interface Commit {
  set: Updateable<CallsTable>;
  /** When the call is next due; null once terminal. */
  nextRunAt: number | null;
  /** Keep the lease (the step continues after this write) or give it up. */
  keepLease?: boolean;
  /** The webhook event the change emits, enqueued in the same transaction. */
  event?: CallEventName | null;
  /** Rows inserted in the same transaction besides the event (a redial). */
  also?: NewRow[];
  /** Statements run in the same transaction after it, given the call as written (the turns settled, the completion hook). */
  alsoRun?: (ex: Executor, written: CallRow) => Promise<void>;
}

export interface StepContext {
  readonly deps: EngineDeps;
  /** Writes a step's outcome if this worker still holds the call's lease; throws LeaseLost otherwise. */
  commit(row: CallRow, now: number, c: Commit): Promise<CallRow>;
  /** Commits a move of the state machine with its fields and event; the lease is kept only while the step goes on. */
  apply(row: CallRow, e: EngineEvent, extra: Commit['set'], nextRunAt: number | null, keepLease?: boolean, rows?: NewRow[], alsoRun?: Commit['alsoRun']): Promise<CallRow>;
}
