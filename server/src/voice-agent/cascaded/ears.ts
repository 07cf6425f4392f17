// svc's own ears on a line: what the cascaded session needs to know of the callee's audio, in call time (ms of the
// callee's audio heard). Voice activity (voice-activity.ts) says when speech starts and stops; endpointing
// (endpointing.ts) says when the callee's turn is over, with the recogniser's words; barge-in detection
// (barge-in-detector.ts) says when the callee has talked over the agent long enough to cut it off.

export type EarEvent =
  /** The callee started speaking at `atMs`. */
  | { type: 'speech_started'; atMs: number }
  /** The callee stopped speaking at `atMs` (their turn may go on after a pause). */
  | { type: 'speech_stopped'; atMs: number }
  /** The callee's turn is over: their words (empty for noise the recogniser made nothing of), spoken from startMs to endMs. */
  | { type: 'turn_ended'; text: string; startMs: number; endMs: number }
  /** The callee talked over the agent long enough: its audio is to be cut (their speech began at `atMs`). */
  | { type: 'barge_in'; atMs: number };

export interface Ears {
  /** Call time: the end of the callee's audio heard. */
  readonly nowMs: number;
  /** Whether the callee is speaking now. */
  readonly speaking: boolean;
  /** A frame of the callee's audio (8 kHz mu-law). */
  push(frame: Buffer): EarEvent[];
  /** The recogniser's hypothesis of the words so far. */
  interim(text: string): EarEvent[];
  /** Words the recogniser will not change; `endOfTurn` when it marks the end of speech. */
  recognized(text: string, endOfTurn: boolean): EarEvent[];
  /** Whether the agent's audio is playing on the line (a barge-in is only possible then). */
  agentSpeaking(on: boolean): void;
  /** The line ended: a turn in progress ends with what was recognised of it. */
  lineEnded(): EarEvent[];
}
