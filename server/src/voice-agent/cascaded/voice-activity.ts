// Voice activity on the callee's side of a phone line, for the cascaded agent's turn-taking: fed the line's 8 kHz
// mu-law as it arrives (Twilio sends 20 ms frames of 160 bytes), it says when the callee starts and stops talking,
// in call time (ms of the callee's audio heard, 8 bytes a ms), so the same audio always gives the same events.
//
// Each 20 ms frame is judged by libfvad, the WebRTC voice activity detector, as WebAssembly
// (@echogarden/fvad-wasm): it runs at 8 kHz natively (the rate WebRTC's detector works at inside, so no resampling),
// takes 20 ms frames as they come, answers synchronously for little more than the cost of decoding the frame
// (bench/vad-frame.ts), ships its small wasm in the package and needs no native build. Silero's model through
// onnxruntime-node tells noise from speech better, but costs far more a frame, wants 32 ms chunks at 8 kHz, answers
// through a promise, and its runtime is a large native package whose install script fetches more binaries from
// outside the npm registry.
//
// WebRTC's detector alone takes a steady noise (a hiss, a hum, a tone) for speech and holds speech for a few frames
// after it ends. So a frame is speech only when libfvad says so and it is also louder than both `minDbfs` and the
// line's noise floor by `aboveNoiseDb`; the floor is the quietest frame of the last `noiseWindowMs`, so a noise
// present from the start is learnt at once, and one that starts mid-call within `noiseWindowMs`.
//
// Hysteresis on the frames: speech starts once `startMs` of speech frames are heard within `startWindowMs`, counting
// only the run they belong to (speech frames with gaps under 160 ms between them), so a click or a lone frame never
// starts it; `started.atMs` is the start of the run's first speech frame. Speech stops after `stopMs` of non-speech
// frames; `stopped.atMs` is the end of the last speech frame. Both times are on 20 ms frame edges. `stopMs` is short:
// whether the callee's turn is over is endpointing's question (endpointing.ts), not this one's.
import createFvad, { type FvadModule } from '@echogarden/fvad-wasm';
import { decodeMuLaw, LINE_BYTES_PER_MS, LINE_RATE } from '../../speech/audio.js';

export type ActivityEvent = { type: 'started'; atMs: number } | { type: 'stopped'; atMs: number };

/** libfvad's modes: 0 calls the most frames speech, 3 the fewest (the most aggressive). */
export type VadMode = 0 | 1 | 2 | 3;

export interface VoiceActivityOptions {
  /** libfvad's aggressiveness. */
  mode: VadMode;
  /** Speech frames, in ms, that start speech. */
  startMs: number;
  /** The window `startMs` of speech must fall in. */
  startWindowMs: number;
  /** Non-speech frames, in ms, that stop it. */
  stopMs: number;
  /** A frame quieter than this (dB below full scale) is never speech: a noisy line's fixed floor. */
  minDbfs: number;
  /** How far above the line's noise floor a frame must be to be speech (dB). */
  aboveNoiseDb: number;
  /** How far back the noise floor looks: its quietest frame in this window. */
  noiseWindowMs: number;
}

/**
 * Tuned on espeak-ng's speech (about -20 dBFS) through the line's mu-law, quiet and under white noise
 * (test/voice-agent/cascaded): mode 3, the one that least often takes the onset of a loud noise for speech; 120 ms
 * of speech within 300 ms to start (a click or a knock is shorter, and a callee talking over the agent is heard
 * within 150 ms of their first word); 240 ms of non-speech to stop (longer than the
 * gaps inside a sentence); speech 6 dB above the noise floor (a steady noise's 20 ms frames stay within about 3 dB of
 * their quietest) and above -45 dBFS (an utterance's fading tail is below it).
 */
export const DEFAULT_VOICE_ACTIVITY: VoiceActivityOptions = {
  mode: 3,
  startMs: 120,
  startWindowMs: 300,
  stopMs: 240,
  minDbfs: -45,
  aboveNoiseDb: 6,
  noiseWindowMs: 1500,
};

/** The frame libfvad judges: 20 ms, as Twilio sends them. */
export const FRAME_MS = 20;
const FRAME_BYTES = FRAME_MS * LINE_BYTES_PER_MS;
/** A gap this long between speech frames parts two runs: a weak consonant between two vowels is shorter. */
const RUN_GAP_FRAMES = 8;
/** Digital silence's level, so the log of zero is not taken. */
const SILENT_DBFS = -100;

export class VoiceActivityError extends Error {}

let shared: Promise<FvadModule> | undefined;

/** The process's one libfvad module (its detectors are one small struct each inside it), loaded on first use. */
export function loadFvad(): Promise<FvadModule> {
  shared ??= createFvad().catch((e: unknown) => {
    shared = undefined;
    throw e;
  });
  return shared;
}

/** A frame's level in dB below full scale (16-bit), from its mean square. */
export function frameDbfs(samples: Int16Array): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
  if (sum === 0) return SILENT_DBFS;
  return Math.max(SILENT_DBFS, 10 * Math.log10(sum / samples.length / (32768 * 32768)));
}

