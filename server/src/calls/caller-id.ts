// E.164 as this service accepts it: `+`, then 7 to 15 digits, and a valid number for its country by
// libphonenumber's full metadata.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

export const E164_SHAPE = /^\+[1-9]\d{6,14}$/;

export function isE164(value: string): boolean {
  return E164_SHAPE.test(value) && parsePhoneNumberFromString(value)?.isValid() === true;
}
