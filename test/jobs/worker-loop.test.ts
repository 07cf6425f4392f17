// The worker loop over an in-memory work source: how many jobs run at once, what a tick runs, how it sleeps,
// wakes, drains and survives faults.
import { expect } from 'chai';
import { pino } from 'pino';
import { WorkerLoop, type LoopSettings, type Work } from '../../server/src/jobs/worker-loop.js';
import { TestClock } from '../support/server.js';
import { until as waitUntil } from '../support/until.js';

interface Job {
  id: string;
  dueAt: number;
}

/** Jobs in memory; `work(job)` decides what running one does (by default it ends the job). */
class Jobs implements Work<Job> {
  due = new Map<string, number>();
  running = 0;
  mostAtOnce = 0;
  claims: { limit: number; running: readonly string[] }[] = [];
  released = 0;
  runs: string[] = [];
  constructor(
    private readonly clock: TestClock,
    public work: (job: Job) => Promise<void> = async () => {},
  ) {}

  add(id: string, dueAt = this.clock.now()) {
    this.due.set(id, dueAt);
  }
  async claim(limit: number, running: readonly string[]) {
    this.claims.push({ limit, running: [...running] });
    const now = this.clock.now();
    const jobs = [...this.due].filter(([id, at]) => at <= now && !running.includes(id)).slice(0, limit);
    for (const [id] of jobs) this.due.delete(id);
    return jobs.map(([id, dueAt]) => ({ id, dueAt }));
  }
  key(job: Job) {
    return job.id;
  }
  async run(job: Job) {
    this.running++;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
    this.runs.push(job.id);
    try {
      await this.work(job);
    } finally {
      this.running--;
    }
  }
  async nextDueAt() {
    const times = [...this.due.values()];
    return times.length ? Math.min(...times) : null;
  }
  async release() {
    this.released++;
  }
}

const logger = pino({ level: 'silent' });
const until = (what: string, cond: () => boolean) => waitUntil(what, cond, 5000, 2);
const tick = () => new Promise((r) => setImmediate(r));

