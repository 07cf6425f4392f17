// Waiting on hold, for either live agent (docs/real-calls.md, "Waiting on hold"). The model decides it is on hold:
// it hears "please hold", music or a recorded "your call is important to us" and calls wait_on_hold (tools.ts).
// From then the session asks nothing of the model and, for the realtime agent, sends it no audio; svc's own voice
// activity detection watches the line. Speech (hold-ears below) wakes the model with what was said: a person is answered where the
// conversation was (the hold is over once the agent speaks), a recording is waited through (the model calls
// wait_on_hold again, and the hold goes on from when it began). A hold that runs past the call's budget while the
// model hears nothing hangs the line up. The wait is a turn of the agent's, `[waiting on hold]`, from when it began
// to the speech that ended it.
import type { FvadModule } from '@echogarden/fvad-wasm';
import { decodeMuLaw } from '../speech/audio.js';
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
/** Frames judged once the detector has loaded; beyond this many waiting (10 s), the oldest are dropped. */
const MAX_WAITING = 500;

/**
 * svc's ears on a line the realtime model does not hear: libfvad (voice-activity.ts), fresh from the moment the hold
 * began, so the line's background from then (music, a hum) is what its noise floor learns. A run the detector takes
 * for speech wakes the model only once its level has swung by SPEECH_SWING_DB: speech rises and falls with its
 * syllables, where a tune of steady tones starting after a silence (which the detector takes for speech until its
 * floor has learnt it) does not. The last second of audio is kept, so a sentence that wakes the model reaches it
 * from its beginning.
 */
export class HoldEars {
  private vad: VoiceActivity | null = null;
  private closed = false;
  private readonly waiting: Buffer[] = [];
  private kept: string[] = [];
  private keptBytes = 0;
  /** The run of speech under way: where it began, and its frames' quietest and loudest levels. */
  private run: { atMs: number; min: number; max: number } | null = null;

  constructor(fvad: Promise<FvadModule>) {
    void fvad.then(
      (module) => {
        if (!this.closed) this.vad = new VoiceActivity(module);
      },
      () => undefined,
    );
  }

  /** A frame of the line (base64 mu-law): the call-time ms into the hold at which speech started, when it just did. */
  push(payload: string): number | null {
    this.kept.push(payload);
    const frame = Buffer.from(payload, 'base64');
    this.keptBytes += frame.length;
    while (this.kept.length > 1 && this.keptBytes - Buffer.byteLength(this.kept[0]!, 'base64') >= PRE_ROLL_BYTES) this.keptBytes -= Buffer.byteLength(this.kept.shift()!, 'base64');
    const vad = this.vad;
    if (!vad) {
      if (this.waiting.push(frame) > MAX_WAITING) this.waiting.shift();
      return null;
    }
    for (const f of [...this.waiting.splice(0), frame]) {
      for (const e of vad.push(f)) this.run = e.type === 'started' ? { atMs: e.atMs, min: Infinity, max: -Infinity } : null;
      const run = this.run;
      if (!run) continue;
      const level = frameDbfs(decodeMuLaw(f));
      run.min = Math.min(run.min, level);
      run.max = Math.max(run.max, level);
      if (run.max - run.min >= SPEECH_SWING_DB) return run.atMs;
    }
    return null;
  }

  /** The audio kept (base64 payloads, oldest first), to send up once speech has woken the model. */
  takeKept(): string[] {
    const kept = this.kept;
    this.kept = [];
    this.keptBytes = 0;
    return kept;
  }

  close(): void {
    this.closed = true;
    this.vad?.close();
    this.vad = null;
  }
}
