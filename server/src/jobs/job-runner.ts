// The jobs table's work (timed work with no row of its own elsewhere: a hang-up to retry, a recording to fetch),
// run on the job queue and a worker loop like the calls and the outbox. Each kind has a handler, given by the
// wing that needs it (telephony/twilio/twilio-jobs.ts). A handler says what became of its job: done, due again at
// a time of its choosing, or failed for good. A handler that throws is retried on a back-off, and a job is
// failed once it has been tried `maxAttempts` times, so no job loops for ever.
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Database, JobsTable } from '../store/schema.js';
import type { Store } from '../store/store.js';
import { insertJobIfAbsent } from '../store/jobs/jobs.js';
import { backoffMs } from './backoff.js';
import { JobQueue, LeaseLost, type QueueTable } from './job-queue.js';
import { WorkerLoop } from './worker-loop.js';

export type JobRow = Selectable<JobsTable>;

export type JobResult = { done: true } | { retryAt: number; error: string } | { failed: string };

/** Does one job; `payload` is what it was enqueued with. */
export type JobHandler = (payload: unknown, job: JobRow) => Promise<JobResult>;

export interface NewJob {
  /** The job's key: the same work asked for twice is one job. */
  id: string;
  kind: string;
  callId: string | null;
  payload: unknown;
  runAt: number;
}

/** Adds a job unless one with its key exists; true when it was added. */
export async function enqueueJob(db: Kysely<Database>, job: NewJob, now: number): Promise<boolean> {
  return insertJobIfAbsent(db, {
    id: job.id,
    kind: job.kind,
    call_id: job.callId,
    payload_json: JSON.stringify(job.payload),
    state: 'pending',
    run_at: job.runAt,
    attempts: 0,
    lease_owner: null,
    lease_expires_at: null,
    last_error: null,
    created_at: now,
    updated_at: now,
  });
}

const JOBS: QueueTable = { table: 'jobs', key: 'id', due: 'run_at', only: { column: 'state', value: 'pending' } };

export interface JobRunnerDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  handlers: Readonly<Record<string, JobHandler>>;
  owner?: string;
  concurrency?: number;
  idleMs?: number;
  /** How long a claim lasts; a handler must finish within it. Default 2 minutes. */
  leaseMs?: number;
  /** Tries of a job whose handler throws before it is failed; default 20. */
  maxAttempts?: number;
  random?: () => number;
}

export interface JobRunner {
  tick(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

/** A handler that throws is tried again after 1 s, 2 s, 4 s, … up to 10 minutes. */
const THROWN = { baseMs: 1000, maxMs: 10 * 60_000 };

export function createJobRunner(deps: JobRunnerDeps): JobRunner {
  const { store, clock, logger, handlers } = deps;
  const random = deps.random ?? Math.random;
  const maxAttempts = deps.maxAttempts ?? 20;
  const queue = new JobQueue<JobRow>(store, JOBS, deps.owner ?? `jobs-${randomUUID()}`, deps.leaseMs ?? 120_000);

  async function run(job: JobRow): Promise<void> {
    const attempts = job.attempts + 1;
    const handler = handlers[job.kind];
    let result: JobResult;
    if (!handler) result = { failed: `no handler for jobs of kind ${job.kind} in this process` };
    else {
      try {
        result = await handler(JSON.parse(job.payload_json), job);
      } catch (err) {
        const error = (err as Error).message;
        result = attempts >= maxAttempts ? { failed: `${error} (tried ${attempts} times)` } : { retryAt: clock.now() + backoffMs(THROWN, attempts, random), error };
      }
    }
    const now = clock.now();
    const set =
      'done' in result
        ? { state: 'done', run_at: null, last_error: null }
        : 'failed' in result
          ? { state: 'failed', run_at: null, last_error: result.failed }
          : { run_at: result.retryAt, last_error: result.error };
    if ('failed' in result) logger.error({ job: job.id, kind: job.kind, attempts, error: result.failed }, 'job failed for good');
    else if ('retryAt' in result) logger.warn({ job: job.id, kind: job.kind, attempts, error: result.error, retryAt: new Date(result.retryAt).toISOString() }, 'job to be tried again');
    try {
      await queue.commit(job, { set: { ...set, attempts, updated_at: now } });
    } catch (err) {
      if (!(err instanceof LeaseLost)) throw err;
      logger.warn({ job: job.id }, err.message);
    }
  }

  const loop = new WorkerLoop<JobRow>(
    {
      claim: (limit, held) => queue.claim(clock.now(), limit, held),
      key: (job) => job.id,
      run,
      nextDueAt: (held) => queue.nextDueAt(held),
      release: () => queue.releaseAll(),
    },
    { concurrency: deps.concurrency ?? 8, idleMs: deps.idleMs ?? 1000, rerunInTick: true },
    clock,
    logger,
  );
  return { tick: () => loop.tick(), start: () => loop.start(), stop: () => loop.stop() };
}
