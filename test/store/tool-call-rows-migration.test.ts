// Migration 039 on a store written before it: the uses of client tools already on calls (calls.tool_calls_json)
// are copied to call_tool_calls in order, each shown at its answer (its call time plus its latency), so a stream
// replaying such a call shows them; calls without uses get no rows.
import { expect } from 'chai';
import { migrate } from '../../server/src/store/store.js';
import { insertTestCall } from '../support/calls.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore, freshStore, type TestStore } from '../support/stores.js';

forEachStore('migration 039 (the uses of tools as rows)', (kind) => {
  let ts: TestStore;
  beforeEach(async () => {
    // The store as 038 left it.
    ts = await freshStore(kind, '038_batch_rows');
  });
  afterEach(() => ts.drop());

  it("copies each call's uses in order, each at its answer", async () => {
    const db = ts.store.db;
    await db.insertInto('accounts').values({ id: 'acc', name: 'acc', plan_minutes: 100, default_caller_id: null, created_at: 1 }).execute();
    await db
      .insertInto('api_keys')
      .values({
        id: 'key',
        account_id: 'acc',
        key_hash: 'h',
        key_hint: 'svc_ak_x…',
        name: 'k',
        default_caller_id: null,
        default_voice: null,
        rate_limit: null,
        webhook_secret: 'whsec_x',
        previous_webhook_secret: null,
        previous_secret_expires_at: null,
        revoked_at: null,
        created_at: 1,
      })
      .execute();
    const tenant = { accountId: 'acc', keyId: 'key', callerId: '+14155550100' } as TestTenant;
    const uses = [
      { name: 'order_status', arguments: { id: 1 }, status: 'ok', latencyMs: 120, error: null, at: '2026-03-02T10:00:00.000Z' },
      { name: 'order_status', arguments: {}, status: 'timeout', latencyMs: 5000, error: 'the tool did not answer within 5000 ms', at: '2026-03-02T10:00:10.000Z' },
    ];
    const used = await insertTestCall(ts.store, tenant, { tool_calls_json: JSON.stringify(uses) });
    const none = await insertTestCall(ts.store, tenant, { tool_calls_json: '[]' });
    await insertTestCall(ts.store, tenant);
    await migrate(ts.store);

    const rows = await db.selectFrom('call_tool_calls').selectAll().orderBy('call_id').orderBy('seq').execute();
    expect(rows.map((r) => [r.call_id, Number(r.seq), Number(r.at), JSON.parse(r.tool_call_json)])).to.deep.equal([
      [used.id, 0, Date.parse(uses[0].at) + 120, uses[0]],
      [used.id, 1, Date.parse(uses[1].at) + 5000, uses[1]],
    ]);
    expect(rows.some((r) => r.call_id === none.id)).to.equal(false);
  });
});
