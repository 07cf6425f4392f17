// Several processes start on one fresh SQLite file at once: migrations run in one IMMEDIATE transaction, so one
// process applies them while the others wait for the write lock, then find them applied.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { migrations } from '../../server/src/store/migrations/index.js';
import { migrationsApplied } from '../../server/src/store/store.js';
import { openStore } from '../../server/src/store/open-store.js';
import { runTsx } from '../support/run-tsx.js';

const MIGRATE_ONCE = fileURLToPath(new URL('./support/migrate-once.ts', import.meta.url));

describe('SQLite migrations from several processes', function () {
  this.timeout(30_000);

  it('migrates a fresh file once when four processes migrate it at the same moment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-migrate-'));
    try {
      const results = await Promise.all(Array.from({ length: 4 }, () => runTsx(MIGRATE_ONCE, [], { SVC_DATA_DIR: dir })));
      for (const r of results) expect(r, r.out + r.err).to.deep.equal({ code: 0, out: 'migrated', err: '' });
      const store = openStore({ sqlitePath: join(dir, 'svc.db') });
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db);
      expect(applied.rows.map((r) => r.name)).to.deep.equal(Object.keys(migrations).sort());
      expect(await migrationsApplied(store)).to.equal(true);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
