// The durable job queue on both stores: due rows claimed under a lease, oldest due first; commits fenced by the
// claim itself; release, release on shutdown, and the next due time.
import { expect } from 'chai';
import { JobQueue, LeaseLost, type QueueTable } from '../../server/src/jobs/job-queue.js';
import type { CallRow } from '../../server/src/store/calls-repo.js';
import { insertTestCall } from '../support/calls.js';
import { TestClock } from '../support/server.js';
import { forEachStore, freshStore, type TestStore } from '../support/stores.js';
import { seedFixture } from '../webhooks/support/outbox-fixture.js';
import { addNumber, createAccount, createKey } from '../../server/src/accounts/accounts-repo.js';
import type { TestTenant } from '../support/server.js';

const CALLS: QueueTable = { table: 'calls', key: 'id', due: 'next_run_at' };
const LEASE = 1000;

forEachStore('the job queue', (kind) => {
  let ts: TestStore;
  let clock: TestClock;
  let tenant: TestTenant;
  beforeEach(async () => {
    ts = await freshStore(kind);
    clock = new TestClock();
    const db = ts.store.db;
    const accountId = await createAccount(db, { name: 'q', planMinutes: 100 }, clock.now());
    await addNumber(db, accountId, '+14155550100', clock.now());
    const { row } = await createKey(db, { accountId, name: 'q' }, clock.now());
    tenant = { accountId, keyId: row.id, key: '', callerId: '+14155550100', api: undefined as never };
  });
  afterEach(() => ts.drop());

  const queue = (owner: string) => new JobQueue<CallRow>(ts.store, CALLS, owner, LEASE);
  const job = (dueIn: number | null) => insertTestCall(ts.store, tenant, { status: 'queued', next_run_at: dueIn === null ? null : clock.now() + dueIn });
  const row = (id: string) => ts.store.db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('claims due rows oldest due first, at most the limit, never a row not due, done or excluded', async () => {
    await job(-5);
    const late = await job(-10);
    const early = await job(-20);
    const excluded = await job(-30);
    await job(5000);
    await job(null);
    const claimed = await queue('w1').claim(clock.now(), 2, [excluded.id]);
    expect(claimed.map((r) => r.id).sort()).to.deep.equal([early.id, late.id].sort());
    expect(claimed.every((r) => r.lease_owner === 'w1' && r.lease_expires_at === clock.now() + LEASE)).to.equal(true);
  });

  it('leaves a row under a live lease alone, and takes it over once the lease has run out', async () => {
    const j = await job(0);
    expect(await queue('w1').claim(clock.now(), 10)).to.have.length(1);
    expect(await queue('w2').claim(clock.now(), 10)).to.deep.equal([]);
    clock.advance(LEASE);
    expect((await queue('w2').claim(clock.now(), 10)).map((r) => r.id)).to.deep.equal([j.id]);
  });

  it('gives each due row to exactly one of several workers claiming at once', async () => {
    for (let i = 0; i < 30; i++) await job(0);
    const claims = await Promise.all(['a', 'b', 'c'].map((w) => queue(w).claim(clock.now(), 30)));
    const ids = claims.flat().map((r) => r.id);
    expect(ids).to.have.length(30);
    expect(new Set(ids).size).to.equal(30);
  });

  const attemptRow = (eventId: string, error: string | null = null) => ({
    into: 'webhook_attempts' as const,
    values: { event_id: eventId, attempt: 1, at: 0, status_code: null, latency_ms: 0, error },
  });
  const attempts = async () => (await ts.store.db.selectFrom('webhook_attempts').select(['event_id', 'error']).orderBy('event_id').execute()).map((a) => `${a.event_id}:${a.error}`);

  it('commits an outcome with the row it inserts in one transaction, keeping or giving up the lease', async () => {
    await job(0);
    const q = queue('w1');
    const [claimed] = await q.claim(clock.now(), 1);
    const kept = await q.commit(claimed, { set: { status: 'dialing' }, keepLease: true });
    expect(kept).to.include({ status: 'dialing', lease_owner: 'w1', lease_expires_at: claimed.lease_expires_at });
    const done = await q.commit(kept, { set: { status: 'failed', next_run_at: null }, insert: (r) => attemptRow(`e-${r.id}`, r.status) });
    expect(done).to.include({ status: 'failed', next_run_at: null, lease_owner: null, lease_expires_at: null });
    expect(await attempts()).to.deep.equal([`e-${done.id}:failed`]);
  });

  it('writes a commit alone that only updates its row without a transaction, and one that inserts in one', async () => {
    await job(0);
    const q = queue('w1');
    const [claimed] = await q.claim(clock.now(), 1);
    // Which scope each write used: `atomically` is the transaction (a savepoint in a batch on SQLite).
    const used: string[] = [];
    const write = ts.store.write.bind(ts.store);
    ts.store.write = ((unit: Parameters<typeof write>[0]) =>
      write((scope) => unit({ ex: scope.ex, atomically: (key, fn) => (used.push('transaction'), scope.atomically(key, fn)) }).finally(() => used.push('write')))) as typeof ts.store.write;
    const kept = await q.commit(claimed, { set: { status: 'dialing' }, keepLease: true });
    const done = await q.commit(kept, { set: { status: 'failed', next_run_at: null }, insert: (r) => attemptRow(`e-${r.id}`, r.status) });
    expect(used).to.deep.equal(['write', 'transaction', 'write']);
    expect(done).to.include({ status: 'failed', lease_owner: null });
    expect(await attempts()).to.deep.equal([`e-${done.id}:failed`]);
  });

  it('writes neither the outcome nor its row when the row cannot be inserted', async () => {
    const j = await job(0);
    const q = queue('w1');
    const [claimed] = await q.claim(clock.now(), 1);
    await ts.store.db.insertInto('webhook_attempts').values(attemptRow('taken').values).execute();
    const failure = await q.commit(claimed, { set: { status: 'dialing' }, insert: () => attemptRow('taken', 'again') }).catch((e: Error) => e);
    expect(failure).to.be.instanceOf(Error);
    expect(await row(j.id)).to.include({ status: 'queued', lease_owner: 'w1' });
    expect(await attempts()).to.deep.equal(['taken:null']);
  });

  it('commits the outcomes of one turn together, and one that cannot be written fails alone', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await job(0)).id);
    const q = queue('w1');
    const claimed = await q.claim(clock.now(), 6);
    await ts.store.db.insertInto('webhook_attempts').values(attemptRow('taken').values).execute();
    clock.advance(LEASE);
    const [lost] = await queue('w2').claim(clock.now(), 1); // one of them is taken over
    const results = await Promise.all(
      claimed.map((c, i) =>
        q.commit(c, { set: { status: 'dialing', next_run_at: null }, insert: () => attemptRow(i === 0 && c.id !== lost.id ? 'taken' : `e-${c.id}`) }).then(
          (r) => r.status,
          (e: Error) => (e instanceof LeaseLost ? 'lost' : 'not written'),
        ),
      ),
    );
    expect(results).to.deep.equal(claimed.map((c, i) => (c.id === lost.id ? 'lost' : i === 0 ? 'not written' : 'dialing')));
    const written = claimed.filter((c, i) => c.id !== lost.id && i !== 0).map((c) => `e-${c.id}:null`);
    expect(await attempts()).to.deep.equal(['taken:null', ...written].sort());
    for (const c of claimed) expect((await row(c.id)).status, c.id).to.equal(c.id === lost.id || c === claimed[0] ? 'queued' : 'dialing');
  });

  it(kind === 'postgres' ? 'writes a group beside a slow one before it' : 'writes one group at a time', async () => {
    await job(0);
    await job(0);
    const q = queue('w1');
    const [first, second] = await q.claim(clock.now(), 2);
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const order: string[] = [];
    // The first group's transaction waits, open, until let go.
    const slowCommit = q.commit(first!, { set: { status: 'dialing', next_run_at: null }, alsoRun: () => held }).then(() => order.push('slow'));
    await new Promise((r) => setTimeout(r, 20));
    const quickCommit = q.commit(second!, { set: { status: 'dialing', next_run_at: null } }).then(() => order.push('quick'));
    await Promise.race([quickCommit, new Promise((r) => setTimeout(r, 300))]);
    letGo();
    await Promise.all([slowCommit, quickCommit, q.idle()]);
    expect(order).to.deep.equal(kind === 'postgres' ? ['quick', 'slow'] : ['slow', 'quick']);
    for (const c of [first!, second!]) expect((await row(c.id)).status).to.equal('dialing');
  });

  it('fences a commit by the claim itself: not after another worker took over, nor after the same worker claimed again', async () => {
    const j = await job(0);
    const w1 = queue('w1');
    const [first] = await w1.claim(clock.now(), 1);
    clock.advance(LEASE);
    const [second] = await w1.claim(clock.now(), 1);
    expect(second.id).to.equal(j.id);
    const stale = await w1.commit(first, { set: { status: 'dialing' } }).catch((e: Error) => e);
    expect(stale).to.be.instanceOf(LeaseLost);
    expect(await row(j.id)).to.include({ status: 'queued' });
    clock.advance(LEASE);
    await queue('w2').claim(clock.now(), 1);
    expect(await w1.commit(second, { set: { status: 'dialing' } }).catch((e: Error) => e)).to.be.instanceOf(LeaseLost);
    expect(await row(j.id)).to.include({ status: 'queued', lease_owner: 'w2' });
  });

  it('releases a job due again later, and only its own claim of it', async () => {
    const j = await job(0);
    const q = queue('w1');
    const [claimed] = await q.claim(clock.now(), 1);
    await q.release(claimed, clock.now() + 500);
    expect(await row(j.id)).to.include({ lease_owner: null, lease_expires_at: null, next_run_at: clock.now() + 500 });
    expect(await q.claim(clock.now(), 1)).to.deep.equal([]);
    clock.advance(500);
    const [again] = await q.claim(clock.now(), 1);
    await queue('w2').release(again, clock.now() + 9999);
    expect(await row(j.id)).to.include({ lease_owner: 'w1' });
  });

  it("gives up every lease of a worker on shutdown, and no other worker's", async () => {
    for (let i = 0; i < 3; i++) await job(0);
    await queue('w1').claim(clock.now(), 2);
    await queue('w2').claim(clock.now(), 1);
    expect(await queue('w1').releaseAll()).to.equal(2);
    const owners = (await ts.store.db.selectFrom('calls').select('lease_owner').execute()).map((r) => r.lease_owner).sort();
    expect(owners).to.deep.equal(['w2', null, null].sort());
  });

  it('knows when the next job can be claimed: its due time, or its lease expiry when later', async () => {
    const q = queue('w1');
    expect(await q.nextDueAt()).to.equal(null);
    const soon = await job(300);
    expect(await q.nextDueAt()).to.equal(clock.now() + 300);
    const leased = await job(0);
    await q.claim(clock.now(), 1);
    expect(await q.nextDueAt()).to.equal(clock.now() + 300);
    expect(await q.nextDueAt([soon.id])).to.equal(clock.now() + LEASE);
    expect(await q.nextDueAt([soon.id, leased.id])).to.equal(null);
  });

  it('serves a table whose jobs are only some of its rows (the outbox: pending events)', async () => {
    const fx = await seedFixture(ts.store, clock.now());
    const pending = await fx.event('https://hooks.example.com/a');
    const done = await fx.event('https://hooks.example.com/b');
    await ts.store.db.updateTable('webhook_events').set({ state: 'delivered' }).where('event_id', '=', done.eventId).execute();
    const outbox = new JobQueue<{ event_id: string; lease_owner: string | null; lease_expires_at: number | null }>(
      ts.store,
      { table: 'webhook_events', key: 'event_id', due: 'next_attempt_at', only: { column: 'state', value: 'pending' } },
      'w1',
      LEASE,
    );
    expect((await outbox.claim(clock.now(), 10)).map((e) => e.event_id)).to.deep.equal([pending.eventId]);
    expect(await outbox.nextDueAt([pending.eventId])).to.equal(null);
  });
});
