// The batch runner: a batch is a job on the durable queue, like a call, and its step releases the
// batch's next calls, in index order, as calls of it end. The step runs under the batch's lease, so one worker at
// a time releases a batch's calls, whatever the number of worker processes: that is what keeps the batch's live
// calls at most max_concurrency. Its write is fenced by the lease and inserts the calls with the new cursor
// (`released`) in one transaction, so a worker killed mid-step releases nothing twice and loses nothing.
//
// A step: count the batch's live calls (queued, dialing, in_progress: released and not ended); release up to
// max_concurrency of them, as many as the account's plan has minutes for (none: the batch is `paused`,
// over_minute_cap, and looks again later); complete the batch when every call is released and none is live. A
// call of the batch that ends makes the batch due at once (its call hooks, batch-hooks.ts); the batch also looks every POLL_MS.
import { randomUUID } from 'node:crypto';
import type { Insertable, Selectable } from 'kysely';
import type { Logger } from 'pino';
import { accountAllowance, remainingMinutes } from '../accounts/minute-billing.js';
import { nextOpening } from '../schedule/calling-window.js';
import type { PreparedCall } from '../placement/prepare-placement.js';
import type { Clock } from '../clock.js';
import { JobQueue, LeaseLost, type NewRow, type QueueTable } from '../jobs/job-queue.js';
import { WorkerLoop } from '../jobs/worker-loop.js';
import { v7 as uuidv7 } from 'uuid';
import { NOT_STARTED } from '../store/calls-repo.js';
import { countBatchCallsIn } from '../store/calls/batch-calls.js';
import type { BatchesTable, CallsTable } from '../store/schema.js';
import type { Executor, Store } from '../store/store.js';
import { batchEventRow, endedCounts } from './batch-events.js';
import { batchItemsBetween } from '../store/batches/batches.js';
import { insertEvents } from '../store/webhooks/events.js';

export type BatchRow = Selectable<BatchesTable>;

/** The batches as a queue: a batch is due at next_run_at, and done (null) once it has ended. */
const BATCHES: QueueTable = { table: 'batches', key: 'id', due: 'next_run_at' };

/** How often a running batch looks, besides being made due when one of its calls ends. */
export const BATCH_POLL_MS = 5_000;
/** How often a batch paused at the minute cap looks for minutes. */
export const BATCH_PAUSE_RETRY_MS = 60_000;
/** Statuses of a batch's calls that hold one of its concurrency slots: released and not ended. */
export const LIVE_STATUSES = ['queued', 'dialing', 'in_progress'] as const;
const ENDED = new Set(['completed', 'canceled', 'stopped']);

export interface BatchRunnerDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  leaseMs: number;
  concurrency: number;
  idlePollMs: number;
  owner?: string;
}

export class BatchRunner {
  readonly owner: string;
  private readonly queue: JobQueue<BatchRow>;
  private readonly loop: WorkerLoop<BatchRow>;

  constructor(private readonly deps: BatchRunnerDeps) {
    const { store, clock, logger } = deps;
    this.owner = deps.owner ?? `batches-${randomUUID()}`;
    const queue = (this.queue = new JobQueue<BatchRow>(store, BATCHES, this.owner, deps.leaseMs));
    this.loop = new WorkerLoop<BatchRow>(
      {
        claim: (limit, running) => queue.claim(clock.now(), limit, running),
        key: (row) => row.id,
        run: (row) => this.stepSafely(row),
        nextDueAt: (running) => queue.nextDueAt(running),
        release: () => queue.releaseAll(),
      },
      { concurrency: deps.concurrency, idleMs: deps.idlePollMs, wakeOn: { store, topic: 'batches' } },
      clock,
      logger,
    );
  }

