// The Carrier port: the telephone line. The engine asks it to dial and to hang up, and reads what happened on
// the line from it. An adapter keeps its own resumable state (JSON) on the call row, so a call survives a
// restart of the worker that dialled it.
import type { CallErrorToken } from '../calls/call-status.js';

export interface DialRequest {
  callId: string;
  to: string;
  callerId: string;
  /** BCP-47 language of the call. */
  language: string;
  /** A voicemail message is to be left on a machine: the carrier reports the end of its greeting (greeting_ended). */
  leaveMessage: boolean;
  /** Answering-machine detection is asked of the carrier (the default); false: whoever picks up is taken as answered. */
  machineDetection?: boolean;
  /** Keys to press once the call is answered (0-9, *, #; w a 0.5 s pause, W 1 s): a known extension. */
  sendDigits?: string;
}

/** What an answering machine said before its beep, in call-time ms from its pick-up (a carrier that knows it). */
export interface MachineGreeting {
  text: string;
  endMs: number;
  beepStartMs: number;
  beepEndMs: number;
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
  | { kind: 'hung_up'; at: number }
  /**
   * For a dial with leaveMessage: an answering machine picked up at `pickedUpAt` and its greeting (and beep) ended
   * at `at`; the line stays up for the message.
   */
  | { kind: 'greeting_ended'; at: number; pickedUpAt: number; greeting?: MachineGreeting };

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
  /**
   * A carrier whose line carries its own speech (Twilio) speaks the voicemail message and hangs up; one without
   * (the sandbox) leaves the speaking to the engine's recording.
   */
  leaveMessage?(ref: string, state: unknown, message: { text: string; language: string; voice: string }, now: number): Promise<void>;
}
