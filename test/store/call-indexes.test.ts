// The indexes a call's writes pay for are the ones its reads use (migration 008): leased calls are found through
// the partial lease index, and nothing is indexed by account and status. On Postgres the queues' looks
// go through indexes that stay small while dead row versions wait for VACUUM (migration 026): the next-due look
// through calls_claimable_at, the outbox's claim and next-due look through webhook_events_pending, and a group's
// update of leased rows reaches each row by its key, never through the lease-owner index.
import { expect } from 'chai';
import { sql } from 'kysely';
import { forEachStore, freshStore, type TestStore } from '../support/stores.js';
import { CALLS, LANES } from '../../server/src/engine/call-engine.js';
import { OUTBOX } from '../../server/src/webhooks/dispatcher.js';
import { nextDueQuery } from '../../server/src/store/jobs/queue-rows.js';
import { claimQuery } from '../../server/src/store/due-claims.js';
import { shapeUpdate } from '../../server/src/store/postgres/postgres-driver.js';
import { createAccount, createKey } from '../../server/src/accounts/accounts-repo.js';

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

  // calls_by_batch (batch_id, status) serves a batch's count of its live calls and listCalls' batchId, and
  // calls_by_batch_row (batch_id, batch_index) a page of its rows' calls; neither is by account, and a call placed
  // on its own, with no batch_id, is in neither. calls_by_account_recent (account_id, created_at) serves getStats'
  // period and holds nothing that changes after a placement, so a status change writes no entry in it.
  it('keeps no index by account and status', async () => {
    const names =
      kind === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'calls' order by name`.execute(ts.store.db)
        : await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'calls' and schemaname = current_schema() order by indexname`.execute(ts.store.db);
    const postgresOnly = kind === 'postgres' ? ['calls_claimable_at'] : [];
    expect(names.rows.map((r) => r.name).filter((n) => !/^(sqlite_autoindex_calls_1|calls_pkey)$/.test(n))).to.deep.equal([
      'calls_by_account_recent',
      'calls_by_batch',
      'calls_by_batch_row',
      'calls_by_key_recent',
      'calls_by_lease',
      ...postgresOnly,
      'calls_due',
    ]);
  });

  if (kind !== 'postgres') return;

  /**
   * A store as a busy minute leaves it, never analysed (autovacuum passes once a minute at best): 20,000 ended
   * calls, 64 live ones (two workers' leases, both lanes) each updated 30 times, their dead versions not yet
   * removed, and 3,000 events of which a few hundred are pending.
   */
  async function busyMinute(): Promise<void> {
    const db = ts.store.db;
    const account = await createAccount(db, { name: 'busy', planMinutes: 10, defaultCallerId: '+14155550100' }, 0);
    const { row: key } = await createKey(db, { accountId: account, name: 'busy' }, 0);
    await sql`insert into calls (id, account_id, api_key_id, status, to_number, objective, caller_id, created_at, updated_at)
      select 'ended-' || g, ${account}, ${key.id}, 'completed', '+14155550123', 'Ask whether the shop is open on Sunday.', '+14155550100', g, g
      from generate_series(1, 20000) g`.execute(db);
    await sql`insert into calls (id, account_id, api_key_id, status, to_number, objective, caller_id, created_at, updated_at, next_run_at, lease_owner, lease_expires_at, carrier_ref)
      select 'live-' || g, ${account}, ${key.id}, 'in_progress', '+14155550123', 'Ask whether the shop is open on Sunday.', '+14155550100', g, g, 1000 + g,
        case when g % 4 = 0 then null when g % 2 = 0 then 'worker-1' else 'worker-2' end, case when g % 4 = 0 then null else 5000 end, case when g % 3 = 0 then null else 'CA' || g end
      from generate_series(1, 64) g`.execute(db);
    for (let i = 0; i < 30; i++) await sql`update calls set next_run_at = next_run_at + 1, lease_expires_at = lease_expires_at + 1 where id like 'live-%'`.execute(db);
    await sql`insert into webhook_events (event_id, call_id, api_key_id, event, url, body, state, attempts, created_at, next_attempt_at)
      select 'event-' || g, 'ended-' || g, ${key.id}, 'call.completed', 'https://hooks.example.com/h', '{}', case when g % 10 = 0 then 'pending' else 'delivered' end, 0, g, g
      from generate_series(1, 3000) g`.execute(db);
  }

  const planOf = async (statement: { sql: string; parameters: readonly unknown[] }) => {
    const plan = await ts.store.db.executeQuery<{ 'QUERY PLAN': string }>({
      sql: `explain ${statement.sql}`,
      parameters: statement.parameters,
      query: { kind: 'RawNode' } as never,
      queryId: { queryId: 'plan' },
    });
    return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
  };

  it("answers the engine's next-due look, in either lane, from calls_claimable_at", async () => {
    await busyMinute();
    for (const only of [undefined, LANES.dial, LANES.line]) {
      const plan = await planOf(nextDueQuery(ts.store.db, CALLS, ['live-1'], only).compile());
      expect(plan, JSON.stringify(only)).to.match(/Index Scan using calls_claimable_at on calls/);
    }
  });

  // webhook_events_failed is partial too, on the events whose delivery ended failed or gone: an event enters it once,
  // as it ends so, and the dispatcher's work on pending events never touches it.
  it("answers the dispatcher's claim and next-due look from webhook_events_pending, the only index of pending events", async () => {
    await busyMinute();
    const claim = claimQuery(ts.store.db, { ...OUTBOX, owner: 'w', now: 1000, leaseMs: 1000, limit: 32, excluding: ['event-10'] }, (due) => due.forUpdate().skipLocked());
    expect(await planOf(claim.compile())).to.match(/Index Scan on webhook_events_pending/);
    expect(await planOf(nextDueQuery(ts.store.db, OUTBOX, ['event-10'], OUTBOX.only).compile())).to.match(/Index Scan on webhook_events_pending/);
    const indexes = await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'webhook_events' and schemaname = current_schema() order by indexname`.execute(ts.store.db);
    expect(indexes.rows.map((r) => r.name)).to.deep.equal(['webhook_events_by_call', 'webhook_events_failed', 'webhook_events_pending', 'webhook_events_pkey']);
  });

  it('updates a group of leased calls by their keys, not through the lease-owner index', async () => {
    await busyMinute();
    const rows = ['live-1', 'live-3'].map((key) => ({ key, leaseExpiresAt: 5030, set: { engine_state: '{}', next_run_at: 9 } }));
    const plan = await planOf(shapeUpdate({ table: 'calls', key: 'id' }, 'worker-2', rows).compile(ts.store.db));
    expect(plan).to.match(/Index Scan using calls_pkey on calls t/);
    expect(plan).to.not.match(/calls_by_lease|Seq Scan on calls/);
  });
});
