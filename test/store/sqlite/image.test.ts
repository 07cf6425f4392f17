// A SQLite store opened from another's image (`serialize()`): a copy in memory with the image's rows and migrations,
// which its own writes change alone. The tests open each fresh store this way (test/support/stores.ts).
import { expect } from 'chai';
import { sql } from 'kysely';
import { openSqlite, type SqliteStore } from '../../../server/src/store/sqlite/sqlite-driver.js';
import { migrate } from '../../../server/src/store/store.js';

const names = async (s: SqliteStore) => (await sql<{ name: string }>`select name from accounts order by name`.execute(s.db)).rows.map((r) => r.name);
const applied = async (s: SqliteStore) => (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(s.db)).rows.map((r) => r.name);
const addAccount = (s: SqliteStore, id: string) => sql`insert into accounts (id, name, plan_minutes, created_at) values (${id}, ${id}, 0, 1)`.execute(s.db);

describe('a SQLite store opened from an image', () => {
  it('has the rows and migrations of the image, and its writes reach neither the original nor another copy', async () => {
    const original = openSqlite({ sqlitePath: ':memory:' });
    await migrate(original);
    await addAccount(original, 'first');
    const image = original.serialize();
    const copy = openSqlite({ sqlitePath: image });
    const other = openSqlite({ sqlitePath: image });
    try {
      await addAccount(copy, 'second');
      expect(await names(copy)).to.deep.equal(['first', 'second']);
      expect(await names(original)).to.deep.equal(['first']);
      expect(await names(other)).to.deep.equal(['first']);
      const migrations = await applied(original);
      expect(migrations.length).to.be.above(30);
      expect(await applied(copy)).to.deep.equal(migrations);
      // Nothing is left to migrate, and foreign keys hold on the copy as on a file.
      await migrate(copy);
      expect(await applied(copy)).to.deep.equal(migrations);
      expect((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(copy.db)).rows[0]!.foreign_keys).to.equal(1);
    } finally {
      await Promise.all([original.close(), copy.close(), other.close()]);
    }
  });

  it('is closed by close() even when nothing was asked of it: a query after it fails', async () => {
    const original = openSqlite({ sqlitePath: ':memory:' });
    await migrate(original);
    const copy = openSqlite({ sqlitePath: original.serialize() });
    await original.close();
    await copy.close();
    let error: Error | null = null;
    await applied(copy).catch((err: Error) => (error = err));
    expect(error).to.be.an('error');
  });
});
