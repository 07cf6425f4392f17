// The call's language. Explicit: a BCP-47 code, canonicalised (en-us → en-US), whose base language the agent
// speaks. `auto`: mirror whoever answers; reported as the destination country's main language. Omitted:
// detected from objective and context — Hebrew by its script, Latin-script languages by ELD (eld, its
// extra-small n-gram database, limited to the languages the agent speaks) — and when the detection is
// confident the region comes from the destination if that pairing is natural (English to +44 is en-GB, French
// to +1 Canada is fr-CA), else from the language's home (fr-FR). Not confident: auto.
// A placement has ELD's part done ahead on the placement worker thread (placement-ahead.ts); when the worker cannot
// answer, the same detection runs here.
import { detection, newDetector, type EldDetector, type RawDetection } from './placement-compute.mjs';

let loaded: EldDetector | undefined;
let loading: Promise<void> | undefined;
/**
 * Loads ELD once; callers of resolveLanguage await this first. Its database is an ES module of about 1 MB (slow to
 * load, and large on the heap once loaded), and ELD is published for `import` only. The HTTP
 * API starts the load as it starts (http/app.ts), so it has long resolved by the time a request arrives; a
 * process that runs only workers places no call and never loads it.
 */
export function languageDetectorReady(): Promise<void> {
  if (!loading) {
    loading = import('eld/extrasmall').then((m) => {
      loaded = m.eld;
    });
    loading.catch(() => {}); // reported to whoever awaits it
  }
  return loading;
}

export const DEFAULT_LANGUAGES = ['en', 'he', 'fr', 'es', 'de', 'it', 'pt', 'nl'] as const;

export type LanguageResolution = { ok: true; language: string; languageSource: 'explicit' | 'inferred' | 'auto' } | { ok: false; token: 'invalid_language'; message: string };

const MAIN_LANGUAGE: Record<string, string> = { US: 'en-US', CA: 'en-CA', GB: 'en-GB', AU: 'en-AU', NZ: 'en-NZ', IL: 'he-IL' };
const HOME_REGION: Record<string, string> = { en: 'US', he: 'IL', fr: 'FR', es: 'ES', de: 'DE', it: 'IT', pt: 'PT', nl: 'NL' };
const NATURAL = new Set(['en-US', 'en-CA', 'en-GB', 'en-AU', 'en-NZ', 'fr-CA', 'es-US', 'he-IL']);
/** Fewer letters than this, or a runner-up scoring this close to the winner, is not confident. */
const MIN_LETTERS = 15;
const MAX_RUNNER_UP = 0.9;

function autoFor(region: string): LanguageResolution {
  return { ok: true, language: MAIN_LANGUAGE[region] ?? 'en-US', languageSource: 'auto' };
}

const LETTER = /^\p{L}$/u;
const HEBREW = /^\p{Script=Hebrew}$/u;

/**
 * The letters of `text` and how many of them are Hebrew, in one pass: ASCII (nearly every character of most
 * objectives) by its code, any other character by its Unicode properties.
 */
function countLetters(text: string): { letters: number; hebrew: number } {
  let letters = 0;
  let hebrew = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      const lower = c | 0x20;
      if (lower >= 0x61 && lower <= 0x7a) letters++;
      continue;
    }
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    if (cp > 0xffff) i++;
    if (LETTER.test(ch)) {
      letters++;
      if (HEBREW.test(ch)) hebrew++;
    }
  }
  return { letters, hebrew };
}

/** One detector per list of supported languages (in practice the catalogue's one): a subset is set once, not per call. */
const detectors = new WeakMap<readonly string[], EldDetector>();
function detectorFor(supported: readonly string[]): EldDetector {
  let detector = detectors.get(supported);
  if (!detector) {
    if (!loaded) throw new Error('the language detector is still loading; await languageDetectorReady()');
    detectors.set(supported, (detector = newDetector(loaded, eldLanguages(supported))));
  }
  return detector;
}

