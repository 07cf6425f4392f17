// The one worker loop: keeps up to `concurrency` jobs of one kind running, claims more as slots free up (ahead of
// them, when asked to prefetch), and sleeps on its clock until the next job is due, a job finishes, `idleMs` passes
// or someone nudges it. The call engine, the webhook dispatcher and the sweepers each run on one. stop() drains: no new
// claims, the running jobs finish, then the work gives up whatever it still holds, so another worker takes it
// over at once.
//
// tick() does, without the loop, what is due now and returns how many jobs it ran: tests drive time with it.
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Store } from '../store/store.js';
import type { WakeTopic } from '../store/wakes.js';

/** A kind of work the loop runs. */
export interface Work<Job> {
  /** Claims up to `limit` due jobs, none of those named by `held` (their keys: running, or claimed ahead). */
  claim(limit: number, held: readonly string[]): Promise<Job[]>;
  key(job: Job): string;
  /** Does a job. Its failures are its own to record; a throw is logged and the job comes back with its lease. */
  run(job: Job): Promise<void>;
  /** When the next job not in `held` can be claimed (clock time); null when none is known. */
  nextDueAt(held: readonly string[]): Promise<number | null>;
  /** After a drain: gives up whatever this worker still holds. */
  release(): Promise<unknown>;
  /**
   * Resolves once what finished jobs left to write is written: a job may free its slot before its outcome is
   * committed (a delivery's record), its lease keeping it from being claimed again meanwhile.
   */
  settled?(): Promise<void>;
}

export interface LoopSettings {
  /** Jobs running at once. */
  concurrency: number;
  /** The longest sleep: how soon a job made due by another process is seen. */
  idleMs: number;
  /**
   * Jobs claimed ahead of free slots, so that a slot is filled at once when it frees rather than after a claim;
   * a claim is made once half of them have been started. Default 0: claims are made for free slots only.
   */
  prefetch?: number;
  /** In tick(), a job due again at once (an immediate retry) runs again in the same tick; default false. */
  rerunInTick?: boolean;
  /** The store's wakes of this work's queue (store/wakes.ts): once started, each one nudges the loop. */
  wakeOn?: { store: Pick<Store, 'onWake'>; topic: WakeTopic };
}

/** How long the loop waits after a fault of the store before it looks again. */
const RETRY_AFTER_FAULT_MS = 1000;

/** The jobs of one run of the loop (or of one tick): running, claimed ahead, and the claim under way. */
class Slots<Job> {
  readonly running = new Map<Promise<void>, string>();
  readonly ahead: Job[] = [];
  claiming: Promise<void> | null = null;
  /** The last claim found fewer jobs than it asked for: nothing more is due until a job ends or time passes. */
  drained = false;
  /** Something may have fallen due since the claim under way began: its answer does not say all is claimed. */
  private dueSinceClaim = false;
  fault: unknown = null;
  started = 0;
  /** Draining: no job is started or claimed any more; what was claimed ahead stays for release(). */
  private closed = false;

  constructor(
    private readonly work: Work<Job>,
    private readonly settings: LoopSettings,
    private readonly runJob: (job: Job) => Promise<void>,
    private readonly onEnd: () => void,
    /** Keys never claimed in this run (a tick's jobs already run). */
    private readonly excluded: ReadonlySet<string> = new Set(),
  ) {}

  get free(): number {
    return this.settings.concurrency - this.running.size;
  }

  held(): string[] {
    return [...this.running.values(), ...this.ahead.map((j) => this.work.key(j)), ...this.excluded];
  }

  /** Starts jobs claimed ahead in the free slots, and a claim when more are wanted. */
  pump(): void {
    if (this.closed) return;
    while (this.free > 0 && this.ahead.length > 0) this.start(this.ahead.shift()!);
    const prefetch = this.settings.prefetch ?? 0;
    const want = this.free + prefetch - this.ahead.length;
    if (this.claiming || this.drained || this.fault !== null || want <= 0 || this.ahead.length > prefetch / 2) return;
    this.dueSinceClaim = false;
    this.claiming = this.work
      .claim(want, this.held())
      .then(
        (jobs) => {
          this.ahead.push(...jobs);
          this.drained = jobs.length < want && !this.dueSinceClaim;
        },
        (err: unknown) => {
          this.fault = err;
        },
      )
      .finally(() => {
        this.claiming = null;
        this.pump();
        this.onEnd();
      });
  }

  /**
   * Something may be due now (a job ended, a wake): the next claim is worth making, and one under way, which may
   * have looked before it, is followed by another rather than by a look for the next due time.
   */
  mayBeDue(): void {
    this.drained = false;
    if (this.claiming) this.dueSinceClaim = true;
  }

  /** Waits for the running jobs and the claim under way, starting nothing more. */
  async drain(): Promise<void> {
    this.closed = true;
    while (this.running.size > 0 || this.claiming) await this.progress();
  }

  /** Resolves when a job ends or a claim returns. */
  progress(): Promise<unknown> {
    return Promise.race([...this.running.keys(), ...(this.claiming ? [this.claiming] : [])]);
  }

