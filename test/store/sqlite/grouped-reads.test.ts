import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../../../server/src/store/store.js';
import { openStore } from '../../../server/src/store/open-store.js';
import { openSqlite, type SqliteStore } from '../../../server/src/store/sqlite/sqlite-driver.js';
import { isStoreFault } from '../../../server/src/store/store-fault.js';

const count = (store: SqliteStore) => store.groupedReads!.all<{ n: number }>('select count(*) as n from accounts', []).then((rows) => rows[0].n);
const addAccount = (db: SqliteStore['db'], name: string) => db.insertInto('accounts').values({ id: name, name, plan_minutes: 10, default_caller_id: null, created_at: 1 }).execute();

for (const where of ['a database file', 'an in-memory database'] as const) {
  describe(`grouped reads on ${where}`, () => {
    let dir: string;
    let store: SqliteStore;
    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), 'svc-grouped-'));
      store = openSqlite({ sqlitePath: where === 'a database file' ? join(dir, 'svc.db') : ':memory:' });
      await migrate(store);
    });
    afterEach(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('runs the reads asked in one turn of the event loop in one read transaction, each with its own rows', async () => {
      await addAccount(store.db, 'a');
      await addAccount(store.db, 'b');
      const before = store.groupedReads!.groupsRun;
      const byName = (name: string) => store.groupedReads!.all<{ id: string }>('select id from accounts where name = ?', [name]);
      const [a, b, none, n] = await Promise.all([byName('a'), byName('b'), byName('nobody'), count(store)]);
      expect([a, b, none, n]).to.deep.equal([[{ id: 'a' }], [{ id: 'b' }], [], 2]);
      expect(store.groupedReads!.groupsRun - before).to.equal(1);
      await count(store);
      expect(store.groupedReads!.groupsRun - before).to.equal(2);
    });

    it('sees every write committed before the read was asked', async () => {
      expect(await count(store)).to.equal(0);
      await addAccount(store.db, 'a');
      expect(await count(store)).to.equal(1);
    });

    it('fails only the read whose statement fails; the others of its group are answered', async () => {
      const bad = store.groupedReads!.all('select nope from accounts', []);
      const good = count(store);
      const failure = await bad.then(
        () => null,
        (e: Error) => e,
      );
      expect(failure?.message).to.match(/no such column: nope/);
      expect(await good).to.equal(0);
    });

    it('never sees the rows of a write transaction still open', async () => {
      let seen: number | undefined;
      await store.db.transaction().execute(async (trx) => {
        await addAccount(trx, 'pending');
        // On a file the read does not wait for the writer (WAL); in memory it waits for kysely's connection.
        const read = count(store).then((n) => (seen = n));
        if (where === 'a database file') {
          await read;
          expect(seen).to.equal(0);
        } else {
          await new Promise((r) => setImmediate(r));
          expect(seen).to.equal(undefined);
        }
      });
      await new Promise((r) => setImmediate(r));
      expect(seen).to.equal(where === 'a database file' ? 0 : 1);
      expect(await count(store)).to.equal(1);
    });

    it('answers the reads already asked when the store closes, and refuses later ones as a store fault', async () => {
      const asked = count(store);
      await store.close();
      expect(await asked).to.equal(0);
      const late = await count(store).then(
        () => null,
        (e: Error) => e,
      );
      expect(isStoreFault(late)).to.equal(true);
      store = openSqlite({ sqlitePath: ':memory:' });
    });
  });
}

describe('grouped reads and Postgres', () => {
  it('are SQLite only: a Postgres store reads through its pool', () => {
    const store = openStore({ postgresUrl: 'postgres://127.0.0.1:1/none' });
    expect((store as Partial<SqliteStore>).groupedReads).to.equal(undefined);
    return store.close();
  });
});
