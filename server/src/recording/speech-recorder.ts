// The default Recorder: each turn spoken by espeak-ng in the call's language, the agent and the callee in two
// voices, laid into silence at the turn's start, spoken faster when it would outrun its slot and cut at its end
// only when even that is too long, so the file lasts exactly the call.
import type { Speaker } from '../conversation/conversation.js';
import { encodeWav } from './encode-wav.js';
import { ESPEAK_SAMPLE_RATE, sharedSynthesizer, type SpeechVoice, type Synthesizer } from './espeak-synthesizer.js';
import type { Recorder, RecordingRequest } from './recorder.js';
import { UtteranceCache } from './utterance-cache.js';

export type VoiceStyle = Omit<SpeechVoice, 'language'>;

/** Two voices a listener tells apart: a higher female variant for the agent, a lower male one for the callee. */
export const DEFAULT_VOICES: Readonly<Record<Speaker, VoiceStyle>> = {
  agent: { variant: 'f2', pitch: 60, wordsPerMinute: 175 },
  callee: { variant: 'm3', pitch: 40, wordsPerMinute: 175 },
};

/** espeak-ng's voice when the call's language is one it lacks. */
const FALLBACK_LANGUAGE = 'en-us';
/** A turn cut at its end fades out over 10 ms instead of clicking. */
const FADE_MS = 10;
/** A turn longer than its slot is spoken up to this much faster (numbers and pauses outrun the words-per-minute timing). */
const MAX_SPEED_UP = 2.5;
/** A tone's amplitude: a clear beep, below speech's peaks. */
const TONE_LEVEL = 8000;
/** Below this a sample counts as silence when measuring how long an utterance speaks. */
const SILENCE = 64;

/**
 * The espeak-ng voice for a BCP-47 tag: the whole tag (`pt-BR` → `pt-br`), then language and region
 * (`es-419-x` → `es-419`), then the language alone (`fr-CA` → `fr`), else English.
 */
export function espeakLanguageFor(language: string, known: ReadonlyMap<string, string>): string {
  const parts = language.trim().toLowerCase().split('-');
  const candidates = [parts.join('-'), parts.slice(0, 2).join('-'), parts[0]!];
  return candidates.find((c) => known.has(c)) ?? FALLBACK_LANGUAGE;
}

export interface SpeechRecorderOptions {
  /** The synthesiser; defaults to the process's shared espeak-ng one. */
  synthesizer?: () => Promise<Synthesizer>;
  voices?: Readonly<Record<Speaker, VoiceStyle>>;
  /** Memory for recently spoken utterances; 16 MB (about six minutes of speech) by default, 0 for none. */
  cacheBytes?: number;
}

export class SpeechRecorder implements Recorder {
  readonly sampleRate = ESPEAK_SAMPLE_RATE;
  private readonly load: () => Promise<Synthesizer>;
  private readonly voices: Readonly<Record<Speaker, VoiceStyle>>;
  private readonly cache: UtteranceCache;

  constructor(options: SpeechRecorderOptions = {}) {
    this.load = options.synthesizer ?? sharedSynthesizer;
    this.voices = options.voices ?? DEFAULT_VOICES;
    this.cache = new UtteranceCache(options.cacheBytes ?? 16 * 2 ** 20);
  }

  async render({ turns, totalMs, language, tones = [] }: RecordingRequest): Promise<Buffer> {
    if (!Number.isFinite(totalMs) || totalMs < 0) throw new RangeError(`totalMs must be a non-negative number, got ${totalMs}`);
    const rate = this.sampleRate;
    const toSample = (ms: number) => Math.round((ms * rate) / 1000);
    const mix = new Int16Array(toSample(totalMs));
    const spoken = turns.filter((t) => t.text.trim() !== '' && toSample(t.startMs) < Math.min(mix.length, toSample(t.endMs)));
    if (spoken.length > 0) {
      const synth = await this.load();
      const espeakLanguage = espeakLanguageFor(language, synth.languages);
      const fadeSamples = toSample(FADE_MS);
      /** Every sample from here on is still silence. */
      let silentFrom = 0;
      for (const turn of spoken) {
        const start = Math.max(0, toSample(turn.startMs));
        const speech = await this.fitted(synth, turn.text, { language: espeakLanguage, ...this.voices[turn.speaker] }, toSample(turn.endMs) - start);
        const slot = Math.min(mix.length, toSample(turn.endMs)) - start;
        const n = Math.min(speech.length, slot);
        const fadeFrom = n < speech.length ? n - Math.min(n, fadeSamples) : n;
        // A turn laid into silence (every turn timeTurns produces) is copied as it is up to its fade.
        const copied = start >= silentFrom ? Math.max(0, fadeFrom) : 0;
        mix.set(speech.subarray(0, copied), start);
        for (let i = copied; i < n; i++) {
          const gain = i < fadeFrom ? 1 : (n - i) / (n - fadeFrom);
          // Overlapping turns (never produced by timeTurns) are summed, saturating rather than wrapping.
          mix[start + i] = Math.max(-32768, Math.min(32767, mix[start + i]! + Math.round(speech[i]! * gain)));
        }
        silentFrom = Math.max(silentFrom, start + n);
      }
    }
    for (const tone of tones) {
      const from = Math.max(0, toSample(tone.startMs));
      const to = Math.min(mix.length, toSample(tone.endMs));
      for (let i = from; i < to; i++) mix[i] = Math.max(-32768, Math.min(32767, mix[i]! + Math.round(TONE_LEVEL * Math.sin((2 * Math.PI * tone.hz * (i - from)) / rate))));
    }
    return encodeWav(mix, rate);
  }

  /** The turn at its voice's speed, or faster (up to MAX_SPEED_UP) when that speaks past the turn's own slot. */
  private async fitted(synth: Synthesizer, text: string, voice: SpeechVoice, slot: number): Promise<Int16Array> {
    const speech = await this.speak(synth, text, voice);
    const audible = audibleLength(speech);
    if (audible <= slot) return speech;
    // espeak-ng's pauses do not shrink quite in proportion to the rate, hence the margin.
    const speedUp = Math.min(MAX_SPEED_UP, (audible / slot) * 1.05);
    return this.speak(synth, text, { ...voice, wordsPerMinute: Math.ceil(voice.wordsPerMinute * speedUp) });
  }

  private async speak(synth: Synthesizer, text: string, voice: SpeechVoice): Promise<Int16Array> {
    const key = JSON.stringify([voice.language, voice.variant, voice.pitch, voice.wordsPerMinute, text]);
    const cached = this.cache.get(key);
    if (cached) return cached;
    // An utterance blocks for ten milliseconds or more; let requests through between turns.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const speech = synth.synthesize(text, voice);
    this.cache.set(key, speech);
    return speech;
  }
}

function audibleLength(samples: Int16Array): number {
  let end = samples.length;
  while (end > 0 && Math.abs(samples[end - 1]!) < SILENCE) end--;
  return end;
}
