// test/support/stores.ts keeps a dropped Postgres store's schema for the next fresh store of the process, emptied,
// when it is still what migrating makes. These tests hold it to that: a reused schema has no rows of the last
// store and its triggers work, and a schema whose shape changed, or whose URL was handed out, is dropped instead.
import { expect } from 'chai';
import { sql } from 'kysely';
import pg from 'pg';
import { pendingMigrations } from '../../server/src/store/store.js';
import { createAccount } from '../../server/src/accounts/accounts-repo.js';
import { freshStore, PG_URL, type TestStore } from './stores.js';
import { requirePostgres } from '../scale/support/pg-schema.js';

const schemaOf = async (ts: TestStore) => (await sql<{ s: string }>`select current_schema() as s`.execute(ts.store.db)).rows[0]!.s;

async function schemaExists(name: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return (await c.query('select 1 from pg_namespace where nspname = $1', [name])).rowCount === 1;
  } finally {
    await c.end();
  }
}

describe('fresh Postgres stores [postgres]', () => {
  before(async function () {
    await requirePostgres(this);
  });

  it('reuse a dropped store’s schema emptied of its rows, with every migration applied and its triggers at work', async () => {
    const first = await freshStore('postgres');
    const schema = await schemaOf(first);
    await createAccount(first.store.db, { name: 'left behind', planMinutes: 10, defaultCallerId: null }, 1);
    await first.drop();
    const next = await freshStore('postgres');
    try {
      expect(await schemaOf(next)).to.equal(schema);
      expect(await next.store.db.selectFrom('accounts').selectAll().execute()).to.deep.equal([]);
      expect(await next.store.db.selectFrom('account_usage').selectAll().execute()).to.deep.equal([]);
      expect(await pendingMigrations(next.store)).to.equal(0);
      // accounts_usage_row, a trigger, gives each new account its usage row.
      const id = await createAccount(next.store.db, { name: 'new', planMinutes: 10, defaultCallerId: null }, 1);
      expect(await next.store.db.selectFrom('account_usage').select(['account_id', 'calls_in_flight']).execute()).to.deep.equal([{ account_id: id, calls_in_flight: 0 }]);
    } finally {
      await next.drop();
    }
  });

  it('drop a schema whose shape a test changed, and make the next one afresh', async () => {
    const first = await freshStore('postgres');
    const schema = await schemaOf(first);
    await sql`drop trigger accounts_usage_row on accounts`.execute(first.store.db);
    await first.drop();
    expect(await schemaExists(schema)).to.equal(false);
    const next = await freshStore('postgres');
    try {
      expect(await schemaOf(next)).to.not.equal(schema);
      const id = await createAccount(next.store.db, { name: 'new', planMinutes: 10, defaultCallerId: null }, 1);
      expect(await next.store.db.selectFrom('account_usage').select('account_id').execute()).to.deep.equal([{ account_id: id }]);
    } finally {
      await next.drop();
    }
  });

  it('drop a schema whose URL was handed out, and one migrated only part of the way', async () => {
    const shared = await freshStore('postgres');
    const sharedSchema = await schemaOf(shared);
    expect(shared.url).to.include(encodeURIComponent(`search_path=${sharedSchema}`));
    await shared.drop();
    expect(await schemaExists(sharedSchema)).to.equal(false);
    const partial = await freshStore('postgres', '026_queue_indexes_on_postgres');
    const partialSchema = await schemaOf(partial);
    await partial.drop();
    expect(await schemaExists(partialSchema)).to.equal(false);
  });
});
