// What is wrong with a phone number that is not valid E.164, in one sentence a person can act on: the API's
// invalid_number and invalid_caller_id messages and the CLI's say it the same way. Only a refused number is
// explained, so the cost of the explanation is never paid by a valid one.
import { Metadata } from 'libphonenumber-js/core';
import { parsePhoneNumberFromString, validatePhoneNumberLength } from 'libphonenumber-js/max';
import metadataJson from 'libphonenumber-js/metadata.max.json';
import { isE164 } from './caller-id.js';

const EXAMPLE = '+14155550123';

/** The slice of libphonenumber's metadata read here (present in the library, not in its types). */
interface PlanMetadata {
  getCountryCodesForCallingCode(callingCode: string): string[] | undefined;
  selectNumberingPlan(callingCode: string): void;
  numberingPlan?: { possibleLengths(): number[] };
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const SHORT_NAMES: Record<string, string> = { US: 'US', GB: 'UK' };

/**
 * Null when `value` is a valid E.164 number; otherwise why not, naming it as `label` (such as "`to`" or
 * "--caller-id"), e.g. "`to` is not a valid US number: +11234567890 has area code 123, and area codes start with 2 to 9."
 */
export function numberProblem(value: unknown, label: string): string | null {
  if (typeof value !== 'string') return `${label} must be a phone number written as a string in E.164 format, such as "${EXAMPLE}".`;
  if (isE164(value)) return null;
  const shown = JSON.stringify(value);
  const compact = value.replace(/[\s().-]/g, '');
  if (compact !== value && /^\+\d+$/.test(compact)) {
    return `${label} must be + and digits only, without spaces or punctuation: write ${shown} as ${compact}.`;
  }
  if (/^00[1-9]\d+$/.test(compact)) return `${label} must start with + in place of the international prefix 00: write ${shown} as +${compact.slice(2)}.`;
  if (/^\d+$/.test(compact)) return `${label} must start with + and the country code (E.164), such as ${EXAMPLE}; ${shown} has no +.`;
  if (!/^\+\d+$/.test(value)) return `${label} must be + and the digits of the number, such as ${EXAMPLE}; got ${shown}.`;
  if (value.startsWith('+0')) return `${label} cannot start with +0: country codes start with 1 to 9.`;
  const callingCode = callingCodeOf(value);
  if (callingCode === undefined) return `${label} does not start with a country code: no country's code begins ${value.slice(0, 4)}.`;
  const national = value.slice(1 + callingCode.length);
  const kind = numberKind(callingCode);
  const length = validatePhoneNumberLength(value);
  if (length === 'TOO_SHORT' || length === 'TOO_LONG' || length === 'INVALID_LENGTH') {
    return `${label} is not a valid ${kind}: ${value} has ${national.length} digits after +${callingCode}, and numbers there have ${lengthsOf(callingCode)}.`;
  }
  if (callingCode === '1') return `${label} is not a valid US number: ${northAmericanProblem(value, national)}`;
  return `${label} is not a valid ${kind}: ${value} is in no range of numbers in use there.`;
}

/** The North American plan (+1: the US, Canada and the Caribbean): area code and exchange each start with 2 to 9. */
function northAmericanProblem(value: string, national: string): string {
  const [area, exchange] = [national.slice(0, 3), national.slice(3, 6)];
  if (/^[01]/.test(area)) return `${value} has area code ${area}, and area codes start with 2 to 9.`;
  if (/^[01]/.test(exchange)) return `${value} has exchange ${exchange} (the three digits after the area code), and exchanges start with 2 to 9.`;
  return `no number in use in the US, Canada or the Caribbean (which share +1) begins +1 ${area} ${exchange}.`;
}

function metadata(): PlanMetadata {
  return new Metadata(metadataJson) as unknown as PlanMetadata;
}

/** The country code the number starts with (1 to 3 digits), if any country or network has it. */
function callingCodeOf(value: string): string | undefined {
  const parsed = parsePhoneNumberFromString(value);
  if (parsed) return parsed.countryCallingCode;
  const m = metadata();
  return [1, 2, 3].map((n) => value.slice(1, 1 + n)).find((code) => m.getCountryCodesForCallingCode(code) !== undefined);
}

/** "US number", "number in Israel"; "+882 number" for a code of no country. */
function numberKind(callingCode: string): string {
  const main = metadata().getCountryCodesForCallingCode(callingCode)?.[0];
  if (main === undefined) return `+${callingCode} number`;
  return SHORT_NAMES[main] ? `${SHORT_NAMES[main]} number` : `number in ${regionNames.of(main) ?? main}`;
}

/** "10 digits", "7, 9 or 10 digits". */
function lengthsOf(callingCode: string): string {
  const m = metadata();
  m.selectNumberingPlan(callingCode);
  const lengths = m.numberingPlan?.possibleLengths() ?? [];
  if (lengths.length === 0) return 'another number of digits';
  const last = lengths.at(-1)!;
  return `${lengths.length > 1 ? `${lengths.slice(0, -1).join(', ')} or ${last}` : last} digits`;
}
