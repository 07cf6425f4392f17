// The sandbox's recogniser: an oracle that knows what the simulated callee says (the sandbox's line tells it, as it
// plays each line into the call: overhear) and gives it back as a recogniser would, only once the line's audio has
// been heard and its end of speech detected. So a sandbox call through the cascaded agent is timed as a real call
// is, by the audio the agent hears, with no speech model to download: interim words as the audio of each part of a
// line goes by, a final for each part once its audio and a short detection delay have passed, and the end of the
// callee's turn marked on the last part.
import type { RecognitionListener, RecognitionOptions, RecognitionStream, SpeechRecognizer } from '../recognizer.js';
import { LINE_BYTES_PER_MS } from '../audio.js';

/** A part of what the callee says, at its place in the callee's audio (call time, ms). */
export interface OverheardPart {
  text: string;
  startMs: number;
  endMs: number;
  /** The last part of the callee's line: the recogniser marks the end of their turn after it. */
  endOfTurn: boolean;
}

/** How long after a part's audio ends the oracle gives its final, as a recogniser's end-of-speech detection takes. */
export const ORACLE_DETECTION_MS = 150;

/** What each call's callee says, by call, as the sandbox's line plays it. */
const overheard = new Map<string, OverheardPart[]>();

/** The sandbox's line says what its callee is about to say, at its place in the audio. */
export function overhear(callId: string, part: OverheardPart): void {
  const parts = overheard.get(callId) ?? [];
  parts.push(part);
  overheard.set(callId, parts);
}

/** The call is over: what was overheard of it is let go. */
export function forgetOverheard(callId: string): void {
  overheard.delete(callId);
}

class OracleStream implements RecognitionStream {
  private heardMs = 0;
  private closed = false;
  /** Parts given a final, and words given as interim for the part under way. */
  private finals = 0;
  private interimWords = 0;
  private started = -1;

  constructor(
    private readonly callId: string,
    private readonly listener: RecognitionListener,
  ) {}

  send(audio: Buffer): void {
    if (this.closed) return;
    this.heardMs += audio.length / LINE_BYTES_PER_MS;
    this.release(false);
  }

  flush(): void {
    this.release(true);
  }

  async close(): Promise<void> {
    this.release(true);
    this.closed = true;
  }

  /** Gives what the audio heard so far has revealed; `now` gives the part under way at once (a flush). */
  private release(now: boolean): void {
    const parts = overheard.get(this.callId) ?? [];
    for (;;) {
      const part = parts[this.finals];
      if (!part || this.heardMs < part.startMs) return;
      if (this.started < this.finals) {
        this.started = this.finals;
        this.listener.speechStarted?.(part.startMs);
      }
      if (this.heardMs >= part.endMs + ORACLE_DETECTION_MS || now) {
        const words = now && this.heardMs < part.endMs ? this.wordsBy(part) : part.text;
        this.finals++;
        this.interimWords = 0;
        if (words) this.listener.final(words, part.endOfTurn || now, { startMs: part.startMs, endMs: Math.min(part.endMs, this.heardMs) });
        if (now) return;
        continue;
      }
      const words = this.wordsBy(part);
      const count = words ? words.split(' ').length : 0;
      if (count > this.interimWords) {
        this.interimWords = count;
        this.listener.interim(words);
      }
      return;
    }
  }

  /** The words of a part spoken by what has been heard of it, spread evenly over its audio. */
  private wordsBy(part: OverheardPart): string {
    const words = part.text.split(/\s+/).filter(Boolean);
    const share = (this.heardMs - part.startMs) / Math.max(1, part.endMs - part.startMs);
    return words.slice(0, Math.max(0, Math.floor(words.length * Math.min(1, share)))).join(' ');
  }
}

export class OracleRecognizer implements SpeechRecognizer {
  readonly name = 'oracle';

  async open(options: RecognitionOptions, listener: RecognitionListener): Promise<RecognitionStream> {
    return new OracleStream(options.callId, listener);
  }
}