describe('the worker loop', () => {
  let clock: TestClock;
  let loops: WorkerLoop<Job>[];
  beforeEach(() => {
    clock = new TestClock();
    loops = [];
  });
  afterEach(() => Promise.all(loops.map((l) => l.stop())));
  const loop = (jobs: Jobs, settings: Partial<LoopSettings> = {}) => {
    const l = new WorkerLoop(jobs, { concurrency: 4, idleMs: 50, ...settings }, clock, logger);
    loops.push(l);
    return l;
  };

  it('runs every due job, never more than its concurrency at once', async () => {
    const jobs = new Jobs(clock, () => new Promise((r) => setTimeout(r, 2)));
    for (let i = 0; i < 30; i++) jobs.add(`j${i}`);
    loop(jobs, { concurrency: 4 }).start();
    await until('every job to run', () => jobs.runs.length === 30 && jobs.running === 0);
    expect(jobs.mostAtOnce).to.equal(4);
    expect(new Set(jobs.runs).size).to.equal(30);
  });

  it('never claims a job it is still running', async () => {
    let finish!: () => void;
    const held = new Promise<void>((r) => (finish = r));
    const jobs: Jobs = new Jobs(clock, (): Promise<void> => (jobs.runs.length === 1 ? held : Promise.resolve()));
    jobs.add('slow');
    const l = loop(jobs);
    l.start();
    await until('the job to start', () => jobs.running === 1);
    jobs.add('slow'); // due again while it still runs (its lease ran out, say)
    l.nudge();
    await until('another claim', () => jobs.claims.length >= 3);
    expect(jobs.claims.at(-1)!.running).to.deep.equal(['slow']);
    expect(jobs.runs).to.deep.equal(['slow']);
    finish();
    await until('the job to run again once it has ended', () => jobs.runs.length === 2);
  });

  it('sleeps until the next job is due, and a nudge wakes it at once', async () => {
    const jobs = new Jobs(clock);
    const l = loop(jobs, { idleMs: 60_000 });
    l.start();
    await until('the first look', () => jobs.claims.length === 1);
    jobs.add('later', clock.now() + 40);
    l.nudge();
    await until('the look after the nudge', () => jobs.claims.length === 2);
    clock.advance(40); // due now by the clock, which ends the loop's wait (40 ms of the clock's)
    await until('the job to run', () => jobs.runs.length === 1);
    expect(jobs.runs).to.deep.equal(['later']);
  });

  it('claims again at once after a claim that was under way when a nudge came, without looking for the next due time first', async () => {
    const log: string[] = [];
    const jobs = new Jobs(clock, async (job) => void log.push(`run ${job.id}`));
    const look = jobs.nextDueAt.bind(jobs);
    jobs.nextDueAt = () => (log.push('look'), look());
    let letGo: (() => void) | undefined;
    const claim = jobs.claim.bind(jobs);
    jobs.claim = async (limit, running) => {
      log.push('claim');
      const found = await claim(limit, running);
      if (jobs.claims.length === 2) await new Promise<void>((r) => (letGo = r));
      return found;
    };
    const l = loop(jobs, { idleMs: 60_000 });
    l.start();
    await until('the first look, which found nothing', () => log.join() === 'claim,look');
    jobs.add('a');
    l.nudge();
    await until('the claim of a under way', () => letGo !== undefined);
    jobs.add('b'); // written after that claim looked
    l.nudge();
    letGo!();
    await until('b to run', () => log.includes('run b'));
    // a's end may start a claim of its own before b's; what never comes before b is a look for the next due time.
    expect(log.slice(0, log.indexOf('run b')).filter((e) => e === 'look')).to.deep.equal(['look']);
  });

  it('claims ahead when asked to prefetch: a slot that frees is filled from what was claimed, then a claim refills', async () => {
    const finish: (() => void)[] = [];
    const jobs = new Jobs(clock, () => new Promise<void>((r) => finish.push(r)));
    for (let i = 0; i < 8; i++) jobs.add(`j${i}`);
    const l = loop(jobs, { concurrency: 2, prefetch: 2, idleMs: 10 });
    l.start();
    await until('two to run and two claimed ahead', () => jobs.running === 2 && jobs.due.size === 4);
    expect(jobs.claims.map((c) => c.limit)).to.deep.equal([4]);
    finish.shift()!();
    await until('the third to start and a claim to refill', () => jobs.runs.length === 3 && jobs.claims.length === 2);
    // One claimed ahead is left, so the claim asks for one more, and names every job this worker holds.
    expect(jobs.claims[1].limit).to.equal(1);
    expect([...jobs.claims[1].running].sort()).to.deep.equal(['j1', 'j2', 'j3']);
    jobs.work = async () => {};
    while (finish.length) finish.shift()!();
    await until('the rest to run', () => jobs.runs.length === 8);
  });

  it('on stop, starts nothing it claimed ahead, and releases it', async () => {
    const finish: (() => void)[] = [];
    const jobs = new Jobs(clock, () => new Promise<void>((r) => finish.push(r)));
    for (let i = 0; i < 4; i++) jobs.add(`j${i}`);
    const l = loop(jobs, { concurrency: 1, prefetch: 2, idleMs: 10 });
    l.start();
    await until('one to run', () => jobs.running === 1 && jobs.due.size === 1);
    const stopped = l.stop();
    finish.shift()!();
    await stopped;
    expect(jobs.runs).to.deep.equal(['j0']);
    expect(jobs.released).to.equal(1);
  });

  it('stop() claims no more, waits for the running jobs, then releases what it holds', async () => {
    let finish!: () => void;
    const jobs = new Jobs(clock, () => new Promise<void>((r) => (finish = r)));
    jobs.add('a');
    const l = loop(jobs);
    l.start();
    await until('the job to start', () => jobs.running === 1);
    jobs.add('b');
    const stopped = l.stop();
    await tick();
    expect(jobs.released).to.equal(0);
    finish();
    await stopped;
    expect(jobs.released).to.equal(1);
    expect(jobs.runs).to.deep.equal(['a']);
    expect(jobs.due.has('b')).to.equal(true);
  });

  it('goes on after a job throws and after a claim fails', async () => {
    const jobs = new Jobs(clock, async (job) => {
      if (job.id === 'bad') throw new Error('boom');
    });
    const claim = jobs.claim.bind(jobs);
    let failed = false;
    jobs.claim = async (limit, running) => {
      if (!failed) {
        failed = true;
        throw new Error('store down');
      }
      return claim(limit, running);
    };
    jobs.add('bad');
    jobs.add('good');
    const l = new WorkerLoop(jobs, { concurrency: 1, idleMs: 10 }, clock, logger);
    loops.push(l);
    l.start();
    // After the failed claim the loop waits a second of the clock's before it looks again.
    const retryAt = clock.now() + 1000;
    await until('the wait after the failed claim', () => failed && clock.pending().join() === String(retryAt));
    clock.advance(999);
    await tick();
    expect([jobs.runs, clock.pending()]).to.deep.equal([[], [retryAt]]);
    clock.advance(1);
    await until('both jobs to run', () => jobs.runs.length === 2);
    expect(jobs.runs.sort()).to.deep.equal(['bad', 'good']);
  });

  describe('tick()', () => {
    it('runs each job due now once, even one due again at once, and returns how many ran', async () => {
      const jobs = new Jobs(clock);
      jobs.work = async (job) => jobs.add(job.id); // due again at once, like a call dialled and now to be followed
      jobs.add('a');
      jobs.add('b');
      jobs.add('later', clock.now() + 1);
      expect(await loop(jobs).tick()).to.equal(2);
      expect(jobs.runs.sort()).to.deep.equal(['a', 'b']);
    });

    it('with rerunInTick, runs a job again in the same tick while it is due at once (immediate retries)', async () => {
      const jobs = new Jobs(clock);
      let attempts = 0;
      jobs.work = async (job) => {
        if (++attempts < 3) jobs.add(job.id);
      };
      jobs.add('retry');
      expect(await loop(jobs, { rerunInTick: true }).tick()).to.equal(3);
    });

    it('keeps to its concurrency, and reports a claim fault after the running jobs end', async () => {
      const jobs = new Jobs(clock, () => new Promise((r) => setTimeout(r, 1)));
      for (let i = 0; i < 10; i++) jobs.add(`j${i}`);
      expect(await loop(jobs, { concurrency: 3 }).tick()).to.equal(10);
      expect(jobs.mostAtOnce).to.equal(3);
      jobs.claim = async () => {
        throw new Error('store down');
      };
      expect(
        await loop(jobs)
          .tick()
          .catch((e: Error) => e.message),
      ).to.equal('store down');
    });
  });
});
