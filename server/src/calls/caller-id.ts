// E.164 as this service accepts it: `+`, then 7 to 15 digits, and a valid number for its country by
// libphonenumber's full metadata.
import { parsePhoneNumberFromString, type NumberType, type PhoneNumber } from 'libphonenumber-js/max';

const E164_SHAPE = /^\+[1-9]\d{6,14}$/;

export interface ParsedNumber {
  /** Absent when the text is not E.164-shaped or does not parse. */
  number?: PhoneNumber;
  valid: boolean;
  /** The number's type (FIXED_LINE, MOBILE, PREMIUM_RATE, ...) when it is valid. */
  type?: NumberType;
}

let last: { text: string; parsed: ParsedNumber } | undefined;

/**
 * The number parsed with full metadata. Parsing and validating cost tens of microseconds and a placement's `to`
 * is looked at twice in a row (the schema's e164 format, then the guardrails), so the last result is kept.
 */
export function parseE164(text: string): ParsedNumber {
  if (last?.text === text) return last.parsed;
  const number = E164_SHAPE.test(text) ? parsePhoneNumberFromString(text) : undefined;
  // With full metadata a number is valid exactly when it has a type, and finding the type is most of the cost of
  // either: so the type is found once, and isValid() asked only of a number without one.
  const type = number?.getType();
  const parsed = { number, type, valid: type !== undefined || number?.isValid() === true };
  last = { text, parsed };
  return parsed;
}

export function isE164(value: string): boolean {
  return parseE164(value).valid;
}
