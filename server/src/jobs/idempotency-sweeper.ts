// Deletes expired idempotency records. A record is kept for SVC_IDEMPOTENCY_TTL_SEC (24 h by default) and then
// no longer answers (a claim of its key deletes it and starts afresh), but without a sweep it would stay in the
// table for ever. The processes that run workers (role worker or both) sweep every `everyMs` (10 minutes by
// default), in chunks of `chunk` records, oldest first by the expiry index (migration 009), yielding to the event
// loop between chunks, so that no statement holds the write lock for long. It runs on a worker loop of its own
// (jobs/worker-loop.ts). A failed sweep is logged and the next one runs on time; a record it missed is expired
// all the same and is deleted by the next.
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { purgeExpiredIdempotencyKeys } from '../store/idempotency-repo.js';
import type { Store } from '../store/store.js';
import { periodicWork, WorkerLoop } from './worker-loop.js';

export interface IdempotencySweeperOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  everyMs?: number;
  chunk?: number;
}

export interface IdempotencySweeper {
  /** Sweeps now, to the end; resolves with the number of records deleted. */
  sweepNow(): Promise<number>;
  /** Stops the timer and waits for a sweep in progress (which ends after its current chunk). */
  stop(): Promise<void>;
}

const DEFAULT_SWEEP_EVERY_MS = 10 * 60 * 1000;

export function startIdempotencySweeper({ store, clock, logger, everyMs = DEFAULT_SWEEP_EVERY_MS, chunk = 500 }: IdempotencySweeperOptions): IdempotencySweeper {
  let stopped = false;
  let running: Promise<number> | undefined;

  async function sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await purgeExpiredIdempotencyKeys(store.db, clock.now(), chunk);
      total += deleted;
      if (deleted < chunk || stopped) return total;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  function sweepNow(): Promise<number> {
    running ??= sweep().finally(() => {
      running = undefined;
    });
    return running;
  }

  const loop = new WorkerLoop(
    periodicWork('idempotency-sweep', everyMs, clock, () =>
      sweepNow().then(
        (deleted) => {
          if (deleted > 0) logger.info({ deleted }, 'expired idempotency records deleted');
        },
        (err: unknown) => logger.warn({ err }, 'idempotency sweep failed; the next one runs on time'),
      ),
    ),
    { concurrency: 1, idleMs: everyMs },
    clock,
    logger,
  );
  loop.start();

  return {
    sweepNow,
    async stop() {
      stopped = true;
      await loop.stop();
      await running?.catch(() => {});
    },
  };
}
