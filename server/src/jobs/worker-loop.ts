// The one worker loop: keeps up to `concurrency` jobs of one kind running, claims more as slots free up, and
// sleeps until the next job is due, a job finishes, `idleMs` passes or someone nudges it. The call engine, the
// webhook dispatcher and the sweepers each run on one. stop() drains: no new claims, the running jobs finish,
// then the work gives up whatever it still holds, so another worker takes it over at once.
//
// tick() does, without the loop, what is due now and returns how many jobs it ran: tests drive time with it.
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';

/** A kind of work the loop runs. */
export interface Work<Job> {
  /** Claims up to `limit` due jobs, none of those named by `running` (their keys). */
  claim(limit: number, running: readonly string[]): Promise<Job[]>;
  key(job: Job): string;
  /** Does a job. Its failures are its own to record; a throw is logged and the job comes back with its lease. */
  run(job: Job): Promise<void>;
  /** When the next job not in `running` can be claimed (clock time); null when none is known. */
  nextDueAt(running: readonly string[]): Promise<number | null>;
  /** After a drain: gives up whatever this worker still holds. */
  release(): Promise<unknown>;
}

export interface LoopSettings {
  /** Jobs running at once. */
  concurrency: number;
  /** The longest sleep: how soon a job made due by another process is seen. */
  idleMs: number;
  /**
   * Claims wait until this many slots are free (or none runs), so claims come in batches under a steady stream
   * of short jobs; default 1.
   */
  claimBatch?: number;
  /** In tick(), a job due again at once (an immediate retry) runs again in the same tick; default false. */
  rerunInTick?: boolean;
}

/** How long the loop waits after a fault of the store before it looks again. */
const RETRY_AFTER_FAULT_MS = 1000;

export class WorkerLoop<Job> {
  private readonly running = new Map<Promise<void>, string>();
  private loop: Promise<void> | null = null;
  private stopping = false;
  private wake: (() => void) | null = null;
  private woken = false;

  constructor(
    private readonly work: Work<Job>,
    private readonly settings: LoopSettings,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Runs jobs as they fall due until stop(). */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.loop = this.runLoop();
  }

  /** Something became due (work queued in this process): look now rather than at the next poll. */
  nudge(): void {
    this.woken = true;
    this.wake?.();
  }

  /** Stops claiming, lets the running jobs finish, then gives up what this worker still holds. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.nudge();
    await this.loop;
    this.loop = null;
    await this.work.release();
  }

  /** Runs the jobs due now, and any that fall due while they run, to the end; resolves with how many ran. */
  async tick(): Promise<number> {
    const { concurrency, rerunInTick = false } = this.settings;
    const inFlight = new Map<Promise<void>, string>();
    const ran = new Set<string>();
    let count = 0;
    let fault: unknown = null;
    for (;;) {
      const free = concurrency - inFlight.size;
      let claimed: Job[] = [];
      if (free > 0 && fault === null) {
        const running = [...inFlight.values(), ...(rerunInTick ? [] : ran)];
        claimed = await this.work.claim(free, running).catch((err: unknown) => ((fault = err), []));
      }
      for (const job of claimed) {
        const key = this.work.key(job);
        ran.add(key);
        count++;
        const p: Promise<void> = this.runSafely(job).finally(() => inFlight.delete(p));
        inFlight.set(p, key);
      }
      if (inFlight.size === 0) break;
      await Promise.race(inFlight.keys());
    }
    if (fault !== null) throw fault;
    return count;
  }

  private async runLoop(): Promise<void> {
    const { concurrency, idleMs, claimBatch = 1 } = this.settings;
    while (!this.stopping) {
      try {
        const free = concurrency - this.running.size;
        let wait = idleMs;
        if (free >= Math.min(claimBatch, concurrency) || this.running.size === 0) {
          const claimed = await this.work.claim(free, [...this.running.values()]);
          for (const job of claimed) this.launch(job);
          if (claimed.length === free) continue;
          // A job finishing wakes the loop, so the running ones need not be counted as due.
          const next = await this.work.nextDueAt([...this.running.values()]);
          if (next !== null) wait = Math.min(wait, next - this.clock.now());
        }
        // Never spin: with a synchronous store (better-sqlite3) a loop that does not yield starves HTTP and signals.
        if (wait > 0 && !this.stopping) await this.sleep(wait);
        else await new Promise((resolve) => setImmediate(resolve));
      } catch (err) {
        this.logger.warn({ err: { message: (err as Error).message } }, 'worker loop fault; retrying');
        await this.sleep(RETRY_AFTER_FAULT_MS);
      }
    }
    await Promise.all(this.running.keys());
  }

  private launch(job: Job): void {
    const p: Promise<void> = this.runSafely(job).finally(() => {
      this.running.delete(p);
      this.nudge();
    });
    this.running.set(p, this.work.key(job));
  }

  private async runSafely(job: Job): Promise<void> {
    try {
      await this.work.run(job);
    } catch (err) {
      this.logger.error({ err, job: this.work.key(job) }, 'job failed; its lease brings it back');
    }
  }

  /** Sleeps `ms`, or less when nudged; a nudge that came since the last sleep ends this one at once. */
  private sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}

/**
 * Work that runs every `everyMs` of wall time in each process that runs it, not a row of a queue (a sweep of
 * expired records). Its cadence is real time, so it keeps to it whatever clock the loop is given.
 */
export function periodicWork(name: string, everyMs: number, clock: Clock, run: () => Promise<void>): Work<string> {
  let nextAt = performance.now() + everyMs;
  return {
    claim: async (_limit, running) => (running.length === 0 && performance.now() >= nextAt ? [name] : []),
    key: () => name,
    run: async () => {
      nextAt = performance.now() + everyMs;
      await run();
    },
    nextDueAt: async () => clock.now() + Math.max(0, nextAt - performance.now()),
    release: async () => {},
  };
}
