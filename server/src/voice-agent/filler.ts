// What the callee hears while the agent waits on a client's tool (client-tools.ts): a short "One moment." in the
// call's language, once the tool has taken FILLER_AFTER_MS with nothing playing, so the line is not dead while a
// tool works. The realtime agent plays it as svc's own clip (espeak-ng, as the apology: apology.ts), leaving the
// model's responses alone: asking the model to say it would start a response while the tool's answer is due,
// which the Realtime API refuses until that response is done. The cascaded agent says it in its own voice.
import { spokenBySvc, type Apology } from './apology.js';

/** How long a client's tool may take before the callee hears the filler. */
export const FILLER_AFTER_MS = 700;

const FILLERS: Record<string, string> = {
  en: 'One moment.',
  fr: 'Un instant.',
  es: 'Un momento.',
  de: 'Einen Moment.',
  it: 'Un momento.',
  pt: 'Um momento.',
  nl: 'Een moment.',
  he: 'רק רגע.',
};

/** The filler's words in a language (BCP-47), English when it has none of its own. */
export function fillerText(language: string): string {
  return FILLERS[language.split('-')[0]!.toLowerCase()] ?? FILLERS.en!;
}

/** The filler as svc's own clip, 8 kHz mu-law, rendered once per language. */
export function fillerFor(language: string): Promise<Apology> {
  return spokenBySvc(fillerText(language), language);
}
