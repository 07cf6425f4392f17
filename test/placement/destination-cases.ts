// The destination table shared by the unit test of checkDestination and the HTTP guardrail suite. Every number
// was checked with libphonenumber-js/max (isValid, country, getType); `region` is what it says, and `rule` is the
// guardrail that blocks the number when no IRSF list is loaded.

export interface BlockedCase {
  what: string;
  to: string;
  /** libphonenumber's region; null for satellite and international networks. */
  region: string | null;
  rule: 'region' | 'revenue_share' | 'no_country';
}

export interface AcceptedCase {
  what: string;
  to: string;
  region: 'US' | 'CA' | 'GB' | 'AU' | 'NZ' | 'IL';
}

export const BLOCKED: readonly BlockedCase[] = [
  { what: 'a Jamaica number (+1 876)', to: '+18762101234', region: 'JM', rule: 'region' },
  { what: 'a Jamaica landline (+1 876)', to: '+18769261234', region: 'JM', rule: 'region' },
  { what: 'a Bahamas number (+1 242)', to: '+12423591234', region: 'BS', rule: 'region' },
  { what: 'a Barbados number (+1 246)', to: '+12462501234', region: 'BB', rule: 'region' },
  // A US territory, but libphonenumber's region is PR, not US, and PR is not an allowed country.
  { what: 'a Puerto Rico number (+1 787)', to: '+17872345678', region: 'PR', rule: 'region' },
  { what: 'a US Virgin Islands number (+1 340)', to: '+13406421234', region: 'VI', rule: 'region' },
  { what: 'a Guernsey landline (+44 1481)', to: '+441481256789', region: 'GG', rule: 'region' },
  // +44 7911 looks like any UK mobile, but libphonenumber puts 07911 12x xxx in Guernsey.
  { what: 'a Guernsey mobile (+44 7911 123456)', to: '+447911123456', region: 'GG', rule: 'region' },
  { what: 'a Jersey landline (+44 1534)', to: '+441534456789', region: 'JE', rule: 'region' },
  { what: 'a Jersey mobile (+44 7797)', to: '+447797712345', region: 'JE', rule: 'region' },
  { what: 'an Isle of Man landline (+44 1624)', to: '+441624756789', region: 'IM', rule: 'region' },
  { what: 'an Isle of Man mobile (+44 7624)', to: '+447624123456', region: 'IM', rule: 'region' },
  { what: 'a Christmas Island number (+61 8 9164)', to: '+61891641234', region: 'CX', rule: 'region' },
  { what: 'a Cocos (Keeling) Islands number (+61 8 9162)', to: '+61891621234', region: 'CC', rule: 'region' },
  { what: 'a France landline', to: '+33142685300', region: 'FR', rule: 'region' },
  { what: 'a France mobile', to: '+33612345678', region: 'FR', rule: 'region' },
  { what: 'a Nigeria mobile', to: '+2348021234567', region: 'NG', rule: 'region' },
  { what: 'a US premium-rate number (+1 900)', to: '+19002345678', region: 'US', rule: 'revenue_share' },
  { what: 'a UK premium-rate number (+44 909)', to: '+449098790000', region: 'GB', rule: 'revenue_share' },
  { what: 'a UK 0871 number, premium rate for libphonenumber', to: '+448712345678', region: 'GB', rule: 'revenue_share' },
  { what: 'an Australia premium-rate number (+61 1900)', to: '+611900123456', region: 'AU', rule: 'revenue_share' },
  { what: 'an Australia shared-cost number (+61 1300)', to: '+611300123456', region: 'AU', rule: 'revenue_share' },
  { what: 'a New Zealand premium-rate number (+64 900)', to: '+6490012345', region: 'NZ', rule: 'revenue_share' },
  { what: 'an Israel premium-rate number (+972 1900)', to: '+9721900123456', region: 'IL', rule: 'revenue_share' },
  { what: 'an Inmarsat number (+870)', to: '+870773111632', region: null, rule: 'no_country' },
  { what: 'a global mobile satellite number (+881)', to: '+881612345678', region: null, rule: 'no_country' },
  { what: 'an international networks number (+882)', to: '+882161234567', region: null, rule: 'no_country' },
  { what: 'an international networks number (+883)', to: '+883140001234', region: null, rule: 'no_country' },
];

export const ACCEPTED: readonly AcceptedCase[] = [
  { what: 'a US number', to: '+12125550100', region: 'US' },
  { what: 'a US toll-free number', to: '+18002345678', region: 'US' },
  { what: 'a Canada number (+1 416)', to: '+14165550123', region: 'CA' },
  { what: 'a Canada number (+1 506)', to: '+15062345678', region: 'CA' },
  { what: 'a UK landline', to: '+442071838750', region: 'GB' },
  { what: 'a UK mobile', to: '+447400123456', region: 'GB' },
  { what: 'an Australia landline', to: '+61212345678', region: 'AU' },
  { what: 'an Australia mobile', to: '+61412345678', region: 'AU' },
  { what: 'a New Zealand landline', to: '+6493001234', region: 'NZ' },
  { what: 'a New Zealand mobile', to: '+64211234567', region: 'NZ' },
  { what: 'an Israel landline', to: '+97225012345', region: 'IL' },
  { what: 'an Israel mobile', to: '+972502345678', region: 'IL' },
];

/** The message checkDestination gives for a blocked case when no IRSF list matches it. */
export function blockedMessage(c: BlockedCase): string {
  if (c.rule === 'region') return `Calls to ${c.region} (${c.to}) are not allowed; allowed countries: US, CA, GB, AU, NZ, IL.`;
  if (c.rule === 'revenue_share') return `Calls to ${c.to} are blocked: premium-rate and shared-cost numbers are never called.`;
  return `Calls to ${c.to} are blocked: satellite and international-network numbers are never called.`;
}
