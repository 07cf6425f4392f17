import { expect } from 'chai';
import SQLite from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../../../server/src/store/store.js';
import { openSqlite, type SqliteStore } from '../../../server/src/store/sqlite/sqlite-driver.js';
import type { Executor, WriteScope } from '../../../server/src/store/store.js';

const addAccount = (ex: Executor, name: string) => ex.run('insert into accounts (id, name, plan_minutes, default_caller_id, created_at) values (?, ?, 10, null, 1)', [name, name]);
const names = async (store: SqliteStore) => (await store.db.selectFrom('accounts').select('name').orderBy('name').execute()).map((r) => r.name);
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: Error) => e,
  );

for (const where of ['a database file', 'an in-memory database'] as const) {
  describe(`write batches on ${where}`, () => {
    let dir: string;
    let path: string;
    let store: SqliteStore;
    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), 'svc-batches-'));
      path = where === 'a database file' ? join(dir, 'svc.db') : ':memory:';
      store = openSqlite({ sqlitePath: path });
      await migrate(store);
    });
    afterEach(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const run = <T>(work: (scope: WriteScope) => Promise<T>) => store.writeBatches!.run(work);

    it('runs the units queued in one turn of the event loop in one transaction, in order, each with its own result', async () => {
      const before = store.writeBatches!.batchesRun;
      const seen: string[][] = [];
      const unit = (name: string) =>
        run(async ({ ex }) => {
          await addAccount(ex, name);
          const rows = (await ex.run('select name from accounts order by name', [])) as { name: string }[];
          seen.push(rows.map((r) => r.name));
          return name.toUpperCase();
        });
      expect(await Promise.all([unit('a'), unit('b'), unit('c')])).to.deep.equal(['A', 'B', 'C']);
      expect(seen).to.deep.equal([['a'], ['a', 'b'], ['a', 'b', 'c']]);
      expect(store.writeBatches!.batchesRun - before).to.equal(1);
      await unit('d');
      expect(store.writeBatches!.batchesRun - before).to.equal(2);
      expect(await names(store)).to.deep.equal(['a', 'b', 'c', 'd']);
    });

    it('rolls back only the unit that throws; the others of its batch are committed', async () => {
      const [a, bad, c] = await Promise.all([
        run(({ ex }) => addAccount(ex, 'a')),
        failure(
          run(async ({ ex }) => {
            await addAccount(ex, 'half-done');
            throw new Error('the unit failed');
          }),
        ),
        run(({ ex }) => addAccount(ex, 'c')),
      ]);
      expect([a, c]).to.deep.equal([[], []]);
      expect(bad?.message).to.equal('the unit failed');
      expect(await names(store)).to.deep.equal(['a', 'c']);
    });

    it('settles no unit before its batch is committed', async () => {
      const committed: boolean[] = [];
      const visible = async () => (await store.db.selectFrom('accounts').select('name').execute()).length;
      await Promise.all(
        ['a', 'b'].map((name) =>
          run(({ ex }) => addAccount(ex, name)).then(async () => {
            // On a file a second connection sees only committed rows; in memory kysely waits for the batch's lock.
            if (where === 'a database file') {
              const other = new SQLite(path, { readonly: true });
              committed.push((other.prepare('select count(*) as n from accounts').get() as { n: number }).n === 2);
              other.close();
            } else {
              committed.push((await visible()) === 2);
            }
          }),
        ),
      );
      expect(committed).to.deep.equal([true, true]);
    });

    it('fails every unit of a batch whose COMMIT fails, and writes none of it', async () => {
      const outcomes = await Promise.all([
        failure(run(({ ex }) => addAccount(ex, 'a'))),
        failure(
          run(async ({ ex }) => {
            // A deferred foreign key is checked at COMMIT: this row makes the COMMIT fail.
            await ex.run('pragma defer_foreign_keys = on', []);
            await ex.run('insert into numbers (account_id, e164, created_at) values (?, ?, 1)', ['no-such-account', '+14155550100']);
          }),
        ),
      ]);
      for (const o of outcomes) expect(o?.message).to.equal('FOREIGN KEY constraint failed');
      expect(await names(store)).to.deep.equal([]);
      // The connection is usable afterwards, outside any transaction.
      await run(({ ex }) => addAccount(ex, 'b'));
      expect(await names(store)).to.deep.equal(['b']);
    });

    it('fails the whole batch when its transaction was rolled back under it', async () => {
      const outcomes = await Promise.all([
        failure(run(({ ex }) => addAccount(ex, 'a'))),
        failure(
          run(async ({ ex }) => {
            await ex.run('rollback', []);
            throw new Error('disk I/O error');
          }),
        ),
        failure(run(({ ex }) => addAccount(ex, 'c'))),
      ]);
      expect(outcomes.map((o) => o?.message)).to.deep.equal(['disk I/O error', 'disk I/O error', 'disk I/O error']);
      expect(await names(store)).to.deep.equal([]);
    });

    it('undoes a failed atomically block and keeps the rest of its unit', async () => {
      const result = await run(async ({ ex, atomically }) => {
        await addAccount(ex, 'kept');
        const inner = await failure(
          atomically('acc', async (tx) => {
            await addAccount(tx, 'undone');
            throw new Error('over the cap');
          }),
        );
        await atomically('acc', (tx) => addAccount(tx, 'also-kept'));
        return inner?.message;
      });
      expect(result).to.equal('over the cap');
      expect(await names(store)).to.deep.equal(['also-kept', 'kept']);
    });

    it('makes a kysely query asked while a batch runs wait for its commit', async () => {
      const order: string[] = [];
      const unit = run(async ({ ex }) => {
        await addAccount(ex, 'a');
        order.push('unit');
      });
      await new Promise((r) => setImmediate(r));
      const query = names(store).then((n) => order.push(`query saw ${n.join(',')}`));
      await Promise.all([unit, query]);
      expect(order).to.deep.equal(['unit', 'query saw a']);
    });

    it('runs what is queued when the store closes, and refuses units after', async () => {
      const queued = run(({ ex }) => addAccount(ex, 'a'));
      await store.writeBatches!.close();
      await queued;
      expect((await failure(run(({ ex }) => addAccount(ex, 'b'))))?.message).to.equal('database connection is not open');
      expect(await names(store)).to.deep.equal(['a']);
    });
  });
}