  get idle(): boolean {
    return this.running.size === 0 && this.ahead.length === 0 && this.claiming === null;
  }

  private start(job: Job): void {
    this.started++;
    const p: Promise<void> = this.runJob(job).finally(() => {
      this.running.delete(p);
      // What ended may have made another job due (a retry, the next step).
      this.mayBeDue();
      this.onEnd();
    });
    this.running.set(p, this.work.key(job));
  }
}

export class WorkerLoop<Job> {
  private loop: Promise<void> | null = null;
  private stopping = false;
  private wake: (() => void) | null = null;
  private woken = false;
  private listening = false;
  /** The slots of the running loop, which a nudge tells at once: the next look claims even if the last found none. */
  private slots: Slots<Job> | null = null;

  constructor(
    private readonly work: Work<Job>,
    private readonly settings: LoopSettings,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Runs jobs as they fall due until stop(). */
  start(): void {
    if (this.loop) return;
    const wake = this.settings.wakeOn;
    if (wake && !this.listening) {
      this.listening = true;
      wake.store.onWake(wake.topic, () => this.nudge());
    }
    this.stopping = false;
    this.loop = this.runLoop();
  }

  /** Something became due (a wake, or work queued in this process): look now rather than at the next poll. */
  nudge(): void {
    this.slots?.mayBeDue();
    this.rouse();
  }

  /** Ends the loop's sleep (a job ended, a claim returned, a nudge). */
  private rouse(): void {
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
    const ran = new Set<string>();
    const slots: Slots<Job> = new Slots(
      this.work,
      this.settings,
      (job) => {
        if (!this.settings.rerunInTick) ran.add(this.work.key(job));
        return this.runSafely(job);
      },
      () => {},
      ran,
    );
    let settledAt = 0;
    for (;;) {
      slots.pump();
      if (!slots.idle) {
        await slots.progress();
        continue;
      }
      // Nothing runs and nothing more was due. What the jobs left to write may make one due again (an immediate
      // retry): once it is written, look once more.
      if (slots.fault !== null || !this.work.settled || settledAt === slots.started) break;
      settledAt = slots.started;
      await this.work.settled();
      slots.drained = false;
    }
    if (slots.fault !== null) throw slots.fault;
    return slots.started;
  }

  private async runLoop(): Promise<void> {
    const slots: Slots<Job> = new Slots(
      this.work,
      this.settings,
      (job) => this.runSafely(job),
      () => this.rouse(),
    );
    this.slots = slots;
    while (!this.stopping) {
      slots.pump();
      if (slots.fault !== null) {
        this.logger.warn({ err: { message: (slots.fault as Error).message } }, 'worker loop fault; retrying');
        await this.sleep(RETRY_AFTER_FAULT_MS);
        slots.fault = null;
        continue;
      }
      let wait = this.settings.idleMs;
      if (slots.drained && slots.free > 0) {
        // Nothing more is due now: sleep until the next job is (a job ending wakes the loop sooner).
        try {
          const next = await this.work.nextDueAt(slots.held());
          if (next !== null) wait = Math.min(wait, next - this.clock.now());
        } catch (err) {
          slots.fault = err;
          continue;
        }
        if (wait <= 0) {
          slots.drained = false;
          // Never spin: with a store that answers synchronously, a loop that does not yield starves HTTP and signals.
          await new Promise((resolve) => setImmediate(resolve));
          continue;
        }
      }
      const timedOut = await this.sleep(wait);
      // The next job's time has come: look again. (Something new that is due has told the slots itself.)
      if (timedOut) slots.drained = false;
    }
    this.slots = null;
    await slots.drain();
    await this.work.settled?.();
  }

  private async runSafely(job: Job): Promise<void> {
    try {
      await this.work.run(job);
    } catch (err) {
      this.logger.error({ err, job: this.work.key(job) }, 'job failed; its lease brings it back');
    }
  }

  /**
   * Sleeps `ms` on the clock, or less when roused; a rousing that came since the last sleep ends this one at once.
   * Resolves true when the whole time passed.
   */
  private sleep(ms: number): Promise<boolean> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve(false);
    }
    return new Promise((resolve) => {
      const done = (timedOut: boolean) => {
        cancel();
        this.wake = null;
        this.woken = false;
        resolve(timedOut);
      };
      const cancel = this.clock.setTimer(ms, () => done(true));
      this.wake = () => done(false);
    });
  }
}

/** Work that runs every `everyMs` of clock time in each process that runs it, not a row of a queue (a sweep of expired records). */
export function periodicWork(name: string, everyMs: number, clock: Clock, run: () => Promise<void>): Work<string> {
  let nextAt = clock.now() + everyMs;
  return {
    claim: async (_limit, held) => (held.length === 0 && clock.now() >= nextAt ? [name] : []),
    key: () => name,
    run: async () => {
      nextAt = clock.now() + everyMs;
      await run();
    },
    nextDueAt: async () => nextAt,
    release: async () => {},
  };
}
