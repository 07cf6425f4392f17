// When the callee's turn is over, for the cascaded agent: the voice activity detector's starts and stops
// (voice-activity.ts) and the recogniser's words (speech/recognizer.ts) in, one `turnEnded` per turn out. Time is
// call time, and it moves only with the line's frames (`frame`, every 20 ms even on a silent line), never with a
// timer, so the same audio and words always end the same turns at the same moments.
//
// The rules:
//   1. A turn opens at the first speech start and lasts until it ends; speech that resumes before the end, however
//      late, belongs to it (the callee paused mid-answer) and cancels everything below.
//   2. The silence rule: once the speech has stopped, the turn may end after `silenceMs` more of silence, counted
//      from the end of the last speech frame.
//   3. Sooner: a final the recogniser marks endOfTurn, arriving at or after the speech's end, lets the turn end
//      `finalGraceMs` after the final arrived (the grace is for speech that resumes at once), or at the silence
//      rule's moment if that is earlier. A mark from before the speech's end is of speech that went on, and counts
//      for nothing.
//   4. The words: once rule 2 or 3 is met, the turn ends as soon as its words are in, which is when a final arrived
//      at or after the speech's end and no newer interim words are waiting for theirs. Until then `needTranscript`
//      is called once (the session asks the recogniser to flush), and after `transcriptWaitMs` more the turn ends
//      with what there is: its finals and the interim words, if any.
//   5. The turn's text is its finals joined with spaces; `startMs` is its first speech start and `endMs` the end of
//      its last speech. A turn whose speech no recogniser put into words (a noise the detector took for speech)
//      still ends, with empty text: what to do with it is the session's choice.
//   6. Finals that arrive with no turn open (the recogniser later than `transcriptWaitMs`) are kept and lead the
//      next turn's text, so no word heard is dropped.

export interface EndpointingOptions {
  /** Silence after the speech's end that ends the turn. */
  silenceMs: number;
  /** After a final marked endOfTurn, how long speech has to resume before the turn ends. */
  finalGraceMs: number;
  /** How long, once the turn is over by its silence, it waits for the recogniser's last words. */
  transcriptWaitMs: number;
}

/**
 * 700 ms of silence: a callee's pause to think mid-answer is often half a second, and the endOfTurn mark of a
 * recogniser that hears the words end lets most turns end sooner; 150 ms of grace after that mark; a second at most
 * for the last words (a streaming recogniser's flush answers in a few hundred ms).
 */
export const DEFAULT_ENDPOINTING: EndpointingOptions = { silenceMs: 700, finalGraceMs: 150, transcriptWaitMs: 1000 };

export interface EndedTurn {
  text: string;
  /** Call time: the start of the turn's first speech, and the end of its last. */
  startMs: number;
  endMs: number;
}

export interface EndpointListener {
  turnEnded(turn: EndedTurn): void;
  /** The turn is over by its silence, but words are still due: ask the recogniser for them now. Once a turn. */
  needTranscript?(): void;
}

interface OpenTurn {
  startMs: number;
  /** The end of the last speech, or null while the callee is speaking. */
  stoppedAt: number | null;
  finals: string[];
  /** The recogniser's newest hypothesis since its last final ('' when none is waiting). */
  interim: string;
  /** When the last final, and the last one marked endOfTurn, arrived (call time). */
  lastFinalAt: number | null;
  endOfTurnAt: number | null;
  /** When the silence or the endOfTurn rule was met, while it waits for the words. */
  overAt: number | null;
  asked: boolean;
}

export class Endpointing {
  private readonly options: EndpointingOptions;
  private now = 0;
  private turn: OpenTurn | null = null;
  private held: string[] = [];

  constructor(
    private readonly listener: EndpointListener,
    options: Partial<EndpointingOptions> = {},
  ) {
    this.options = { ...DEFAULT_ENDPOINTING, ...options };
  }

  /** Whether a turn is open (speech started and the turn not yet ended). */
  get inTurn(): boolean {
    return this.turn !== null;
  }

  /** Call time has reached `nowMs` (a frame of the line's audio was heard). */
  frame(nowMs: number): void {
    this.now = Math.max(this.now, nowMs);
    this.check();
  }

  speechStarted(atMs: number): void {
    if (!this.turn) {
      this.turn = { startMs: atMs, stoppedAt: null, finals: this.held, interim: '', lastFinalAt: null, endOfTurnAt: null, overAt: null, asked: false };
      this.held = [];
      return;
    }
    this.turn.stoppedAt = null;
    this.turn.overAt = null;
    this.turn.asked = false;
  }

  speechStopped(atMs: number): void {
    if (!this.turn) return;
    this.turn.stoppedAt = atMs;
    this.check();
  }

  /** A hypothesis that may still change; '' says none is waiting. */
  interim(text: string): void {
    if (this.turn) this.turn.interim = text.trim();
  }

  /** Words that will not change; `endOfTurn` is the recogniser's own end-of-speech mark. */
  recognized(text: string, endOfTurn: boolean): void {
    const words = text.trim();
    if (!this.turn) {
      if (words) this.held.push(words);
      return;
    }
    if (words) this.turn.finals.push(words);
    this.turn.interim = '';
    this.turn.lastFinalAt = this.now;
    if (endOfTurn) this.turn.endOfTurnAt = this.now;
    this.check();
  }

  private check(): void {
    const turn = this.turn;
    if (!turn || turn.stoppedAt === null) return;
    const stop = turn.stoppedAt;
    if (turn.overAt === null) {
      let due = stop + this.options.silenceMs;
      if (turn.endOfTurnAt !== null && turn.endOfTurnAt >= stop) due = Math.min(due, turn.endOfTurnAt + this.options.finalGraceMs);
      if (this.now < due) return;
      turn.overAt = due;
    }
    const wordsIn = turn.interim === '' && turn.lastFinalAt !== null && turn.lastFinalAt >= stop;
    if (wordsIn || this.now >= turn.overAt + this.options.transcriptWaitMs) {
      const text = [...turn.finals, turn.interim].filter((t) => t).join(' ');
      this.turn = null;
      this.listener.turnEnded({ text, startMs: turn.startMs, endMs: stop });
      return;
    }
    if (!turn.asked) {
      turn.asked = true;
      this.listener.needTranscript?.();
    }
  }
}
