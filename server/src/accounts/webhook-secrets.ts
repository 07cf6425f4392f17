// Webhook signing secrets of an API key: the current one, and after a rotation the previous one, which keeps
// signing (as a second v1) until the overlap ends so receivers can switch secrets without missing a delivery.
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { findWebhookSecret, setWebhookSecrets, signingKeysOf, type SigningKey } from '../store/accounts/api-keys.js';
import { newWebhookSecret } from './secrets.js';

/**
 * Makes a new secret current and keeps the old one until now + overlapSec. A rotation during an overlap drops
 * the older previous secret: at most two secrets sign at any time. Returns the new secret (shown once), or null
 * when there is no such key.
 */
export async function rotateWebhookSecret(db: Kysely<Database>, keyId: string, now: number, overlapSec: number): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    const key = await findWebhookSecret(trx, keyId);
    if (!key) return null;
    const secret = newWebhookSecret();
    await setWebhookSecrets(trx, keyId, secret, key.webhook_secret, now + overlapSec * 1000);
    return secret;
  });
}

export type { SigningKey };

/** The signing secrets of these keys (the dispatcher reads them once per claim). */
export async function loadSigningKeys(db: Kysely<Database>, keyIds: string[]): Promise<SigningKey[]> {
  if (keyIds.length === 0) return [];
  return signingKeysOf(db, keyIds);
}

/** The secrets that sign a delivery at `now`, newest first. */
export function signingSecrets(key: Omit<SigningKey, 'id'>, now: number): string[] {
  const live = key.previous_webhook_secret !== null && key.previous_secret_expires_at !== null && key.previous_secret_expires_at > now;
  return live ? [key.webhook_secret, key.previous_webhook_secret!] : [key.webhook_secret];
}
