// The call engine: runs every call from queued to a terminal status, durably. Calls are rows; a worker claims
// the due ones with a lease, works out what happened (the carrier's news, the conversation's end), applies the
// pure state machine and commits the new state with its webhook event. This file is the driver (claim, step,
// commit, apply); the phases of a call are beside it: dial.ts, line.ts, voicemail.ts, finish.ts. Nothing a call needs is held only in
// memory, so a worker can die at any point and another picks the call up where the store says it is.
//
// Dialling is at most once: the attempt is committed before the carrier is asked, and a call found with an
// attempt but no carrier reference ends failed (engine_interrupted), never dialled again.
//
// A cancel (placement/cancel.ts) ends a call not yet dialled itself; one being dialled or live it marks
// (cancel_requested_at) and makes due. The engine then reads what happened on the line before the cancel, which
// stands, and takes the line down: a call still ringing ends canceled, an answered one is hung up at the cancel
// and ends completed with what was said by then.
import { randomUUID } from 'node:crypto';
import { isListed } from '../accounts/do-not-call.js';
import { accountAllowance } from '../accounts/minute-billing.js';
import { nextOpening, type AppliedWindow } from '../schedule/calling-window.js';
import type { CallStatus } from '../generated/types.gen.js';
import { backoffMs } from '../jobs/backoff.js';
import { JobQueue, LeaseLost, type NewRow, type QueueTable } from '../jobs/job-queue.js';
import { WorkerLoop } from '../jobs/worker-loop.js';
import type { CallRow } from '../store/calls-repo.js';
import { makeUnleasedDueNow } from '../store/calls/call-due.js';
import type { RowFilter } from '../store/store.js';
import { eventRow } from '../webhooks/outbox.js';
import { statusChangeRow } from '../calls/status-log.js';
import { transition, type EngineEvent } from './call-state.js';
import { dial } from './dial.js';
import { followLine } from './line.js';
import { redialFor } from './redial.js';
import type { Commit, EngineDeps, EngineState, StepContext } from './step-context.js';

export type { EngineDeps, EngineSettings } from './step-context.js';

/**
 * A call whose steps fail this many times in a row ends failed (engine_error) rather than stay live for ever: with
 * the back-off between them (1 s doubling to 30 s, ±20%) that is about a minute and a half of trying. A store that cannot be
 * reached at all fails no step (nothing is claimed), so an outage does not end calls; a step that fails while the
 * store answers (a value it cannot store, a part that throws) does.
 */
const MAX_FAILED_STEPS = 8;
const FAILED_STEP_BACKOFF = { baseMs: 1000, maxMs: 30_000 };

/** The calls as a queue: a call is due at next_run_at, and done (null) once terminal. */
export const CALLS: QueueTable = { table: 'calls', key: 'id', due: 'next_run_at' };

/**
 * The engine's two lanes, each with `concurrency` slots of its own: calls with no line yet (to dial, or to end
 * undialled) and calls on a line (to follow and to end). The end of a call can take seconds (its recording, its
 * analysis by an LLM); in one shared set of slots those steps would hold every slot whenever calls end faster than
 * that, and new calls would wait behind them to be dialled.
 */
export const LANES = {
  dial: { column: 'carrier_ref', value: null },
  line: { column: 'carrier_ref', value: null, not: true },
} as const satisfies Record<string, RowFilter>;
type Lane = keyof typeof LANES;
/** The lanes in the order a claim fills them: calls to dial first. */
const LANE_ORDER: readonly Lane[] = ['dial', 'line'];
const laneOf = (row: CallRow): Lane => (row.carrier_ref === null ? 'dial' : 'line');

export class CallEngine {
  readonly owner: string;
  private readonly queue: JobQueue<CallRow>;
  private readonly loop: WorkerLoop<CallRow>;
  /** Steps running in each lane. */
  private readonly busy: Record<Lane, number> = { dial: 0, line: 0 };
  /** What the phases of a step work with. */
  private readonly ctx: StepContext;

