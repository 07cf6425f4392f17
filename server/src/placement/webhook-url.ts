// What a webhookUrl must be at placement: an absolute https URL without credentials whose host is a public name
// or a public literal address. Names are resolved and checked again at send time by the dispatcher.
// With allowPrivate (SVC_WEBHOOK_ALLOW_PRIVATE, local development only) http and any host are accepted.
import { isIP } from 'node:net';
import { isPublicAddress } from '../numbers/ip-ranges.js';

/** What a developer pointing webhooks at their own machine needs to know. */
export const ALLOW_PRIVATE_HINT = 'For local development, start the service with SVC_WEBHOOK_ALLOW_PRIVATE=1 to allow http and loopback or private hosts.';

/**
 * Why `url` cannot be a webhookUrl, in a sentence or two naming it as `field` (a client tool's url is under the same
 * rules); null when it can.
 */
export function checkWebhookUrl(url: string, opts: { allowPrivate: boolean }, field = 'webhookUrl'): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `${field} is not an absolute URL.`;
  }
  if (u.protocol === 'http:' && !opts.allowPrivate) return `${field} must use https. ${ALLOW_PRIVATE_HINT}`;
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return `${field} must use https.`;
  if (u.username || u.password) return `${field} must not contain credentials.`;
  if (opts.allowPrivate) return null;
  const host = u.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (isIP(host)) return isPublicAddress(host) ? null : `${field} must point at a public address. ${ALLOW_PRIVATE_HINT}`;
  if (host === 'localhost' || host.endsWith('.localhost')) return `${field} must not point at localhost. ${ALLOW_PRIVATE_HINT}`;
  if (!host.includes('.')) return `${field} must use a fully qualified public host name. ${ALLOW_PRIVATE_HINT}`;
  return null;
}
