// svc's own voice behind the text-to-speech port: espeak-ng compiled to WebAssembly (the synthesiser the sandbox's
// recordings and the apology use), local and offline, so a cascaded call needs no speech vendor at all.
//
// espeak-ng renders an utterance whole and synchronously, on the event loop: each sentence is rendered on its own
// (a sentence costs a few tens of ms, where a whole turn would hold the loop for its sum), resampled from 22.05 kHz
// to the line's 8 kHz mu-law, and yielded in 100 ms chunks with a macrotask between chunks, so the line's 20 ms
// frame timers run between them rather than after the whole sentence is handed over.
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { ESPEAK_SAMPLE_RATE, type SpeechVoice, sharedSynthesizer, type Synthesizer } from '../../recording/espeak-synthesizer.js';
import { espeakLanguageFor } from '../../recording/speech-recorder.js';
import { encodeMuLaw, LINE_BYTES_PER_MS, LINE_RATE, resample } from '../audio.js';
import { ProviderError } from '../provider-error.js';
import type { SpeechOptions, SpeechSynthesizer } from '../voice.js';

const PROVIDER = 'espeak';

export interface EspeakVoiceOptions {
  /** The synthesiser; the process's shared espeak-ng by default. */
  synthesizer?: () => Promise<Synthesizer>;
  /** The espeak-ng variant (`f2`, `m3`, …) when the call names none; `f2` by default, as the apology's. */
  variant?: string;
  pitch?: number;
  wordsPerMinute?: number;
  /** Audio a yielded chunk; 100 ms by default. */
  chunkMs?: number;
}

export class EspeakVoice implements SpeechSynthesizer {
  readonly name = 'espeak';
  readonly #load: () => Promise<Synthesizer>;
  readonly #style: Omit<SpeechVoice, 'language'>;
  readonly #chunkBytes: number;

  constructor(options: EspeakVoiceOptions = {}) {
    this.#load = options.synthesizer ?? sharedSynthesizer;
    this.#style = { variant: options.variant ?? 'f2', pitch: options.pitch ?? 55, wordsPerMinute: options.wordsPerMinute ?? 165 };
    this.#chunkBytes = (options.chunkMs ?? 100) * LINE_BYTES_PER_MS;
  }

  speak(text: AsyncIterable<string>, options: SpeechOptions): AsyncIterable<Buffer> {
    return this.#speak(text, options);
  }

  async *#speak(text: AsyncIterable<string>, options: SpeechOptions): AsyncGenerator<Buffer> {
    const { signal, logger, callId } = options;
    if (signal.aborted) return;
    let synth: Synthesizer;
    try {
      synth = await this.#load();
    } catch (err) {
      throw new ProviderError(PROVIDER, 'unavailable', `espeak-ng did not load (${err instanceof Error ? err.message : String(err)})`);
    }
    // An espeak-ng variant name; a vendor's voice name (the call's `alloy`) means nothing to espeak-ng, which then
    // speaks the language's own voice.
    const voice: SpeechVoice = { ...this.#style, language: espeakLanguageFor(options.language, synth.languages), variant: options.voice ?? this.#style.variant };
    for await (const piece of text) {
      if (signal.aborted) return;
      const sentence = piece.trim();
      if (!sentence) continue;
      const started = performance.now();
      let samples: Int16Array;
      try {
        samples = synth.synthesize(sentence, voice);
      } catch (err) {
        throw new ProviderError(PROVIDER, 'refused', `espeak-ng could not speak a sentence (${err instanceof Error ? err.message : String(err)})`);
      }
      const audio = encodeMuLaw(resample(samples, ESPEAK_SAMPLE_RATE, LINE_RATE));
      logger.debug({ callId, chars: sentence.length, synthMs: Math.round(performance.now() - started), audioMs: audio.length / LINE_BYTES_PER_MS }, 'espeak sentence rendered');
      for (let at = 0; at < audio.length; at += this.#chunkBytes) {
        if (at > 0) await nextMacrotask();
        if (signal.aborted) return;
        yield audio.subarray(at, at + this.#chunkBytes);
      }
    }
  }
}