export class VoiceActivity {
  private readonly options: VoiceActivityOptions;
  private readonly handle: number;
  private readonly pointer: number;
  private readonly startFrames: number;
  private readonly stopFrames: number;
  /** The start window's frames, newest at `frames % length`: 1 speech, 0 not. */
  private readonly recent: Uint8Array;
  /** The noise window's frame levels, and how many of them are filled. */
  private readonly levels: Float64Array;
  private filled = 0;
  /** Bytes short of a frame, kept for the next push. */
  private partial: Buffer = Buffer.alloc(0);
  private bytes = 0;
  private frames = 0;
  private inSpeech = false;
  /** While speaking: the end of the last speech frame, and how many frames since it were not speech. */
  private lastSpeechEnd = 0;
  private quietFrames = 0;
  private closed = false;

  constructor(
    private readonly fvad: FvadModule,
    options: Partial<VoiceActivityOptions> = {},
  ) {
    this.options = { ...DEFAULT_VOICE_ACTIVITY, ...options };
    const o = this.options;
    if (!(o.startMs > 0 && o.startMs <= o.startWindowMs)) throw new VoiceActivityError(`startMs must be above 0 and at most startWindowMs, got ${o.startMs}`);
    if (!(o.stopMs > 0)) throw new VoiceActivityError(`stopMs must be above 0, got ${o.stopMs}`);
    if (!(o.noiseWindowMs >= FRAME_MS)) throw new VoiceActivityError(`noiseWindowMs must be at least ${FRAME_MS}, got ${o.noiseWindowMs}`);
    this.startFrames = Math.ceil(o.startMs / FRAME_MS);
    this.stopFrames = Math.ceil(o.stopMs / FRAME_MS);
    this.recent = new Uint8Array(Math.ceil(o.startWindowMs / FRAME_MS));
    this.levels = new Float64Array(Math.ceil(o.noiseWindowMs / FRAME_MS));
    this.handle = fvad._fvad_new();
    if (!this.handle) throw new VoiceActivityError('libfvad could not allocate a detector');
    this.pointer = fvad._malloc(FRAME_BYTES * 2);
    if (fvad._fvad_set_sample_rate(this.handle, LINE_RATE) !== 0 || fvad._fvad_set_mode(this.handle, o.mode) !== 0) {
      this.close();
      throw new VoiceActivityError(`libfvad refused mode ${o.mode} at ${LINE_RATE} Hz`);
    }
  }

  /** Whether the callee is speaking, by the hysteresis. */
  get speaking(): boolean {
    return this.inSpeech;
  }

  /** Call time: ms of the callee's audio pushed so far. */
  get nowMs(): number {
    return this.bytes / LINE_BYTES_PER_MS;
  }

  /** While speaking, the end of the last speech frame heard (the speech lasts from `started.atMs` to it); else null. */
  get speechEndMs(): number | null {
    return this.inSpeech ? this.lastSpeechEnd : null;
  }

  /** Line audio, 8 kHz mu-law, any length: judged a whole 20 ms frame at a time, the rest kept for the next push. */
  push(audio: Uint8Array): ActivityEvent[] {
    if (this.closed) throw new VoiceActivityError('the voice activity detector is closed');
    this.bytes += audio.length;
    let data = Buffer.from(audio.buffer, audio.byteOffset, audio.length);
    if (this.partial.length) data = Buffer.concat([this.partial, data]);
    const events: ActivityEvent[] = [];
    let at = 0;
    for (; at + FRAME_BYTES <= data.length; at += FRAME_BYTES) this.frame(data.subarray(at, at + FRAME_BYTES), events);
    this.partial = Buffer.from(data.subarray(at));
    return events;
  }

  /** Frees the detector inside the module; the object is of no more use. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.fvad._free(this.pointer);
    this.fvad._fvad_free(this.handle);
  }

  private frame(bytes: Uint8Array, events: ActivityEvent[]): void {
    const samples = decodeMuLaw(bytes);
    const index = this.frames++;
    const level = frameDbfs(samples);
    this.levels[index % this.levels.length] = level;
    this.filled = Math.min(this.filled + 1, this.levels.length);
    let floor = level;
    for (let i = 0; i < this.filled; i++) floor = Math.min(floor, this.levels[i]!);
    this.fvad.HEAP16.set(samples, this.pointer >> 1);
    const voiced = this.fvad._fvad_process(this.handle, this.pointer, samples.length) === 1;
    const speech = voiced && level >= this.options.minDbfs && level >= floor + this.options.aboveNoiseDb;
    const end = (index + 1) * FRAME_MS;
    if (this.inSpeech) {
      if (speech) {
        this.lastSpeechEnd = end;
        this.quietFrames = 0;
      } else if (++this.quietFrames >= this.stopFrames) {
        this.inSpeech = false;
        this.recent.fill(0);
        events.push({ type: 'stopped', atMs: this.lastSpeechEnd });
      }
      return;
    }
    const n = this.recent.length;
    this.recent[index % n] = speech ? 1 : 0;
    if (!speech) return;
    // The run this frame ends: back through the window until a gap of RUN_GAP_FRAMES.
    let count = 0;
    let first = index;
    let gap = 0;
    for (let back = 0; back < n && back <= index; back++) {
      if (this.recent[(index - back) % n]) {
        count++;
        first = index - back;
        gap = 0;
      } else if (++gap >= RUN_GAP_FRAMES) break;
    }
    if (count < this.startFrames) return;
    this.inSpeech = true;
    this.lastSpeechEnd = end;
    this.quietFrames = 0;
    events.push({ type: 'started', atMs: first * FRAME_MS });
  }
}
