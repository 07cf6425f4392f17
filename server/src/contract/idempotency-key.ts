// The Idempotency-Key header, bare or quoted, and the fingerprint of the request it guards.
import { hash } from 'node:crypto';

export function normalizeIdempotencyKey(header: string | undefined): string | null {
  if (header === undefined) return null;
  return header.length >= 2 && header.startsWith('"') && header.endsWith('"') ? header.slice(1, -1) : header;
}

/** Key order and whitespace do not make two bodies different; values do. */
export function requestFingerprint(body: unknown): string {
  return hash('sha256', canonicalJson(body), 'hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
