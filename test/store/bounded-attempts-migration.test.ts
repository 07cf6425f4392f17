// Migration 027 on a store written before it: events that already hold more attempts than an event keeps are
// cut to their first and their last 20 attempts, and those deleted are counted by outcome, as the dispatcher does
// for the attempts it records after it.
import { expect } from 'chai';
import { migrate } from '../../server/src/store/store.js';
import { forEachStore, freshStore, type TestStore } from '../support/stores.js';

forEachStore('migration 027 (bounded attempts)', (kind) => {
  let ts: TestStore;
  beforeEach(async () => {
    // The store as 026 left it.
    ts = await freshStore(kind, '026_queue_indexes_on_postgres');
  });
  afterEach(() => ts.drop());

  it('keeps the first and the last 20 attempts of each event, and counts the others by outcome', async () => {
    const db = ts.store.db;
    // e1: 30 attempts (status by number: 7 and 8 a 2xx, every third no response, else 500); e2: 21, all kept.
    const status = (n: number) => (n === 7 || n === 8 ? 200 : n % 3 === 0 ? null : 500);
    const rows = [
      ...Array.from({ length: 30 }, (_, i) => ({ event_id: 'e1', attempt: i + 1, at: i, status_code: status(i + 1), latency_ms: 5, error: null })),
      ...Array.from({ length: 21 }, (_, i) => ({ event_id: 'e2', attempt: i + 1, at: i, status_code: 500, latency_ms: 5, error: null })),
    ];
    await db.insertInto('webhook_attempts').values(rows).execute();
    await migrate(ts.store);

    const kept = await db.selectFrom('webhook_attempts').select(['event_id', 'attempt']).orderBy('event_id').orderBy('attempt').execute();
    expect(kept.filter((r) => r.event_id === 'e1').map((r) => Number(r.attempt))).to.deep.equal([1, ...Array.from({ length: 20 }, (_, i) => 11 + i)]);
    expect(kept.filter((r) => r.event_id === 'e2')).to.have.length(21);
    // e1's attempts 2 to 10: 7 and 8 succeeded, 3, 6 and 9 had no response, 2, 4, 5 and 10 answered 500.
    const omitted = await db.selectFrom('webhook_attempts_omitted').select(['event_id', 'outcome', 'attempts']).orderBy('event_id').orderBy('outcome').execute();
    expect(omitted.map((r) => [r.event_id, r.outcome, Number(r.attempts)])).to.deep.equal([
      ['e1', 'error', 3],
      ['e1', 'http_error', 4],
      ['e1', 'success', 2],
    ]);
  });
});
