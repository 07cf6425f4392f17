// Types of placement-compute.mjs.

/** A number by libphonenumber's full metadata: valid, its type and its country (null for what it has not). */
export type NumberFacts = readonly [valid: boolean, type: string | null, country: string | null];
/** ELD's result: its language ('' for none), whether it calls itself reliable, the top and runner-up scores. */
export type RawDetection = readonly [language: string, reliable: boolean, top: number, runnerUp: number];

/** The part of an ELD detector this module uses. */
export interface EldDetector {
  newInstance(): EldDetector;
  setLanguageSubset(languages: string[]): unknown;
  detect(text: string): { language: string; isReliable(): boolean; getScores(): Record<string, number> };
}

export function numberFacts(text: string): NumberFacts;
export function newDetector(eld: EldDetector, languages: readonly string[]): EldDetector;
export function detection(detector: EldDetector, text: string): RawDetection;
