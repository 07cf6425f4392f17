// The SSRF guard, applied at send time: the host is resolved once, every answer must be a public address, and
// the connection then goes to that checked address (no second lookup), so a name that answers a public address
// to the check and a private one to the connect (DNS rebinding) cannot reach the inside.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPublicAddress } from '../numbers/ip-ranges.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** All addresses of a host name, like dns.lookup with all: true. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** The destination may never be contacted; the event ends 'refused'. */
export class RefusedDestination extends Error {}

export interface CheckedEndpoint {
  url: URL;
  /** The host name as in the URL (Host header, TLS servername), without IPv6 brackets. */
  hostname: string;
  /** The address to connect to, and nothing else. */
  address: ResolvedAddress;
}

/**
 * Resolves and checks the webhook URL. Throws RefusedDestination for a refused URL or address; a resolution
 * failure is rethrown as is (it may be transient and is retried).
 */
export async function checkEndpoint(rawUrl: string, opts: { allowPrivate: boolean; resolver: Resolver }): Promise<CheckedEndpoint> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new RefusedDestination('destination refused: the webhook URL is not an absolute URL');
  }
  if (url.protocol !== 'https:' && !(opts.allowPrivate && url.protocol === 'http:')) {
    throw new RefusedDestination(`destination refused: ${url.protocol} is not allowed, only https:`);
  }
  if (url.username || url.password) throw new RefusedDestination('destination refused: the webhook URL carries credentials');
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(hostname);
  const addresses: ResolvedAddress[] = family ? [{ address: hostname, family: family === 6 ? 6 : 4 }] : await opts.resolver(hostname);
  if (addresses.length === 0) throw new Error(`${hostname} has no address`);
  if (!opts.allowPrivate) {
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) {
      const what = family ? bad.address : `${hostname} resolves to ${bad.address}, which`;
      throw new RefusedDestination(`destination refused: ${what} is not a public address`);
    }
  }
  return { url, hostname, address: addresses[0] };
}