  /** Steps every batch due now, once each; returns how many were stepped. */
  tick(): Promise<number> {
    return this.loop.tick();
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async stepSafely(row: BatchRow): Promise<void> {
    try {
      await this.step(row);
    } catch (err) {
      if (err instanceof LeaseLost) return;
      this.deps.logger.error({ err, batchId: row.id }, 'batch step failed; will retry');
      await this.queue.release(row, this.deps.clock.now() + 1000).catch(() => {});
    }
  }

  private async step(batch: BatchRow): Promise<void> {
    const { store, clock } = this.deps;
    const now = clock.now();
    if (ENDED.has(batch.status)) {
      await this.queue.commit(batch, { set: { next_run_at: null } });
      return;
    }
    const live = await liveCalls(store, batch.id);
    const remaining = batch.total - batch.released;
    const started = batch.started_at === null ? { started_at: now } : {};
    if (remaining === 0) {
      // Every call is released: the batch ends with its last call.
      if (live > 0) {
        await this.queue.commit(batch, { set: { ...started, status: 'running', updated_at: now, next_run_at: now + BATCH_POLL_MS } });
        return;
      }
      // Its event is written in the same transaction as its ending, with its calls counted there.
      const announce = async (ex: Executor, ended: BatchRow) => {
        await insertEvents(ex, [batchEventRow(ended, 'completed', await endedCounts(ex, ended), now)]);
      };
      await this.queue.commit(batch, { set: { ...started, status: 'completed', ended_at: now, updated_at: now, next_run_at: null }, alsoRun: announce });
      return;
    }
    const room = Math.max(0, batch.max_concurrency - live);
    if (room === 0) {
      await this.queue.commit(batch, { set: { ...started, status: 'running', stop_reason: null, updated_at: now, next_run_at: now + BATCH_POLL_MS } });
      return;
    }
    // Each released call reserves a minute of the plan, as a placement does; with none left the batch waits.
    const minutes = remainingMinutes(await accountAllowance(store.db, batch.account_id, now));
    const n = Math.min(room, remaining, minutes);
    if (n === 0) {
      await this.queue.commit(batch, { set: { ...started, status: 'paused', stop_reason: 'over_minute_cap', updated_at: now, next_run_at: now + BATCH_PAUSE_RETRY_MS } });
      return;
    }
    const items = await batchItemsBetween(store.db, batch.id, batch.released, batch.released + n);
    const calls: NewRow[] = items.map((item) => ({ into: 'calls', values: releasedCall(batch, item.idx, JSON.parse(item.call_json) as PreparedCall, now) }));
    await this.queue.commit(batch, {
      set: { ...started, status: 'running', stop_reason: null, released: batch.released + items.length, updated_at: now, next_run_at: now + BATCH_POLL_MS },
      insert: () => calls,
    });
  }
}

/** How many of the batch's calls hold a slot: released and not ended. */
export async function liveCalls(store: Store, batchId: string): Promise<number> {
  const row = await countBatchCallsIn(store.db, batchId, LIVE_STATUSES);
  return Number(row?.n ?? 0);
}

/**
 * A batch's call as released for its row `index`: queued, due now (or at its calling window's next opening, read
 * now: the window was checked when the batch was created, and time has passed since).
 */
function releasedCall(batch: BatchRow, index: number, call: PreparedCall, now: number): Insertable<CallsTable> {
  const at = call.callingWindow === null ? now : (nextOpening(call.callingWindow, now) ?? now);
  return {
    id: uuidv7(),
    account_id: batch.account_id,
    api_key_id: batch.api_key_id,
    status: 'queued',
    to_number: call.to,
    objective: call.objective,
    context: call.context,
    fields_json: call.fields ? JSON.stringify(call.fields) : null,
    webhook_url: call.webhookUrl,
    // Resolved to the account's number when the batch was created (checkBatchAccount).
    caller_id: call.callerId!,
    voice: call.voice,
    language: call.language,
    language_source: call.languageSource,
    ...NOT_STARTED,
    created_at: now,
    updated_at: now,
    next_run_at: at,
    metadata_json: call.metadata === null ? null : JSON.stringify(call.metadata),
    voicemail_message: call.voicemailMessage,
    scheduled_at: call.callingWindow === null ? null : at,
    redial_json: call.redial === null ? null : JSON.stringify(call.redial),
    previous_call_id: null,
    calling_window_json: call.callingWindow === null ? null : JSON.stringify(call.callingWindow),
    batch_id: batch.id,
    batch_index: index,
    machine_detection: call.machineDetection,
    // A call stored before these two existed says nothing of them: no one named, and the notice.
    on_behalf_of: call.onBehalfOf ?? null,
    recording_notice: call.recordingNotice === false ? 0 : 1,
    send_digits: call.sendDigits ?? null,
    tools_json: call.tools ? JSON.stringify(call.tools) : null,
    transfer_json: call.transfer ? JSON.stringify(call.transfer) : null,
    hold_max_wait_sec: call.holdMaxWaitSec ?? null,
  };
}
