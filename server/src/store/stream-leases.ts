// The live streams open across every process (migration 028), counted against a key's cap. A stream takes a lease
// as it opens (refused when the key already holds its cap of unexpired ones), its process renews the leases of
// the streams it serves, and a stream gives its lease back as it ends. A process that dies stops renewing, so its
// streams stop counting once their leases expire.
import { randomUUID } from 'node:crypto';
import type { Store } from './store.js';

/** How long a lease counts without being renewed; the process renews its leases well within it. */
export const STREAM_LEASE_MS = 30_000;

/** A new lease of `apiKeyId`'s, or null when the key already holds `cap` unexpired ones. */
export async function takeStreamLease(store: Store, apiKeyId: string, cap: number, now: number): Promise<string | null> {
  return store.locked(`streams:${apiKeyId}`, async (trx) => {
    await trx.deleteFrom('stream_leases').where('api_key_id', '=', apiKeyId).where('expires_at', '<=', now).execute();
    const { n } = await trx
      .selectFrom('stream_leases')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('api_key_id', '=', apiKeyId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= cap) return null;
    const id = randomUUID();
    await trx.insertInto('stream_leases').values({ id, api_key_id: apiKeyId, expires_at: now + STREAM_LEASE_MS }).execute();
    return id;
  });
}

/** Extends the leases of streams still open in this process. */
export async function renewStreamLeases(store: Store, ids: readonly string[], now: number): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await store.db
      .updateTable('stream_leases')
      .set({ expires_at: now + STREAM_LEASE_MS })
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  }
}

export async function releaseStreamLease(store: Store, id: string): Promise<void> {
  await store.db.deleteFrom('stream_leases').where('id', '=', id).execute();
}

/** Of `apiKeyIds`, those whose key is still active: not revoked, and its account still there. */
export async function activeKeys(store: Store, apiKeyIds: readonly string[]): Promise<Set<string>> {
  const active = new Set<string>();
  for (let i = 0; i < apiKeyIds.length; i += 500) {
    const rows = await store.db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .select('api_keys.id')
      .where('api_keys.id', 'in', apiKeyIds.slice(i, i + 500))
      .where('api_keys.revoked_at', 'is', null)
      .execute();
    for (const r of rows) active.add(r.id);
  }
  return active;
}
