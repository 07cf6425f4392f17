// The dev seed when several processes start together on a fresh database: each opens its own connections, and
// all of them seed at once; there must be one dev account with one key, and no process may fail.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { seedDevAccount } from '../../server/src/accounts/dev-seed.js';
import { loadConfig } from '../../server/src/config.js';
import { migrate, type Store } from '../../server/src/store/store.js';
import { openStore } from '../../server/src/store/open-store.js';
import { runTsx } from '../support/run-tsx.js';
import { PG_URL, postgresAvailable } from '../support/stores.js';

const FIXED_KEY = 'svc_ak_dev_seed_race_0123456789abcdef';
const SEED_ONCE = fileURLToPath(new URL('./support/seed-once.ts', import.meta.url));

async function seedAllAtOnce(stores: Store[], env: Record<string, string>) {
  const config = loadConfig(env);
  return Promise.all(stores.map((s) => seedDevAccount(s, config, Date.now())));
}

async function counts(store: Store) {
  const accounts = await store.db.selectFrom('accounts').select('id').where('name', '=', 'dev').execute();
  const keys = await store.db.selectFrom('api_keys').select('id').execute();
  return { accounts: accounts.length, keys: keys.length };
}

describe('seeding the dev account from several processes at once', function () {
  this.timeout(30_000);

  it('on one SQLite file, from four processes: one account, one key, every seeder answered', async () => {
    // Separate processes, as in production: SQLite connections of one process would block each other's event loop.
    const dir = mkdtempSync(join(tmpdir(), 'svc-seed-'));
    try {
      const results = await Promise.all(Array.from({ length: 4 }, () => runTsx(SEED_ONCE, [], { SVC_DATA_DIR: dir, SVC_DEV_API_KEY: FIXED_KEY })));
      for (const r of results) expect({ code: r.code, err: r.err }, r.out + r.err).to.deep.equal({ code: 0, err: '' });
      const seeds = results.map((r) => JSON.parse(r.out) as { accountId: string; created: boolean; apiKey: string });
      expect(new Set(seeds.map((s) => s.accountId)).size).to.equal(1);
      expect(seeds.filter((s) => s.created)).to.have.length(1);
      expect(seeds.every((s) => s.apiKey === FIXED_KEY)).to.equal(true);
      const store = openStore({ sqlitePath: join(dir, 'svc.db') });
      expect(await counts(store)).to.deep.equal({ accounts: 1, keys: 1 });
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('on one Postgres schema: one account, one key, the random key printed by exactly one seeder', async function () {
    if (!(await postgresAvailable())) {
      if (process.env.SVC_TEST_POSTGRES === 'required') throw new Error(`Postgres is required but not reachable at ${PG_URL}`);
      this.skip();
    }
    const schema = `t_seed_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const stores = Array.from({ length: 4 }, () => openStore({ postgresUrl: url, poolSize: 2 }));
    try {
      await migrate(stores[0]);
      const seeds = await seedAllAtOnce(stores, {});
      expect(new Set(seeds.map((s) => s.accountId)).size).to.equal(1);
      expect(seeds.filter((s) => s.apiKey !== null)).to.have.length(1);
      expect(await counts(stores[0])).to.deep.equal({ accounts: 1, keys: 1 });
    } finally {
      for (const s of stores) await s.close();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    }
  });
});
