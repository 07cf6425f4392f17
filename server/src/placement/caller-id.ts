// E.164 as this service accepts it: `+`, then 7 to 15 digits, and a valid number for its country by
// libphonenumber's full metadata.
import type { CountryCode, NumberType } from 'libphonenumber-js/max';
import { numberFacts, type NumberFacts } from './placement-compute.mjs';

export interface ParsedNumber {
  valid: boolean;
  /** The number's type (FIXED_LINE, MOBILE, PREMIUM_RATE, ...) when it is valid. */
  type?: NumberType;
  /** Its region; absent for numbers of no country (+870, +881, ...) and numbers that do not parse. */
  country?: CountryCode;
}

export function fromFacts([valid, type, country]: NumberFacts): ParsedNumber {
  return { valid, type: (type ?? undefined) as NumberType | undefined, country: (country ?? undefined) as CountryCode | undefined };
}

let last: { text: string; parsed: ParsedNumber } | undefined;
const primed = new Map<string, ParsedNumber>();

/**
 * The number parsed with full metadata. Parsing and validating cost tens of microseconds and a placement's `to`
 * is looked at twice in a row (the schema's e164 format, then the guardrails), so the last result is kept; and a
 * placement's numbers parsed ahead on the placement worker are used while `withParsedNumbers` runs.
 */
export function parseE164(text: string): ParsedNumber {
  const ahead = primed.get(text);
  if (ahead) return ahead;
  if (last?.text === text) return last.parsed;
  const parsed = fromFacts(numberFacts(text));
  last = { text, parsed };
  return parsed;
}

/** Runs `fn` (synchronous) with these numbers taken as parsed. */
export function withParsedNumbers<T>(numbers: ReadonlyMap<string, ParsedNumber> | undefined, fn: () => T): T {
  if (!numbers?.size) return fn();
  for (const [text, parsed] of numbers) primed.set(text, parsed);
  try {
    return fn();
  } finally {
    primed.clear();
  }
}

export function isE164(value: string): boolean {
  return parseE164(value).valid;
}
