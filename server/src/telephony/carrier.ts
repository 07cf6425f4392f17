// The Carrier port: the telephone line. The engine asks it to dial and to hang up, and reads what happened on
// the line from it. An adapter keeps its own resumable state (JSON) on the call row, so a call survives a
// restart of the worker that dialled it.
import type { CallErrorToken } from '../engine/call-state.js';

export interface DialRequest {
  callId: string;
  to: string;
  callerId: string;
}

export interface Dialled {
  /** The carrier's id of the call; recorded right after dialling. */
  ref: string;
  state: unknown;
}

/** Who picked the line up, as the carrier tells (a carrier that cannot tell says unknown). */
export type AnsweredBy = 'human' | 'machine' | 'fax' | 'unknown';

/** What happened on the line, in the order it happened. `at` is wall-clock epoch ms. */
export type LineEvent =
  | { kind: 'answered'; at: number; by?: AnsweredBy }
  /** `by`: for voicemail, what answered (a machine, a fax). */
  | { kind: 'ended'; at: number; outcome: 'no_answer' | 'voicemail' | 'declined' | 'failed'; error?: CallErrorToken; by?: AnsweredBy }
  | { kind: 'dropped'; at: number }
  /** The line ended normally after the answer (the recipient or the agent hung up). */
  | { kind: 'hung_up'; at: number };

export interface LineNews {
  events: LineEvent[];
  /** When to look again (wall clock); null when the carrier will tell nothing more by itself. */
  nextCheckAt: number | null;
  state: unknown;
}

/** A dial the carrier refused outright; the call fails with this token and is not retried. */
export class CarrierRefused extends Error {
  constructor(
    readonly token: CallErrorToken,
    message: string,
  ) {
    super(message);
    this.name = 'CarrierRefused';
  }
}

/**
 * A dial the carrier did not take because it is throttling (Twilio's 429): nothing was placed, so it is safe to
 * dial again, after `retryAfterMs` when the carrier said.
 */
export class CarrierThrottled extends Error {
  constructor(
    readonly retryAfterMs: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'CarrierThrottled';
  }
}

export interface Carrier {
  readonly name: string;
  /** Call time runs this many times slower than the wall clock's (the sandbox speeds it up; real lines are 1). */
  readonly timeScale: number;
  /** The carrier records calls itself and stores the recording on the call; the engine then renders none. */
  readonly recordsCalls?: boolean;
  dial(request: DialRequest, now: number): Promise<Dialled>;
  /** Everything that happened by `now` since the state was saved. */
  check(ref: string, state: unknown, now: number): Promise<LineNews>;
  /**
   * Ends the line. Resolves once the carrier has it in hand: hung up, already ended, or (a carrier that may refuse
   * for a while) a hang-up kept trying durably until it is; rejects only when neither could be done.
   */
  hangUp(ref: string, state: unknown, now: number): Promise<void>;
}
