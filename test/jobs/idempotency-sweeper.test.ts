// Expired idempotency records are deleted (idempotency-sweeper.ts): oldest first, in chunks, never a live one, on
// a timer in the worker processes; the expiry index keeps each chunk from scanning the table.
import { expect } from 'chai';
import { pino } from 'pino';
import { sql } from 'kysely';
import { purgeExpiredIdempotencyKeys } from '../../server/src/store/idempotency-repo.js';
import { startIdempotencySweeper } from '../../server/src/jobs/idempotency-sweeper.js';
import type { Store } from '../../server/src/store/store.js';
import { forEachStore, freshStore, type TestStore } from '../support/stores.js';
import { TestClock } from '../support/server.js';
import { until } from '../support/until.js';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);

forEachStore('the idempotency sweeper', (kind) => {
  let t: TestStore;
  let store: Store;
  beforeEach(async () => {
    t = await freshStore(kind);
    store = t.store;
  });
  afterEach(() => t.drop());

  async function record(apiKeyId: string, idemKey: string, expiresAt: number): Promise<void> {
    await store.db
      .insertInto('idempotency_keys')
      .values({
        api_key_id: apiKeyId,
        idem_key: idemKey,
        request_hash: 'h',
        state: 'done',
        response_status: 202,
        response_headers_json: '{}',
        response_body: '{}',
        created_at: expiresAt - 86_400_000,
        expires_at: expiresAt,
      })
      .execute();
  }
  const left = async () =>
    (await store.db.selectFrom('idempotency_keys').select(['api_key_id', 'idem_key']).orderBy('api_key_id').orderBy('idem_key').execute()).map((r) => `${r.api_key_id}/${r.idem_key}`);

  it('deletes expired records oldest first, at most the chunk, and never one still live', async () => {
    await record('k1', 'a', NOW - 3000);
    await record('k2', 'a', NOW - 1000);
    await record('k1', 'b', NOW - 2000);
    await record('k1', 'c', NOW); // expires now: expired
    await record('k2', 'b', NOW + 1);
    expect(await purgeExpiredIdempotencyKeys(store.db, NOW, 2)).to.equal(2);
    expect(await left()).to.deep.equal(['k1/c', 'k2/a', 'k2/b']);
    expect(await purgeExpiredIdempotencyKeys(store.db, NOW, 2)).to.equal(2);
    expect(await left()).to.deep.equal(['k2/b']);
    expect(await purgeExpiredIdempotencyKeys(store.db, NOW, 2)).to.equal(0);
  });

  it('sweeps to the end in chunks, and on its own timer', async () => {
    for (let i = 0; i < 7; i++) await record('k', `old-${i}`, NOW - 1000 - i);
    await record('k', 'live', NOW + 60_000);
    const clock = new TestClock(NOW);
    const sweeper = startIdempotencySweeper({ store, clock, logger: pino({ level: 'silent' }), everyMs: 60_000, chunk: 3 });
    try {
      expect(await sweeper.sweepNow()).to.equal(7);
      expect(await left()).to.deep.equal(['k/live']);
    } finally {
      await sweeper.stop();
    }

    await record('k', 'old-again', NOW - 1);
    const timed = startIdempotencySweeper({ store, clock, logger: pino({ level: 'silent' }), everyMs: 20, chunk: 3 });
    try {
      // The sweep waits for its time on the clock: 20 ms after the start, and not before.
      clock.advance(19);
      await until('the sweeper asleep until its time', () => clock.pending().join() === String(NOW + 20));
      expect(await left()).to.deep.equal(['k/live', 'k/old-again']);
      clock.advance(1);
      await until('the timed sweep', async () => (await left()).length === 1);
      expect(await left()).to.deep.equal(['k/live']);
    } finally {
      await timed.stop();
    }
  });

  if (kind === 'sqlite') {
    it('finds each chunk by the expiry index (migration 009)', async () => {
      const plan = await sql<{ detail: string }>`explain query plan select api_key_id, idem_key from idempotency_keys where expires_at <= ${NOW} order by expires_at limit 500`.execute(store.db);
      expect(plan.rows.map((r) => r.detail).join('; ')).to.include('idempotency_keys_by_expiry');
    });
  }
});
