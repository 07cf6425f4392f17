// Migration 038 numbers the batch calls stored before it: a batch's released calls, in the order they were made
// (by time, then id), are its rows 0, 1, 2…, each batch on its own; each redial takes the row of the call it
// follows, down the whole chain; a call placed on its own has no row.
import { expect } from 'chai';
import { migrate } from '../../server/src/store/store.js';
import { insertTestCall } from '../support/calls.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore, freshStore } from '../support/stores.js';

forEachStore('migration 038, batch rows', (kind) => {
  it("numbers a batch's calls stored before it by the order they were made, and gives a redial its call's row", async () => {
    const ts = await freshStore(kind, '035_client_tools');
    try {
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
      for (const [id, total, released] of [
        ['batch-a', 4, 3],
        ['batch-b', 1, 1],
      ] as const) {
        await db.insertInto('batches').values({ id, account_id: 'acc', api_key_id: 'key', status: 'running', total, released, max_concurrency: 3, created_at: 1, updated_at: 1 }).execute();
        for (let idx = 0; idx < total; idx++) await db.insertInto('batch_items').values({ batch_id: id, idx, call_json: '{}' }).execute();
      }
      const tenant = { accountId: 'acc', keyId: 'key', callerId: '+14155550100' } as TestTenant;
      const call = (id: string, batch: string | null, created: number, previous: string | null = null) =>
        insertTestCall(ts.store, tenant, { id, batch_id: batch, created_at: created, previous_call_id: previous });
      // Released in one step (the same time, ids in order), then a later step; a redial of the first, and its redial.
      await call('a-2', 'batch-a', 1000);
      await call('a-1', 'batch-a', 1000);
      await call('a-3', 'batch-a', 2000);
      await call('b-1', 'batch-b', 500);
      await call('a-1-redial', 'batch-a', 3000, 'a-1');
      await call('a-1-redial-redial', 'batch-a', 4000, 'a-1-redial');
      await call('alone', null, 1500);
      await migrate(ts.store);
      const rows = await db.selectFrom('calls').select(['id', 'batch_index']).orderBy('id').execute();
      expect(rows.map((r) => [r.id, r.batch_index])).to.deep.equal([
        ['a-1', 0],
        ['a-1-redial', 0],
        ['a-1-redial-redial', 0],
        ['a-2', 1],
        ['a-3', 2],
        ['alone', null],
        ['b-1', 0],
      ]);
    } finally {
      await ts.drop();
    }
  });
});
