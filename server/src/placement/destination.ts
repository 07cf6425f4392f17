// The destination guardrails. The country is the number's region (libphonenumber), not its calling code: +1 876
// is Jamaica, +44 1534 is Jersey. Premium-rate and shared-cost numbers (revenue-share numbers), numbers with no
// country (satellite and international networks: +870, +881, +882, +883) and IRSF-listed prefixes are blocked in
// any country.
import type { IrsfList } from '../numbers/irsf.js';
import { parseE164 } from './caller-id.js';
import { numberProblem } from './number-problem.js';

export const ALLOWED_REGIONS = ['US', 'CA', 'GB', 'AU', 'NZ', 'IL'] as const;
const ALLOWED: ReadonlySet<string> = new Set(ALLOWED_REGIONS);
const REVENUE_SHARE_TYPES = new Set(['PREMIUM_RATE', 'SHARED_COST']);

export type DestinationCheck = { ok: true; e164: string; region: string } | { ok: false; token: 'invalid_number' | 'destination_blocked'; message: string };

const blocked = (message: string): DestinationCheck => ({ ok: false, token: 'destination_blocked', message });

export function checkDestination(to: string, irsf: IrsfList): DestinationCheck {
  const { valid, type, country } = parseE164(to);
  if (!valid) return { ok: false, token: 'invalid_number', message: numberProblem(to, '`to`')! };
  if (irsf.matches(to)) return blocked(`Calls to ${to} are blocked: the number is in a range listed for revenue-share fraud.`);
  if (type && REVENUE_SHARE_TYPES.has(type)) return blocked(`Calls to ${to} are blocked: premium-rate and shared-cost numbers are never called.`);
  const region = country;
  if (!region) return blocked(`Calls to ${to} are blocked: satellite and international-network numbers are never called.`);
  if (!ALLOWED.has(region)) {
    return blocked(`Calls to ${region} (${to}) are not allowed; allowed countries: ${ALLOWED_REGIONS.join(', ')}.`);
  }
  return { ok: true, e164: to, region };
}
