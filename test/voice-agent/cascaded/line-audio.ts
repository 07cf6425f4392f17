// Phone-line audio for the turn-taking tests, made here: espeak-ng's speech (22.05 kHz) brought down to the line's
// 8 kHz, white noise, a tone, a click, a cough, laid on a timeline and encoded as mu-law, cut into Twilio's 20 ms
// frames. Every piece is deterministic (seeded noise, espeak with a pinned clock), so every run hears the same line.
// Where the speech is comes from its samples: the first and last 5 ms window louder than -45 dBFS.
import { ESPEAK_SAMPLE_RATE, type SpeechVoice, sharedSynthesizer } from '../../../server/src/recording/espeak-synthesizer.js';
import { encodeMuLaw, LINE_RATE, resample } from '../../../server/src/speech/audio.js';
import { frameDbfs } from '../../../server/src/voice-agent/cascaded/voice-activity.js';
import { seededRandom } from '../../../server/src/voice-agent/seeded-random.js';

export const VOICES: SpeechVoice[] = [
  { language: 'en-us', variant: null, pitch: 50, wordsPerMinute: 175 },
  { language: 'en-us', variant: 'f2', pitch: 60, wordsPerMinute: 160 },
  { language: 'en-gb', variant: 'm3', pitch: 40, wordsPerMinute: 190 },
];

const SAMPLES_PER_MS = LINE_RATE / 1000;
const THRESHOLD_DBFS = -45;
const WINDOW = 5 * SAMPLES_PER_MS;

/** 8 kHz speech, and where in it the speech is (ms from its first sample). */
export interface Utterance {
  samples: Int16Array;
  startMs: number;
  endMs: number;
}

export async function speak(text: string, voice: SpeechVoice = VOICES[0]!): Promise<Utterance> {
  const synth = await sharedSynthesizer();
  const samples = resample(synth.synthesize(text, voice), ESPEAK_SAMPLE_RATE, LINE_RATE);
  let first = -1;
  let last = -1;
  for (let i = 0; i + WINDOW <= samples.length; i += WINDOW) {
    if (frameDbfs(samples.subarray(i, i + WINDOW)) > THRESHOLD_DBFS) {
      if (first < 0) first = i;
      last = i + WINDOW;
    }
  }
  if (first < 0) throw new Error(`espeak-ng said nothing audible for "${text}"`);
  return { samples, startMs: first / SAMPLES_PER_MS, endMs: last / SAMPLES_PER_MS };
}

const amplitude = (dbfs: number) => 32768 * 10 ** (dbfs / 20);

/** Gaussian white noise whose RMS is `dbfs`, from a seed. */
export function whiteNoise(ms: number, dbfs: number, seed = 'noise'): Float64Array {
  const rng = seededRandom(seed);
  const a = amplitude(dbfs);
  const out = new Float64Array(ms * SAMPLES_PER_MS);
  for (let i = 0; i < out.length; i++) {
    let u = rng.next();
    while (u === 0) u = rng.next();
    out[i] = a * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
  }
  return out;
}

/** A sine whose RMS is `dbfs`. */
export function tone(ms: number, hz: number, dbfs: number): Float64Array {
  const a = amplitude(dbfs) * Math.SQRT2;
  const out = new Float64Array(ms * SAMPLES_PER_MS);
  for (let i = 0; i < out.length; i++) out[i] = a * Math.sin((2 * Math.PI * hz * i) / LINE_RATE);
  return out;
}

/** A click: a burst of loud noise, as a handset knocked or a line's crackle. */
export function click(ms: number, dbfs = -6): Float64Array {
  return whiteNoise(ms, dbfs, 'click');
}

/** A cough: loud noise that bursts and dies away over `ms`. */
export function cough(ms: number, dbfs = -12): Float64Array {
  const noise = whiteNoise(ms, dbfs, 'cough');
  const attack = 10 * SAMPLES_PER_MS;
  for (let i = 0; i < noise.length; i++) noise[i]! *= i < attack ? i / attack : Math.exp((-3 * (i - attack)) / (noise.length - attack));
  return noise;
}

/** A timeline of the line's audio: sounds laid at ms offsets over a bed (silence or a noise), mixed. */
export class Line {
  private readonly mix: Float64Array;

  constructor(
    readonly ms: number,
    bed: Float64Array | null = null,
  ) {
    this.mix = new Float64Array(ms * SAMPLES_PER_MS);
    if (bed) this.mix.set(bed.subarray(0, this.mix.length));
  }

  /** Lays `sound` from `atMs`; returns where it ends (ms). */
  add(atMs: number, sound: ArrayLike<number>): number {
    const from = atMs * SAMPLES_PER_MS;
    if (from + sound.length > this.mix.length) throw new Error(`a sound at ${atMs} ms runs past the line's ${this.ms} ms`);
    for (let i = 0; i < sound.length; i++) this.mix[from + i]! += sound[i]!;
    return atMs + sound.length / SAMPLES_PER_MS;
  }

  /** Lays an utterance from `atMs`; returns where its speech is on the line. */
  say(atMs: number, u: Utterance): { startMs: number; endMs: number; endsAt: number } {
    const endsAt = this.add(atMs, u.samples);
    return { startMs: atMs + u.startMs, endMs: atMs + u.endMs, endsAt };
  }

  /** Lays an utterance so its speech starts `pauseMs` after `afterMs` (the end of the speech before it). */
  sayAfter(afterMs: number, pauseMs: number, u: Utterance): { startMs: number; endMs: number; endsAt: number } {
    return this.say(afterMs + pauseMs - u.startMs, u);
  }

  /** The whole line as mu-law. */
  muLaw(): Buffer {
    const pcm = new Int16Array(this.mix.length);
    for (let i = 0; i < pcm.length; i++) pcm[i] = Math.max(-32768, Math.min(32767, Math.round(this.mix[i]!)));
    return encodeMuLaw(pcm);
  }

  /** The line as Twilio sends it: 20 ms frames of 160 bytes. */
  frames(): Buffer[] {
    const all = this.muLaw();
    const out: Buffer[] = [];
    for (let i = 0; i < all.length; i += 160) out.push(all.subarray(i, i + 160));
    return out;
  }
}
