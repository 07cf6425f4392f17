// A fresh SQLite data folder with one account, one number and one key whose limits do not get in the way.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addNumber, createAccount, createKey } from '../../server/src/accounts/accounts-repo.js';
import { migrate, openStore, type Store } from '../../server/src/store/store.js';

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
