// The callee's audio on its way to the recogniser. While the callee may be speaking (their speech heard, or their
// turn still open) each 20 ms frame goes at once: the recogniser's words are what the end of a turn waits on. While
// nobody is speaking (the callee listening to the agent, a pause between turns), frames go several at a time, up to
// BATCH_BYTES, still well inside the 20–250 ms a message that Deepgram recommends and what the others take: each
// message is a write on the recogniser's socket, and most of a call is the callee listening. Speech heard releases
// what is held before its own frames, so the recogniser hears the audio whole and in order, late by BATCH_MS at most;
// so does a line whose frames stop coming (HOLD_MAX_MS on the wall clock after the first frame held).
// Before the stream opens, frames are kept (MAX_KEPT_BYTES) and sent once it does.
import type { RecognitionStream } from '../../speech/recognizer.js';
import { LINE_BYTES_PER_MS } from '../../speech/audio.js';

/** The most audio one message carries while the line is quiet. */
export const BATCH_MS = 100;
const BATCH_BYTES = BATCH_MS * LINE_BYTES_PER_MS;
/** Held audio goes this long after its first frame, should the line's next frames not come to push it on. */
const HOLD_MAX_MS = 2 * BATCH_MS;
/** Audio kept while the stream opens: 10 s; what comes after that is not sent. */
const MAX_KEPT_BYTES = 10_000 * LINE_BYTES_PER_MS;

export class RecognizerFeed {
  private stream: RecognitionStream | null = null;
  private held: Buffer[] = [];
  private heldBytes = 0;
  private quiet = false;
  private timer: NodeJS.Timeout | null = null;

  get open(): boolean {
    return this.stream !== null;
  }

  /** The stream is open: what was kept goes first, in messages of BATCH_MS. */
  opened(stream: RecognitionStream): void {
    this.stream = stream;
    const kept = Buffer.concat(this.held);
    this.held = [];
    this.heldBytes = 0;
    for (let at = 0; at < kept.length; at += BATCH_BYTES) stream.send(kept.subarray(at, at + BATCH_BYTES));
  }

  push(frame: Buffer): void {
    if (!this.stream) {
      if (this.heldBytes + frame.length > MAX_KEPT_BYTES) return;
    } else if (!this.quiet) return this.stream.send(frame);
    this.held.push(frame);
    this.heldBytes += frame.length;
    if (!this.stream) return;
    if (this.heldBytes >= BATCH_BYTES) this.release();
    else this.timer ??= setTimeout(() => this.release(), HOLD_MAX_MS);
  }

  /** Whether nobody is speaking now (after this frame): leaving the quiet sends what is held at once. */
  setQuiet(quiet: boolean): void {
    this.quiet = quiet;
    if (!quiet) this.release();
  }

  /** Asks the recogniser for its words now, after the audio held. */
  flush(): void {
    this.release();
    this.stream?.flush();
  }

  /** Ends the stream after the audio held; null when it never opened. */
  close(graceMs: number): Promise<void> | null {
    this.release();
    const stream = this.stream;
    this.stream = null;
    return stream ? stream.close(graceMs) : null;
  }

  private release(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.stream || this.held.length === 0) return;
    this.stream.send(this.held.length === 1 ? this.held[0]! : Buffer.concat(this.held, this.heldBytes));
    this.held = [];
    this.heldBytes = 0;
  }
}