/** ELD's result for `text`, computed on this thread. */
function detectInThread(text: string, supported: readonly string[]): RawDetection {
  return detection(detectorFor(supported), text);
}

/** Hebrew by its script; anything else with too few letters cannot be told. Undefined: ask ELD. */
function detectByLetters(text: string, supported: readonly string[]): string | null | undefined {
  const { letters, hebrew } = countLetters(text);
  if (letters < MIN_LETTERS) return null;
  if (hebrew / letters > 0.5) return supported.includes('he') ? 'he' : null;
  return undefined;
}

function detect(text: string, supported: readonly string[], ahead?: AheadDetection): string | null {
  // A detection found ahead exists only for a text that detectByLetters left to ELD (textForEld): not counted again.
  let raw: RawDetection;
  if (ahead?.text === text) {
    raw = ahead.raw;
  } else {
    const byLetters = detectByLetters(text, supported);
    if (byLetters !== undefined) return byLetters;
    raw = detectInThread(text, supported);
  }
  const [language, reliable, top, runnerUp] = raw;
  if (!language || !supported.includes(language) || !reliable) return null;
  return runnerUp < MAX_RUNNER_UP * top ? language : null;
}

const detectionText = (objective: string, context: string | null | undefined) => `${objective} ${context ?? ''}`;

/** ELD's result for a placement's text, found ahead of the placement on the placement worker. */
export interface AheadDetection {
  text: string;
  raw: RawDetection;
}

/** The languages ELD chooses among: Hebrew is told by its script. */
const eldLanguages = (supported: readonly string[]) => supported.filter((l) => l !== 'he');

const subsets = new WeakMap<readonly string[], string>();
/** The languages ELD chooses among, as the worker takes them. */
export function eldSubset(supported: readonly string[]): string {
  let subset = subsets.get(supported);
  if (subset === undefined) subsets.set(supported, (subset = eldLanguages(supported).join(',')));
  return subset;
}

/**
 * The text of a placement body that will need ELD (no language given, an objective, enough letters, not
 * Hebrew); undefined when it needs none.
 */
export function textForEld(body: Record<string, unknown>, supported: readonly string[]): string | undefined {
  const { language, objective, context } = body;
  if ((language !== undefined && language !== null) || typeof objective !== 'string') return undefined;
  if (context !== undefined && context !== null && typeof context !== 'string') return undefined;
  const text = detectionText(objective, context);
  return detectByLetters(text, supported) === undefined ? text : undefined;
}

/** ELD reads no further than this; the worker is sent no more. */
export const ELD_TEXT_LIMIT = 1000;

export function resolveLanguage(
  input: { language?: string | null; objective: string; context?: string | null; region: string },
  supported: readonly string[],
  /** ELD's result found ahead (placement-ahead.ts); used only when it was found for this very text. */
  ahead?: AheadDetection,
): LanguageResolution {
  const { language, region } = input;
  if (language !== undefined && language !== null) {
    if (language.trim().toLowerCase() === 'auto') return autoFor(region);
    let canonical: string;
    try {
      [canonical] = Intl.getCanonicalLocales(language.trim());
    } catch {
      return { ok: false, token: 'invalid_language', message: `${JSON.stringify(language)} is not a BCP-47 language code; use a code such as en-US, or auto.` };
    }
    if (!supported.includes(canonical.split('-')[0])) {
      return { ok: false, token: 'invalid_language', message: `The agent does not speak ${canonical}; supported languages: ${supported.join(', ')}, or auto.` };
    }
    return { ok: true, language: canonical, languageSource: 'explicit' };
  }
  const base = detect(detectionText(input.objective, input.context), supported, ahead);
  if (!base) return autoFor(region);
  const local = `${base}-${region}`;
  return { ok: true, language: NATURAL.has(local) ? local : `${base}-${HOME_REGION[base] ?? region}`, languageSource: 'inferred' };
}
