// The live streams open across every process (migration 028), counted against a key's cap. A stream takes a lease
// as it opens (refused when the key already holds its cap of unexpired ones), its process renews the leases of
// the streams it serves, and a stream gives its lease back as it ends. A process that dies stops renewing, so its
// streams stop counting once their leases expire.
import { randomUUID } from 'node:crypto';
import { runQuery } from './prepared-query.js';
import type { Store } from './store.js';

/** How long a lease counts without being renewed; the process renews its leases well within it. */
export const STREAM_LEASE_MS = 30_000;

/**
 * A new lease of `apiKeyId`'s, or null when the key already holds `cap` unexpired ones. A unit of write work under
 * the key's lock: on SQLite it joins the turn's write batch, on Postgres it holds the key's advisory lock, so two
 * processes opening the key's last place at once cannot both take it.
 */
export function takeStreamLease(store: Store, apiKeyId: string, cap: number, now: number): Promise<string | null> {
  return store.write(({ atomically }) =>
    atomically(`streams:${apiKeyId}`, async (ex) => {
      const db = ex.compiler;
      await runQuery(ex, db.deleteFrom('stream_leases').where('api_key_id', '=', apiKeyId).where('expires_at', '<=', now));
      const [{ n }] = await runQuery(
        ex,
        db
          .selectFrom('stream_leases')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('api_key_id', '=', apiKeyId),
      );
      if (Number(n) >= cap) return null;
      const id = randomUUID();
      await runQuery(ex, db.insertInto('stream_leases').values({ id, api_key_id: apiKeyId, expires_at: now + STREAM_LEASE_MS }));
      return id;
    }),
  );
}

/** Extends the leases of streams still open in this process. */
export async function renewStreamLeases(store: Store, ids: readonly string[], now: number): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    await store.write(({ ex }) =>
      runQuery(
        ex,
        ex.compiler
          .updateTable('stream_leases')
          .set({ expires_at: now + STREAM_LEASE_MS })
          .where('id', 'in', chunk),
      ),
    );
  }
}

export async function releaseStreamLease(store: Store, id: string): Promise<void> {
  await store.write(({ ex }) => runQuery(ex, ex.compiler.deleteFrom('stream_leases').where('id', '=', id)));
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
