// API keys and webhook secrets. A key is `svc_ak_` + 32 random bytes (base64url); only its SHA-256 is stored.
// A fast hash is right here: the key has 256 bits of entropy, so there is nothing to brute-force, and every
// request must look it up.
import { hash, randomBytes } from 'node:crypto';

const API_KEY_PREFIX = 'svc_ak_';
const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** What an Authorization header must look like before the store is asked about it. */
export const BEARER_PATTERN = /^Bearer (svc_ak_[A-Za-z0-9_-]{16,200})$/;

export function newApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64url');
}

export function hashApiKey(key: string): string {
  // The one-shot hash: cheaper than createHash for a string this short.
  return hash('sha256', key, 'hex');
}

/** Enough of the key to tell keys apart in a listing, never enough to use it. */
export function keyHint(key: string): string {
  return `${key.slice(0, API_KEY_PREFIX.length + 4)}…`;
}
