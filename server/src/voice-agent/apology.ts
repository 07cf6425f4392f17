// What the callee hears when the model cannot go on: a short apology in the call's language, spoken by svc itself
// with espeak-ng (the synthesiser the sandbox's recordings use), as 8 kHz mu-law ready for the line. It needs no
// model, so it plays whatever became of the model's session; each language's clip is rendered once per process.
import { ESPEAK_SAMPLE_RATE, sharedSynthesizer, type Synthesizer } from '../recording/espeak-synthesizer.js';
import { espeakLanguageFor } from '../recording/speech-recorder.js';
import { muLaw } from '../tones/dtmf-tones.js';

const APOLOGIES: Record<string, string> = {
  en: 'I am sorry, we have a technical problem and have to end this call. Goodbye.',
  fr: 'Je suis désolé, nous avons un problème technique et devons mettre fin à cet appel. Au revoir.',
  es: 'Lo siento, tenemos un problema técnico y debemos terminar esta llamada. Adiós.',
  de: 'Es tut mir leid, wir haben ein technisches Problem und müssen dieses Gespräch beenden. Auf Wiederhören.',
  it: 'Mi dispiace, abbiamo un problema tecnico e dobbiamo terminare questa chiamata. Arrivederci.',
  pt: 'Desculpe, estamos com um problema técnico e precisamos encerrar esta chamada. Até logo.',
  nl: 'Het spijt me, we hebben een technisch probleem en moeten dit gesprek beëindigen. Tot ziens.',
  he: 'מצטערים, יש לנו תקלה טכנית ועלינו לסיים את השיחה. להתראות.',
};

/** The apology's words in a language (BCP-47), English when it has none of its own. */
export function apologyText(language: string): string {
  return APOLOGIES[language.split('-')[0]!.toLowerCase()] ?? APOLOGIES.en!;
}

export interface Apology {
  text: string;
  /** 8 kHz mu-law. */
  audio: Buffer;
}

const rendered = new Map<string, Promise<Apology>>();

/** The apology for a call's language, rendered on first use and kept. */
export function apologyFor(language: string, load: () => Promise<Synthesizer> = sharedSynthesizer): Promise<Apology> {
  return spokenBySvc(apologyText(language), language, load);
}

/** Words svc says itself in a call's language (the apology, the filler), rendered on first use and kept. */
export function spokenBySvc(text: string, language: string, load: () => Promise<Synthesizer> = sharedSynthesizer): Promise<Apology> {
  const key = `${language.toLowerCase()}\n${text}`;
  let clip = rendered.get(key);
  if (!clip) {
    clip = load().then((synth) => {
      const samples = synth.synthesize(text, { language: espeakLanguageFor(language, synth.languages), variant: 'f2', pitch: 55, wordsPerMinute: 165 });
      return { text, audio: toMuLaw8k(samples, ESPEAK_SAMPLE_RATE) };
    });
    clip.catch(() => rendered.delete(key));
    rendered.set(key, clip);
  }
  return clip;
}

/** 16-bit samples at `rate` to 8 kHz mu-law, by linear interpolation (speech has little above 4 kHz). */
export function toMuLaw8k(samples: Int16Array, rate: number): Buffer {
  const n = Math.floor((samples.length * 8000) / rate);
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    const at = (i * rate) / 8000;
    const j = Math.floor(at);
    const a = samples[j] ?? 0;
    const b = samples[j + 1] ?? a;
    out[i] = muLaw(Math.round(a + (b - a) * (at - j)));
  }
  return out;
}
