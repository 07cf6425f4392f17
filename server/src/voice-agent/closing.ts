// How a live call's conversation closes without losing its last words either way: the agent's goodbye is heard
// before the line is hung up (Goodbye), and the callee's last words, when they hang up mid-sentence, are
// transcribed before the model's session closes (LastWords).

/** The mark that follows the goodbye: once it comes back, the goodbye has been heard. */
export const GOODBYE_MARK = 'end_call';
/** After end_call, how long the goodbye may take beyond its own length before the line is hung up anyway. */
export const DEFAULT_END_GRACE_MS = 5000;
/** After the callee hangs up, how long their last words may take to be transcribed before the session closes. */
export const DEFAULT_LAST_WORDS_MS = 3000;

export interface GoodbyeLine {
  /** Marks the agent's audio sent so far (the ledger's marks), so what was played is known. */
  markSent(): void;
  /** Sends a mark to the line after everything played so far. */
  mark(name: string): void;
  /** How much of the agent's audio sent has not been confirmed played, in ms. */
  unplayedMs(): number;
  /** Hangs up: the goodbye has been heard, or its bound has passed. */
  hangUp(): void;
}

/**
 * The model's end_call. The model may call it before, while or after it speaks its goodbye in the same response,
 * so the line is hung up only once that response is done (all its audio sent) and its audio has played: the mark
 * sent after it comes back. Bounded: `graceMs` for the response to finish, then the audio's own length and
 * `graceMs` more for the mark to come back.
 */
export class Goodbye {
  private requested = false;
  private responding = false;
  private marked = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly line: GoodbyeLine,
    private readonly graceMs: number,
  ) {}

  /** Whether the call is ending: the callee's audio and new responses are no longer wanted. */
  get ending(): boolean {
    return this.requested;
  }

  /** Whether the model's audio still goes to the line: always, until the response that ends the call is done. */
  get takesAudio(): boolean {
    return !this.requested || this.responding;
  }

  responseStarted(): void {
    this.responding = true;
  }

  responseDone(): void {
    this.responding = false;
    if (this.requested) this.playOut();
  }

  /** The model called end_call. */
  request(): void {
    if (this.requested) return;
    this.requested = true;
    if (!this.responding) return this.playOut();
    this.timer = setTimeout(() => this.playOut(), this.graceMs);
  }

  /** A mark came back; true when it is the goodbye's (the line is then hung up). */
  markedBack(name: string): boolean {
    if (name !== GOODBYE_MARK || !this.marked) return false;
    this.line.hangUp();
    return true;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private playOut(): void {
    if (this.marked) return;
    this.marked = true;
    this.stop();
    this.line.markSent();
    this.line.mark(GOODBYE_MARK);
    this.timer = setTimeout(() => this.line.hangUp(), this.line.unplayedMs() + this.graceMs);
  }
}

/**
 * The callee's turns not yet transcribed. When the line ends, a turn server VAD has not ended (the callee hung up
 * mid-sentence) is committed, and every turn heard is given a bounded time to be transcribed.
 */
export class LastWords {
  /** Callee items whose speech started and has not stopped (not committed). */
  private readonly open = new Set<string>();
  /** Callee items not transcribed yet. */
  private readonly waiting = new Set<string>();
  private wake: (() => void) | null = null;

  /** Whether the callee is mid-turn: their audio since the turn began is not committed. */
  get speaking(): boolean {
    return this.open.size > 0;
  }

  started(itemId: string): void {
    this.open.add(itemId);
    this.waiting.add(itemId);
  }

  stopped(itemId: string): void {
    this.open.delete(itemId);
  }

  /** The turn's audio was committed, as `itemId` (the server names the committed item). */
  committed(itemId: string): void {
    for (const id of this.open) if (id !== itemId) this.waiting.delete(id);
    this.open.clear();
    this.waiting.add(itemId);
  }

  /** The turn's transcription came, or failed: nothing more will come for it. */
  transcribed(itemId: string): void {
    this.open.delete(itemId);
    this.waiting.delete(itemId);
    if (this.waiting.size === 0) this.wake?.();
  }

  /** The turns committed (the callee's speech ended) and not transcribed yet. */
  get transcribing(): boolean {
    for (const id of this.waiting) if (!this.open.has(id)) return true;
    return false;
  }

  /** Resolves once every turn heard is transcribed, or after `boundMs`. */
  settled(boundMs: number): Promise<void> {
    if (this.waiting.size === 0) return Promise.resolve();
    return wakeableWait(boundMs, (wake) => {
      this.wake = wake;
    });
  }
}

/**
 * Waits `boundMs` at most: `setWake` is given the function that ends the wait at once, and null when it is over
 * (words awaited as a line closes come, or do not).
 */
export function wakeableWait(boundMs: number, setWake: (wake: (() => void) | null) => void): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, boundMs);
    function done() {
      clearTimeout(timer);
      setWake(null);
      resolve();
    }
    setWake(done);
  });
}
