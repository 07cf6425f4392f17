// Waiting on hold, for either live agent (docs/real-calls.md, "Waiting on hold"). The model decides it is on hold:
// it hears "please hold", music or a recorded "your call is important to us" and calls wait_on_hold (tools.ts).
// From then the session asks nothing of the model and, for the realtime agent, sends it no audio; svc's own voice
// activity detection watches the line. Speech (hold-ears below) wakes the model with what was said: a person is answered where the
// conversation was (the hold is over once the agent speaks), a recording is waited through (the model calls
// wait_on_hold again, and the hold goes on from when it began). A hold that runs past the call's budget while the
// model hears nothing hangs the line up. The wait is a turn of the agent's, `[waiting on hold]`, from when it began
// to the speech that ended it.
import type { FvadModule } from '@echogarden/fvad-wasm';
import { decodeMuLaw, LINE_BYTES_PER_MS } from '../speech/audio.js';
import { frameDbfs, VoiceActivity } from './cascaded/voice-activity.js';

/** A hold as a span of call time. */
export interface HoldSpan {
  startMs: number;
  endMs: number;
}

export class Hold {
  /** `holding`: the model hears nothing; `woken`: speech came and the model hears it, the hold not yet over. */
  private state: 'off' | 'holding' | 'woken' = 'off';
  private startMs = 0;
  private wokeAtMs = 0;

  constructor(private readonly budgetMs: number) {}

  /** The model hears nothing and is asked nothing. */
  get holding(): boolean {
    return this.state === 'holding';
  }

  /** The agent is waiting, or listening to what woke it. */
  get on(): boolean {
    return this.state !== 'off';
  }

  /** The model called wait_on_hold at call time `nowMs`: a new hold, or the same one again after a recording woke it. */
  enter(nowMs: number): void {
    if (this.state === 'off') this.startMs = nowMs;
    this.state = 'holding';
  }

  /** Speech on the line from `atMs`: the model is to hear it. */
  wake(atMs: number): void {
    if (this.state !== 'holding') return;
    this.state = 'woken';
    this.wokeAtMs = atMs;
  }

  /**
   * The agent speaks or presses keys at `nowMs` (or the line ends): the hold is over, ending where the speech that
   * woke the model began (or now, when nothing did). Its span, or null when there was no hold.
   */
  end(nowMs: number): HoldSpan | null {
    if (this.state === 'off') return null;
    const span = { startMs: this.startMs, endMs: this.state === 'woken' ? this.wokeAtMs : nowMs };
    this.state = 'off';
    return span;
  }

  /** Whether the agent has waited, hearing nothing, for the budget or longer. */
  expired(nowMs: number): boolean {
    return this.state === 'holding' && nowMs - this.startMs >= this.budgetMs;
  }
}

/**
 * How much of the line a wake sends up before it: the detector decides a little after speech begins, and the swing
 * below a little after that.
 */
export const PRE_ROLL_MS = 1000;
const PRE_ROLL_BYTES = PRE_ROLL_MS * 8;
/** A run of speech wakes the model once its 20 ms frames' levels have spread this far: speech rises and falls. */
const SPEECH_SWING_DB = 6;
/** Frames waiting for the detector to load; beyond this many (10 s), the oldest are dropped. */
const MAX_WAITING = 500;

/**
 * svc's ears on a line the realtime model does not hear: libfvad (voice-activity.ts), fresh from the moment the hold
 * began, so the line's background from then (music, a hum) is what its noise floor learns. A run the detector takes
 * for speech wakes the model (`onSpeech`, with the call-time ms into the hold at which it began) once its level has
 * swung by SPEECH_SWING_DB: speech rises and falls with its syllables, where a tune of steady tones starting after a
 * silence (which the detector takes for speech until its floor has learnt it) does not. The second of audio before
 * the frame that woke it is kept, so a sentence reaches the model from its beginning.
 *
 * Frames that arrive while the detector loads wait for it, and are judged the moment it has loaded, not when the next
 * frame comes: a line whose audio arrives in a burst and then pauses must still wake the model.
 */
export class HoldEars {
  private vad: VoiceActivity | null = null;
  private closed = false;
  /** The line heard: the second before the first frame not yet judged, then every frame from there on. */
  private heard: string[] = [];
  private heardBytes: number[] = [];
  /** Index in `heard` of the first frame the detector has not judged. */
  private judged = 0;
  /** Index in `heard` of the frame that woke the model, once one has. */
  private wokeBy: number | null = null;
  /** The run of speech under way: where it began, and its frames' quietest and loudest levels. */
  private run: { atMs: number; min: number; max: number } | null = null;
  /** Ms of the line dropped unjudged while the detector loaded: its times start that far into the hold. */
  private skippedMs = 0;

  constructor(
    fvad: Promise<FvadModule>,
    private readonly onSpeech: (atMs: number) => void,
  ) {
    void fvad.then(
      (module) => {
        if (this.closed) return;
        this.vad = new VoiceActivity(module);
        this.judge();
      },
      () => undefined,
    );
  }

  /** A frame of the line (base64 mu-law). */
  push(payload: string): void {
    this.heard.push(payload);
    this.heardBytes.push(Buffer.byteLength(payload, 'base64'));
    if (this.vad) this.judge();
    else if (this.heard.length - this.judged > MAX_WAITING) {
      this.skippedMs += this.heardBytes[0]! / LINE_BYTES_PER_MS;
      this.forget(1);
    }
  }

  /** The audio kept (base64 payloads, oldest first): the second up to the frame that woke the model, and what came after. */
  takeKept(): string[] {
    let from = this.wokeBy ?? this.heard.length - 1;
    let bytes = this.heardBytes[from] ?? 0;
    while (from > 0 && bytes < PRE_ROLL_BYTES) bytes += this.heardBytes[--from]!;
    const kept = this.heard.slice(Math.max(0, from));
    this.heard = [];
    this.heardBytes = [];
    this.judged = 0;
    return kept;
  }

  private judge(): void {
    const vad = this.vad!;
    while (this.wokeBy === null && this.judged < this.heard.length && !this.closed) {
      const i = this.judged++;
      const frame = Buffer.from(this.heard[i]!, 'base64');
      for (const e of vad.push(frame)) this.run = e.type === 'started' ? { atMs: e.atMs, min: Infinity, max: -Infinity } : null;
      const run = this.run;
      if (!run) continue;
      const level = frameDbfs(decodeMuLaw(frame));
      run.min = Math.min(run.min, level);
      run.max = Math.max(run.max, level);
      if (run.max - run.min >= SPEECH_SWING_DB) {
        this.wokeBy = i;
        this.onSpeech(this.skippedMs + run.atMs);
        return;
      }
    }
    // Frames judged and more than a second behind the next one to judge are no longer needed.
    let bytes = 0;
    let keep = this.judged;
    while (keep > 0 && bytes < PRE_ROLL_BYTES) bytes += this.heardBytes[--keep]!;
    if (keep > 0) this.forget(keep);
  }

  /** Drops the `n` oldest frames heard. */
  private forget(n: number): void {
    this.heard.splice(0, n);
    this.heardBytes.splice(0, n);
    this.judged = Math.max(0, this.judged - n);
    if (this.wokeBy !== null) this.wokeBy = Math.max(0, this.wokeBy - n);
  }

  close(): void {
    this.closed = true;
    this.vad?.close();
    this.vad = null;
  }
}
