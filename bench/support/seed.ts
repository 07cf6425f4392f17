// A fresh SQLite data folder with one account, one number and one key whose limits do not get in the way.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addNumber, createAccount, createKey } from '../../server/src/accounts/accounts-repo.js';
import { isE164 } from '../../server/src/placement/caller-id.js';
import { migrate, type Store } from '../../server/src/store/store.js';
import { openStore } from '../../server/src/store/open-store.js';

export interface Seeded {
  dataDir: string;
  store: Store;
  keyId: string;
  apiKey: string;
}

export async function seedBenchStore(): Promise<Seeded> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const store = openStore({ sqlitePath: join(dataDir, 'svc.db') });
  await migrate(store);
  const now = Date.now();
  const accountId = await createAccount(store.db, { name: 'bench', planMinutes: 1_000_000_000, defaultCallerId: '+14155550100' }, now);
  await addNumber(store.db, accountId, '+14155550100', now);
  const { row, key } = await createKey(store.db, { accountId, name: 'bench', rateLimit: 1_000_000_000 }, now);
  return { dataDir, store, keyId: row.id, apiKey: key };
}

const AREAS = ['212', '213', '305', '312', '415', '512', '617', '702', '206', '404'];
const SHOPS = ['bakery', 'bookshop', 'hardware store', 'pharmacy', 'florist', 'bike shop', 'deli', 'pet shop'];

/** Placement bodies that differ from each other: valid US numbers across area codes, and the shop asked about. */
export function placementBodies(n: number): string[] {
  const bodies: string[] = [];
  for (let i = 0; bodies.length < n; i++) {
    const to = `+1${AREAS[i % AREAS.length]}${String(2000000 + ((i * 7919) % 7999999)).padStart(7, '0')}`;
    if (!isE164(to)) continue;
    const shop = SHOPS[i % SHOPS.length];
    bodies.push(
      JSON.stringify({
        to,
        objective: `Ask whether the ${shop} is open on Sunday and until what time (call ${i}).`,
        fields: [
          { name: 'open_sunday', type: 'boolean' },
          { name: 'closing_time', description: 'Closing time on Sunday' },
        ],
      }),
    );
  }
  return bodies;
}
