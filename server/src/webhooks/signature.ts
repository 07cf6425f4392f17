// The X-SVC-Signature header: `t=<unix seconds>,v1=<hex>[,v1=<hex>]`, the same scheme as Stripe's, so any
// receiver (or the stripe package itself) can verify it. One v1 per secret, newest first, so a receiver that
// already has the new secret during a rotation matches on the first entry.
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-SVC-Signature';

/** Lowercase hex HMAC-SHA256 keyed with the secret string over `<t>.<rawBody>`. */
export function sign(rawBody: string, secret: string, timestampSec: number): string {
  return createHmac('sha256', secret).update(`${timestampSec}.${rawBody}`).digest('hex');
}

export function signatureHeader(rawBody: string, secrets: readonly string[], timestampSec: number): string {
  if (secrets.length === 0) throw new Error('signatureHeader needs at least one secret');
  const t = Math.floor(timestampSec);
  return [`t=${t}`, ...secrets.map((s) => `v1=${sign(rawBody, s, t)}`)].join(',');
}
