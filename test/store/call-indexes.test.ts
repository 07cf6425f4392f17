// The indexes a call's writes pay for are the ones its reads use (migration 008): leased calls are found through
// the partial lease index, and nothing is indexed by account and status any more.
import { expect } from 'chai';
import { sql } from 'kysely';
import { forEachStore, freshStore, type TestStore } from '../support/stores.js';

forEachStore('call indexes', (kind) => {
  let ts: TestStore;
  beforeEach(async () => {
    ts = await freshStore(kind);
  });
  afterEach(() => ts.drop());

  it('finds the calls of a lease owner through the partial lease index', async () => {
    const update = sql`update calls set lease_owner = null, lease_expires_at = null where lease_owner = ${'worker-1'}`;
    if (kind === 'sqlite') {
      const plan = await sql<{ detail: string }>`explain query plan ${update}`.execute(ts.store.db);
      expect(plan.rows.map((r) => r.detail)).to.deep.equal(['SEARCH calls USING INDEX calls_by_lease (lease_owner=?)']);
    } else {
      const plan = await ts.store.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        return sql<{ 'QUERY PLAN': string }>`explain ${update}`.execute(trx);
      });
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).to.match(/Index Scan using calls_by_lease on calls/);
    }
  });

  // calls_by_batch (batch_id, status) serves a batch's count of its live calls and listCalls' batchId; it is not
  // by account: a call placed on its own has no batch_id.
  it('keeps no index by account and status', async () => {
    const names =
      kind === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'calls' order by name`.execute(ts.store.db)
        : await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'calls' and schemaname = current_schema() order by indexname`.execute(ts.store.db);
    expect(names.rows.map((r) => r.name).filter((n) => !/^(sqlite_autoindex_calls_1|calls_pkey)$/.test(n))).to.deep.equal(['calls_by_batch', 'calls_by_key_recent', 'calls_by_lease', 'calls_due']);
  });
});
