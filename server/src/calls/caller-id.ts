// E.164 as this service accepts it: `+`, then 7 to 15 digits, and a valid number for its country by
// libphonenumber's full metadata.
import { parsePhoneNumberFromString, type CountryCode, type NumberType } from 'libphonenumber-js/max';
import type { NumberFacts } from './placement-worker.js';

const E164_SHAPE = /^\+[1-9]\d{6,14}$/;

export interface ParsedNumber {
  valid: boolean;
  /** The number's type (FIXED_LINE, MOBILE, PREMIUM_RATE, ...) when it is valid. */
  type?: NumberType;
  /** Its region; absent for numbers of no country (+870, +881, ...) and numbers that do not parse. */
  country?: CountryCode;
}

/** The same parse as the placement worker's (placement-worker-thread.mjs), which tests hold to this one. */
function parse(text: string): ParsedNumber {
  const number = E164_SHAPE.test(text) ? parsePhoneNumberFromString(text) : undefined;
  // With full metadata a number is valid exactly when it has a type, and finding the type is most of the cost of
  // either: so the type is found once, and isValid() asked only of a number without one.
  const type = number?.getType();
  return { type, valid: type !== undefined || number?.isValid() === true, country: number?.country };
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
  const parsed = parse(text);
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