  constructor(private readonly deps: EngineDeps) {
    const { store, settings, clock, logger } = deps;
    this.owner = deps.owner ?? `worker-${randomUUID()}`;
    this.ctx = { deps, commit: (row, now, c) => this.commit(row, now, c), apply: (...args) => this.apply(...args) };
    this.queue = new JobQueue<CallRow>(store, CALLS, this.owner, settings.leaseMs);
    const queue = this.queue;
    this.loop = new WorkerLoop<CallRow>(
      {
        // A step that outlived its lease still runs here: its call is not claimed a second time (the fence tells
        // claims apart, but a second step of this worker would be one more writer on the same call).
        claim: async (limit, running) => {
          const now = clock.now();
          const claimed: CallRow[] = [];
          for (const lane of LANE_ORDER) {
            const room = Math.min(limit - claimed.length, this.room(lane));
            if (room > 0) claimed.push(...(await queue.claim(now, room, running, LANES[lane])));
          }
          return claimed;
        },
        key: (row) => row.id,
        // The loop starts what a claim returned before it claims again, so a lane's count is current at each claim.
        run: async (row) => {
          const lane = laneOf(row);
          this.busy[lane]++;
          try {
            await this.stepSafely(row);
          } finally {
            this.busy[lane]--;
          }
        },
        nextDueAt: (running) => {
          const open = LANE_ORDER.filter((lane) => this.room(lane) > 0);
          if (open.length === 0) return Promise.resolve(null);
          return queue.nextDueAt(running, open.length === 1 ? LANES[open[0]!] : undefined);
        },
        release: () => queue.releaseAll(),
      },
      { concurrency: 2 * settings.concurrency, idleMs: settings.idlePollMs, wakeOn: { store: deps.store, topic: 'calls' } },
      clock,
      logger,
    );
  }

  /** Steps every call due now, each once (at most `concurrency` at a time); returns how many were stepped. */
  tick(): Promise<number> {
    return this.loop.tick();
  }

  /** Runs the loop until stop(): steps calls as they fall due. */
  start(): void {
    this.loop.start();
  }

  /** Finishes the steps in flight, then gives up every lease this worker holds. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Free slots in a lane. */
  private room(lane: Lane): number {
    return this.deps.settings.concurrency - this.busy[lane];
  }

  private async stepSafely(row: CallRow): Promise<void> {
    const { logger, clock, random = Math.random } = this.deps;
    try {
      await this.step(row);
    } catch (err) {
      if (err instanceof LeaseLost) {
        logger.warn({ callId: row.id }, err.message);
        return;
      }
      const failures = row.failed_steps + 1;
      if (failures >= MAX_FAILED_STEPS) {
        logger.error({ err, callId: row.id, status: row.status, failures }, 'engine steps keep failing; the call ends failed (engine_error)');
        try {
          await this.endFailing(row, failures);
          return;
        } catch (e) {
          if (e instanceof LeaseLost) return;
          logger.error({ err: e, callId: row.id }, 'could not end the failing call; trying again');
        }
      } else {
        logger.error({ err, callId: row.id, status: row.status, failures }, 'engine step failed; will retry');
      }
      await this.queue.release(row, clock.now() + backoffMs(FAILED_STEP_BACKOFF, failures, random), { failed_steps: failures }).catch(() => {});
    }
  }

  /**
   * Ends a call that cannot be stepped: failed, engine_error, with its terminal event, writing nothing else of it
   * (what a step failed to write is left out). A dialled line is hung up; an answered call bills its connected
   * time up to now (at most the maximum duration), and its reserved minute is released with its status.
   */
  private async endFailing(row: CallRow, failures: number): Promise<void> {
    const { carrier, clock, settings, logger } = this.deps;
    const now = clock.now();
    if (row.carrier_ref !== null) {
      await carrier.hangUp(row.carrier_ref, (JSON.parse(row.engine_state ?? '{}') as EngineState).line, now).catch((err: unknown) => logger.error({ err, callId: row.id }, 'hang-up failed'));
    }
    const connectedMs = row.status === 'in_progress' && row.started_at !== null ? Math.min(settings.maxCallDurationSec * 1000, Math.max(0, Math.round((now - row.started_at) / carrier.timeScale))) : 0;
    await this.apply(row, { type: 'step_failed', at: now, connectedMs }, { failed_steps: failures }, null);
  }

