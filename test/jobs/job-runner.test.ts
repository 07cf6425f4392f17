// The jobs table's runner over a real store: a job asked for twice is one job, and what a handler returns or
// throws decides the job's row — done, due again, or failed for good after its tries.
import { expect } from 'chai';
import { pino } from 'pino';
import { createJobRunner, enqueueJob, type JobHandler, type JobRunner } from '../../server/src/jobs/job-runner.js';
import { TestClock } from '../support/server.js';
import { forEachStore, freshStore, type TestStore } from '../support/stores.js';

forEachStore('job runner', (kind) => {
  let ts: TestStore;
  let clock: TestClock;
  let runner: JobRunner | undefined;
  beforeEach(async () => {
    ts = await freshStore(kind);
    clock = new TestClock();
  });
  afterEach(async () => {
    await runner?.stop();
    runner = undefined;
    await ts.drop();
  });

  const make = (handlers: Record<string, JobHandler>, maxAttempts = 3) =>
    (runner = createJobRunner({ store: ts.store, clock, logger: pino({ level: 'silent' }), handlers, maxAttempts, random: () => 0.5 }));
  const job = (id: string) => ts.store.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const add = (id: string, kindOf = 'work', runAt = clock.now()) => enqueueJob(ts.store.db, { id, kind: kindOf, callId: null, payload: { n: id }, runAt }, clock.now());

  it('keeps one job per key: the same work asked for twice is added once', async () => {
    expect(await add('j1')).to.equal(true);
    expect(await add('j1')).to.equal(false);
    expect(
      Number(
        (
          await ts.store.db
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).to.equal(1);
  });

  it('gives the handler its payload, and marks the job done when it says so', async () => {
    const seen: unknown[] = [];
    const r = make({ work: async (payload) => (seen.push(payload), { done: true }) });
    await add('j1');
    expect(await r.tick()).to.equal(1);
    expect(seen).to.deep.equal([{ n: 'j1' }]);
    expect(await job('j1')).to.include({ state: 'done', run_at: null, attempts: 1, last_error: null, lease_owner: null });
    expect(await r.tick()).to.equal(0);
  });

  it('runs a job again at the time its handler asks, keeping the error meanwhile', async () => {
    let calls = 0;
    const r = make({ work: async () => (++calls === 1 ? { retryAt: clock.now() + 10_000, error: 'not yet' } : { done: true }) });
    await add('j1');
    await r.tick();
    expect(await job('j1')).to.include({ state: 'pending', run_at: clock.now() + 10_000, attempts: 1, last_error: 'not yet' });
    clock.advance(9_999);
    expect(await r.tick()).to.equal(0);
    clock.advance(1);
    expect(await r.tick()).to.equal(1);
    expect(await job('j1')).to.include({ state: 'done', attempts: 2 });
  });

  it('fails a job for good when its handler says so', async () => {
    const r = make({ work: async () => ({ failed: 'the recording is gone' }) });
    await add('j1');
    await r.tick();
    expect(await job('j1')).to.include({ state: 'failed', run_at: null, attempts: 1, last_error: 'the recording is gone' });
  });

  it('retries a handler that throws on a back-off (1 s, 2 s, …), and fails the job after its last try', async () => {
    const r = make({
      work: async () => {
        throw new Error('boom');
      },
    });
    await add('j1');
    await r.tick();
    expect(await job('j1')).to.include({ state: 'pending', run_at: clock.now() + 1000, attempts: 1, last_error: 'boom' });
    clock.advance(1000);
    await r.tick();
    expect(await job('j1')).to.include({ state: 'pending', run_at: clock.now() + 2000, attempts: 2, last_error: 'boom' });
    clock.advance(2000);
    await r.tick();
    expect(await job('j1')).to.include({ state: 'failed', run_at: null, attempts: 3, last_error: 'boom (tried 3 times)' });
    clock.advance(3600_000);
    expect(await r.tick()).to.equal(0);
  });

  it('fails a job of a kind no handler of this process knows', async () => {
    const r = make({});
    await add('j1', 'mystery');
    await r.tick();
    expect(await job('j1')).to.include({ state: 'failed', attempts: 1, last_error: 'no handler for jobs of kind mystery in this process' });
  });

  it('leaves a job that is not due yet alone', async () => {
    const r = make({ work: async () => ({ done: true }) });
    await add('j1', 'work', clock.now() + 5000);
    expect(await r.tick()).to.equal(0);
    expect(await job('j1')).to.include({ state: 'pending', attempts: 0 });
  });
});
