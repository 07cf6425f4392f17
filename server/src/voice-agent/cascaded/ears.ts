// svc's own ears on a line: what the cascaded session needs to know of the callee's audio, in call time (ms of the
// callee's audio heard). Voice activity (voice-activity.ts) says when speech starts and stops; endpointing
// (endpointing.ts) says when the callee's turn is over, with the recogniser's words; barge-in detection
// (barge-in-detector.ts) says when the callee has talked over the agent long enough to cut it off.
import { LINE_BYTES_PER_MS } from '../../speech/audio.js';
import { type BargeIn, BargeInDetector, type BargeInOptions } from './barge-in-detector.js';
import { DEFAULT_ENDPOINTING, Endpointing, type EndpointingOptions } from './endpointing.js';
import type { FvadModule } from '@echogarden/fvad-wasm';
import { VoiceActivity, type VoiceActivityOptions } from './voice-activity.js';

export type EarEvent =
  /** The callee started speaking at `atMs`. */
  | { type: 'speech_started'; atMs: number }
  /** The callee stopped speaking at `atMs` (their turn may go on after a pause). */
  | { type: 'speech_stopped'; atMs: number }
  /** The callee's turn is over: their words (empty for noise the recogniser made nothing of), spoken from startMs to endMs. */
  | { type: 'turn_ended'; text: string; startMs: number; endMs: number }
  /** The callee talked over the agent long enough: its audio is to be cut (their speech began at `atMs`). */
  | { type: 'barge_in'; atMs: number }
  /** The turn is over by its silence but its words are due: the recogniser is to give them now. */
  | { type: 'flush' };

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
  /**
   * The line ended: a turn in progress is over (its speech stopped where the audio did), and ends once its words
   * are in; `giveUp` ends it now with what was recognised of it.
   */
  lineEnded(giveUp: boolean): EarEvent[];
}

export interface EarSettings {
  voiceActivity?: Partial<VoiceActivityOptions>;
  endpointing?: Partial<EndpointingOptions>;
  bargeIn?: Partial<BargeInOptions>;
}

/**
 * The ears of one line: the detector's events feed endpointing and barge-in detection; call time is the detector's
 * (the audio pushed). libfvad loads once per process, in the background: frames that come before it has are kept
 * and judged as soon as it is there, so no speech is missed and none is timed wrong.
 */
export class LineEars implements Ears {
  private vad: VoiceActivity | null = null;
  private readonly waiting: Buffer[] = [];
  private readonly endpointing: Endpointing;
  private readonly bargeIn: BargeInDetector;
  private events: EarEvent[] = [];
  private pushedBytes = 0;
  private readonly silenceMs: number;
  private readonly transcriptWaitMs: number;

  constructor(fvad: Promise<FvadModule>, settings: EarSettings = {}) {
    const endpointing = { ...DEFAULT_ENDPOINTING, ...settings.endpointing };
    this.silenceMs = endpointing.silenceMs;
    this.transcriptWaitMs = endpointing.transcriptWaitMs;
    this.endpointing = new Endpointing(
      {
        turnEnded: (t) => this.events.push({ type: 'turn_ended', text: t.text, startMs: t.startMs, endMs: t.endMs }),
        needTranscript: () => this.events.push({ type: 'flush' }),
      },
      endpointing,
    );
    this.bargeIn = new BargeInDetector(settings.bargeIn);
    void fvad.then((module) => {
      this.vad = new VoiceActivity(module, settings.voiceActivity);
    });
  }

  get nowMs(): number {
    return this.pushedBytes / LINE_BYTES_PER_MS;
  }

  get speaking(): boolean {
    return this.vad?.speaking ?? false;
  }

  push(frame: Buffer): EarEvent[] {
    this.pushedBytes += frame.length;
    const vad = this.vad;
    if (!vad) {
      this.waiting.push(frame);
      return [];
    }
    for (const f of this.waiting.splice(0)) this.judge(vad, f);
    this.judge(vad, frame);
    return this.take();
  }

  interim(text: string): EarEvent[] {
    this.endpointing.interim(text);
    this.barge(this.bargeIn.interim(text));
    return this.take();
  }

  recognized(text: string, endOfTurn: boolean): EarEvent[] {
    this.endpointing.recognized(text, endOfTurn);
    return this.take();
  }

  agentSpeaking(on: boolean): void {
    if (on) this.bargeIn.agentStarted();
    else this.bargeIn.agentStopped();
  }

  lineEnded(giveUp: boolean): EarEvent[] {
    const now = this.vad?.nowMs ?? this.nowMs;
    if (this.vad?.speaking) {
      this.events.push({ type: 'speech_stopped', atMs: this.vad.speechEndMs ?? now });
      this.endpointing.speechStopped(this.vad.speechEndMs ?? now);
    }
    this.endpointing.frame(now + this.silenceMs + (giveUp ? this.transcriptWaitMs : 0));
    this.vad?.close();
    this.vad = null;
    return this.take();
  }

  private judge(vad: VoiceActivity, frame: Buffer): void {
    for (const e of vad.push(frame)) {
      if (e.type === 'started') {
        this.events.push({ type: 'speech_started', atMs: e.atMs });
        this.endpointing.speechStarted(e.atMs);
        this.barge(this.bargeIn.speechStarted(e.atMs));
      } else {
        this.events.push({ type: 'speech_stopped', atMs: e.atMs });
        this.endpointing.speechStopped(e.atMs);
        this.barge(this.bargeIn.speechStopped(e.atMs));
      }
    }
    this.barge(this.bargeIn.frame(vad.nowMs, vad.speechEndMs));
    this.endpointing.frame(vad.nowMs);
  }

  private barge(b: BargeIn | null): void {
    if (b) this.events.push({ type: 'barge_in', atMs: b.atMs });
  }

  private take(): EarEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }
}