  /** Writes a step's outcome if this worker still holds the call's lease; throws LeaseLost otherwise. */
  private async commit(row: CallRow, now: number, c: Commit): Promise<CallRow> {
    const event = c.event;
    const changed = c.set.status !== undefined && c.set.status !== row.status;
    // A step that writes only the call's own row (the line's news, its reference) inserts nothing.
    const inserts = Boolean(event) || changed || (c.also?.length ?? 0) > 0;
    const outboxRow = (updated: CallRow): NewRow[] => [
      ...(event ? [{ into: 'webhook_events' as const, values: eventRow(updated, event, now) }] : []),
      ...(changed ? [{ into: 'call_status_changes' as const, values: statusChangeRow(updated, now), keepExisting: ['call_id', 'status'] }] : []),
      ...(c.also ?? []),
    ];
    // A step that gets to its end clears the count of those that failed before it.
    const recovered = !c.keepLease && row.failed_steps > 0 ? { failed_steps: 0 } : {};
    const written = await this.queue.commit(row, {
      set: { ...recovered, ...c.set, next_run_at: c.nextRunAt, updated_at: now },
      keepLease: c.keepLease,
      insert: inserts ? outboxRow : undefined,
      alsoRun: c.alsoRun,
    });
    // A cancel that came in while this step ran made the call due then, and this step's write has just put its due
    // time back: bring it forward again. (A step that sees the cancel ends the call, so this does not repeat.)
    if (!c.keepLease && c.nextRunAt !== null && c.nextRunAt > now && written.cancel_requested_at !== null) {
      await makeUnleasedDueNow(this.deps.store.db, written.id, now);
    }
    return written;
  }

  private async step(row: CallRow): Promise<void> {
    const notDialled = row.status === 'queued' || (row.status === 'dialing' && row.dial_attempted_at === null && row.carrier_ref === null);
    // The cancel ends such a call itself; one it marked while a dial was being throttled is ended here, undialled.
    if (notDialled && row.cancel_requested_at !== null) {
      await this.apply(row, { type: 'canceled', at: this.deps.clock.now() }, {}, null);
      return;
    }
    // The do-not-call list is read again before every dial: a number listed after its call was placed (a
    // scheduled call, one waiting out a throttled dial) is never dialled.
    if (notDialled && (await isListed(this.deps.store.db, row.account_id, row.to_number))) {
      await this.apply(row, { type: 'canceled', at: this.deps.clock.now(), error: 'destination_opted_out' }, {}, null);
      return;
    }
    // A call is dialled only inside its calling window: one whose window has shut by its turn (a queue running
    // late, a restart, a throttled dial) waits, queued, for the next opening.
    if (notDialled && row.calling_window_json !== null) {
      const now = this.deps.clock.now();
      const opening = nextOpening(JSON.parse(row.calling_window_json) as AppliedWindow, now);
      if (opening === null) {
        await this.apply(row, { type: 'canceled', at: now, error: 'outside_calling_window' }, {}, null);
        return;
      }
      if (opening > now) {
        await this.commit(row, now, { set: { scheduled_at: opening }, nextRunAt: opening });
        return;
      }
    }
    // A redial was placed by no request, so the plan is checked when it dials: with the minutes used up (its own
    // reserved minute aside), it ends undialled.
    if (notDialled && row.previous_call_id !== null && row.dial_attempted_at === null) {
      const a = await accountAllowance(this.deps.store.db, row.account_id, this.deps.clock.now());
      if (a.usedMinutes + a.reservedMinutes - 1 >= a.planMinutes) {
        await this.apply(row, { type: 'canceled', at: this.deps.clock.now(), error: 'over_minute_cap' }, {}, null);
        return;
      }
    }
    switch (row.status) {
      case 'queued':
        return dial(this.ctx, row);
      case 'dialing':
        // No attempt stands and no line was dialled: the carrier throttled the last dial, so dial again.
        return notDialled ? dial(this.ctx, row) : followLine(this.ctx, row);
      case 'in_progress':
        return followLine(this.ctx, row);
      default:
        await this.commit(row, this.deps.clock.now(), { set: {}, nextRunAt: null });
    }
  }

  /** Commits a move of the state machine with its fields and event; the lease is kept only while the step goes on. */
  private async apply(row: CallRow, e: EngineEvent, extra: Commit['set'], nextRunAt: number | null, keepLease = false, rows: NewRow[] = [], alsoRun?: Commit['alsoRun']): Promise<CallRow> {
    const t = transition(row.status as CallStatus, e);
    const now = this.deps.clock.now();
    // An ending the call's redial policy covers creates the next call in the same transaction, linked both ways.
    const redial = redialFor(row, t.patch, now);
    const link = redial ? { next_call_id: redial.id } : {};
    const also: NewRow[] = [...rows, ...(redial ? [{ into: 'calls' as const, values: redial.values }] : [])];
    const written = await this.commit(row, now, { set: { ...t.patch, ...extra, ...link }, nextRunAt, event: t.event, keepLease, also, alsoRun });
    if (written.ended_at !== null && row.ended_at === null) await this.deps.hooks.onCallEnded(written, now);
    return written;
  }
}
