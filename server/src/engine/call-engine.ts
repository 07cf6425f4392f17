// The call engine: runs every call from queued to a terminal status, durably. Calls are rows; a worker claims
// the due ones with a lease, works out what happened (the carrier's news, the conversation's end), applies the
// pure state machine and commits the new state with its webhook event. Nothing a call needs is held only in
// memory, so a worker can die at any point and another picks the call up where the store says it is.
//
// Dialling is at most once: the attempt is committed before the carrier is asked, and a call found with an
// attempt but no carrier reference ends failed (engine_interrupted), never dialled again.
//
// A cancel (calls/cancel.ts) ends a call not yet dialled itself; one being dialled or live it marks
// (cancel_requested_at) and makes due. The engine then reads what happened on the line before the cancel, which
// stands, and takes the line down: a call still ringing ends canceled, an answered one is hung up at the cancel
// and ends completed with what was said by then.
import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { Logger } from 'pino';
import { isListed, optOutEntry } from '../accounts/do-not-call.js';
import { countTowardStop } from '../batches/batch-stop.js';
import { accountAllowance, talkAllowanceMs } from '../accounts/minute-billing.js';
import type { Analyst, EndReason } from '../analysis/analyst.js';
import { nextOpening, type AppliedWindow } from '../calls/calling-window.js';
import type { Clock } from '../clock.js';
import type { CallEventName, CallStatus, ExtractedValues } from '../generated/types.gen.js';
import { backoffMs } from '../jobs/backoff.js';
import { JobQueue, LeaseLost, type NewRow, type QueueTable } from '../jobs/job-queue.js';
import { WorkerLoop } from '../jobs/worker-loop.js';
import { recordingRequestJson, type Tone } from '../recording/recorder.js';
import type { CallRow } from '../store/calls-repo.js';
import type { CallsTable } from '../store/schema.js';
import type { Executor, RowFilter, Store } from '../store/store.js';
import { CarrierRefused, CarrierThrottled, type Carrier, type LineEvent } from '../telephony/carrier.js';
import { isLive, type AnyAgent } from '../voice-agent/agent.js';
import { briefOf, formatTranscript, recordTurns, speechMs, timeTurns, type TimedTurn } from '../voice-agent/conversation.js';
import { eventRow } from '../webhooks/outbox.js';
import { statusChangeRow } from '../calls/status-log.js';
import { scriptedTurnRows, settleTurns } from '../voice-agent/recorded-turns.js';
import { transition, type CallErrorToken, type EngineEvent } from './call-state.js';
import { redialFor } from './redial.js';

export interface EngineSettings {
  maxCallDurationSec: number;
  /** How long a claim lasts; a worker that dies loses its calls to another after this. */
  leaseMs: number;
  /** Call-time seconds a dialling call may go without news from the carrier before it is ended. */
  watchdogSec: number;
  /** Calls one worker steps at once in each of its lanes (calls to dial, calls on a line). */
  concurrency: number;
  /** Longest wait between looks at the store when nothing is due. */
  idlePollMs: number;
}

export interface EngineDeps {
  store: Store;
  clock: Clock;
  carrier: Carrier;
  agent: AnyAgent;
  analyst: Analyst;
  logger: Logger;
  settings: EngineSettings;
  /** Names this worker's leases; random by default. */
  owner?: string;
  /** Jitter source, in [0, 1). */
  random?: () => number;
}

/** The conversation once the call is answered: everything needed to finish it after a restart. */
interface Talk {
  answeredAt: number;
  /** The scripted conversation; a live agent's turns are read from it when the call ends. */
  turns: TimedTurn[];
  /** Call-time ms the conversation lasts: the script's length, or where the engine cuts it. */
  talkMs: number;
  reason: EndReason;
  /** Wall-clock ms the conversation ends (for a live agent: when the engine hangs up unless the line ends first). */
  endsAt: number;
  live?: boolean;
}

/** A dial the carrier throttled: when the first was attempted, and how many were. */
interface Throttle {
  since: number;
  tries: number;
}

/** A voicemail message being left: planned when the machine's greeting ended; the line is hung up at endsAt. */
interface VoicemailDrop {
  /** Wall-clock ms the machine picked up. */
  pickedUpAt: number;
  /** The machine's greeting (when the carrier told it) and the message, in call-time ms from the pick-up. */
  turns: TimedTurn[];
  tones: Tone[];
  /** Call-time ms connected to the machine once the message is over. */
  talkMs: number;
  endsAt: number;
}

interface EngineState {
  line: unknown;
  talk?: Talk;
  throttle?: Throttle;
  voicemail?: VoicemailDrop;
}

/** After the message, a moment of silence before the hang-up, so the machine keeps the message's last word. */
const MESSAGE_TAIL_MS = 500;
/** The beep's pitch, where the carrier told of it (the sandbox's machine). */
const BEEP_HZ = 1000;

/** Dialling again after the carrier throttled: 1 s, 2 s, 4 s, … up to 30 s (Twilio allows about one call a second). */
const DIAL_BACKOFF = { baseMs: 1000, maxMs: 30_000 };

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
 * analysis by an LLM); in one shared set of slots those steps held every slot once calls ended faster than that,
 * and new calls waited behind them to be dialled.
 */
export const LANES = {
  dial: { column: 'carrier_ref', value: null },
  line: { column: 'carrier_ref', value: null, not: true },
} as const satisfies Record<string, RowFilter>;
type Lane = keyof typeof LANES;
/** The lanes in the order a claim fills them: calls to dial first. */
const LANE_ORDER: readonly Lane[] = ['dial', 'line'];
const laneOf = (row: CallRow): Lane => (row.carrier_ref === null ? 'dial' : 'line');

/** A step's write: the call's new columns, when it is next due, and the event the change emits. */
interface Commit {
  set: Updateable<CallsTable>;
  /** When the call is next due; null once terminal. */
  nextRunAt: number | null;
  /** Keep the lease (the step continues after this write) or give it up. */
  keepLease?: boolean;
  /** The webhook event the change emits, enqueued in the same transaction. */
  event?: CallEventName | null;
  /** Rows inserted in the same transaction besides the event (a redial). */
  also?: NewRow[];
  /** Statements run in the same transaction after it, given the call as written (a batch's stop condition). */
  alsoRun?: (ex: Executor, written: CallRow) => Promise<void>;
}

/** The turns' rows settled to what was said, in the transaction that ends the call (voice-agent/recorded-turns.ts). */
const settled = (callId: string, said: readonly TimedTurn[], connectedMs: number) => (ex: Executor, written: CallRow) =>
  settleTurns(ex, callId, said, connectedMs, written.ended_at ?? written.updated_at);

export class CallEngine {
  readonly owner: string;
  private readonly queue: JobQueue<CallRow>;
  private readonly loop: WorkerLoop<CallRow>;
  /** Steps running in each lane. */
  private readonly busy: Record<Lane, number> = { dial: 0, line: 0 };

  constructor(private readonly deps: EngineDeps) {
    const { store, settings, clock, logger } = deps;
    this.owner = deps.owner ?? `worker-${randomUUID()}`;
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
    const written = await this.queue.commit(row, { set: { ...recovered, ...c.set, next_run_at: c.nextRunAt, updated_at: now }, keepLease: c.keepLease, insert: inserts ? outboxRow : undefined, alsoRun: c.alsoRun });
    // A cancel that came in while this step ran made the call due then, and this step's write has just put its due
    // time back: bring it forward again. (A step that sees the cancel ends the call, so this does not repeat.)
    if (!c.keepLease && c.nextRunAt !== null && c.nextRunAt > now && written.cancel_requested_at !== null) {
      await this.deps.store.db
        .updateTable('calls')
        .set({ next_run_at: now })
        .where('id', '=', written.id)
        .where('lease_owner', 'is', null)
        .where('next_run_at', '>', now)
        .execute();
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
        return this.dial(row);
      case 'dialing':
        // No attempt stands and no line was dialled: the carrier throttled the last dial, so dial again.
        return notDialled ? this.dial(row) : this.followLine(row);
      case 'in_progress':
        return this.followLine(row);
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
    // A batch's call that ends frees one of the batch's slots: the batch is due now to release the next (were this
    // lost, the batch's own poll finds it).
    if (written.batch_id !== null && written.ended_at !== null && row.ended_at === null) {
      await this.deps.store.db
        .updateTable('batches')
        .set({ next_run_at: now })
        .where('id', '=', written.batch_id)
        .where('next_run_at', '>', now)
        .execute()
        .catch((err: unknown) => this.deps.logger.warn({ err, batchId: written.batch_id }, 'could not make the batch due; its poll will'));
    }
    return written;
  }

  private async dial(row: CallRow): Promise<void> {
    const { carrier, clock } = this.deps;
    const now = clock.now();
    const throttle = (JSON.parse(row.engine_state ?? '{}') as EngineState).throttle;
    // The attempt is durable before the carrier hears of it; the lease stays on for the dial itself.
    const attempted = await this.commit(row, now, { set: transition(row.status as CallStatus, { type: 'dial_started', at: now }).patch, nextRunAt: now, keepLease: true });
    let dialled;
    try {
      dialled = await carrier.dial({ callId: row.id, to: row.to_number, callerId: row.caller_id, language: row.language ?? 'en-US', leaveMessage: row.voicemail_message !== null }, now);
    } catch (err) {
      if (err instanceof CarrierThrottled) return this.throttled(attempted, throttle, err);
      const token: CallErrorToken = err instanceof CarrierRefused ? err.token : 'dial_failed';
      if (!(err instanceof CarrierRefused)) this.deps.logger.error({ err, callId: row.id }, 'carrier dial failed');
      await this.apply(attempted, { type: 'ended', at: clock.now(), outcome: 'failed', error: token }, {}, null);
      return;
    }
    try {
      await this.commit(attempted, clock.now(), { set: { carrier_ref: dialled.ref, engine_state: JSON.stringify({ line: dialled.state } satisfies EngineState) }, nextRunAt: clock.now() });
    } catch (err) {
      // Another worker took the call over and will end it engine_interrupted: take the line down with it.
      await carrier.hangUp(dialled.ref, dialled.state, clock.now()).catch(() => {});
      throw err;
    }
  }

  /**
   * The carrier did not take the dial (Twilio's 429): nothing was placed. The call stays dialing with no attempt
   * standing and is dialled again on a back-off (the carrier's Retry-After when it gave one), for as long as the
   * watchdog would wait for news of a dialled call; then it fails carrier_throttled.
   */
  private async throttled(row: CallRow, previous: Throttle | undefined, err: CarrierThrottled): Promise<void> {
    const { clock, settings, carrier, random = Math.random } = this.deps;
    const now = clock.now();
    const throttle: Throttle = { since: previous?.since ?? row.dial_attempted_at!, tries: (previous?.tries ?? 0) + 1 };
    const engineState = JSON.stringify({ line: null, throttle } satisfies EngineState);
    if (now - throttle.since >= Math.round(settings.watchdogSec * 1000 * carrier.timeScale)) {
      this.deps.logger.warn({ callId: row.id, tries: throttle.tries }, 'the carrier kept throttling the dial; the call fails');
      await this.apply(row, { type: 'throttled_out', at: now }, { engine_state: engineState }, null);
      return;
    }
    const retryAt = now + backoffMs(DIAL_BACKOFF, throttle.tries, random, err.retryAfterMs);
    this.deps.logger.warn({ callId: row.id, tries: throttle.tries, retryAt: new Date(retryAt).toISOString() }, 'the carrier throttled the dial; dialling again later');
    await this.apply(row, { type: 'dial_throttled', at: now }, { engine_state: engineState }, retryAt);
  }

  private async followLine(row: CallRow): Promise<void> {
    const { carrier, clock, settings } = this.deps;
    const now = clock.now();
    if (row.carrier_ref === null) {
      await this.apply(row, { type: 'interrupted', at: now }, {}, null);
      return;
    }
    const state = JSON.parse(row.engine_state ?? '{}') as EngineState;
    const lineBefore = state.line;
    const news = await carrier.check(row.carrier_ref, state.line, now);
    state.line = news.state;
    const canceledAt = row.cancel_requested_at;
    let current = row;
    for (const e of news.events) {
      if (state.talk && e.at >= state.talk.endsAt) break; // the conversation ended first; the engine hung up
      if (canceledAt !== null && e.at >= canceledAt) break; // the client canceled first; the engine hangs up
      const done = await this.onLineEvent(current, state, e, lineBefore);
      if (done === 'terminal') return;
      current = done;
    }
    if (state.voicemail && current.status === 'dialing') {
      // Leaving a message: hung up when it is over, or where a cancel cut it (then it was not left).
      const vm = state.voicemail;
      const cut = canceledAt !== null && canceledAt < vm.endsAt ? canceledAt : null;
      if (now >= (cut ?? vm.endsAt)) {
        await carrier.hangUp(current.carrier_ref!, state.line, now);
        const connectedMs = cut === null ? vm.talkMs : Math.max(0, Math.round((cut - vm.pickedUpAt) / carrier.timeScale));
        await this.finishVoicemail(current, state, connectedMs, cut === null);
        return;
      }
    }
    if (canceledAt !== null && current.status === 'dialing' && !state.voicemail) {
      // Never answered before the cancel: the line is taken down and the call was never connected.
      await carrier.hangUp(current.carrier_ref!, state.line, now);
      await this.apply(current, { type: 'canceled', at: now }, { engine_state: JSON.stringify(state) }, null);
      return;
    }
    if (canceledAt !== null && current.status === 'in_progress' && state.talk && canceledAt < state.talk.endsAt) {
      // Answered before the cancel: the conversation is cut where the cancel came, and ends as the client's.
      const talkMs = Math.max(0, Math.min(state.talk.talkMs, Math.round((canceledAt - state.talk.answeredAt) / carrier.timeScale)));
      state.talk = { ...state.talk, talkMs, endsAt: canceledAt, reason: 'canceled' };
    }
    if (current.status === 'in_progress' && state.talk && now >= state.talk.endsAt) {
      // The carrier ends the line, or keeps trying durably: a step that fails here is stepped again.
      await carrier.hangUp(current.carrier_ref!, state.line, now);
      await this.finish(current, state.talk, { type: 'conversation_over', at: now, connectedMs: state.talk.talkMs });
      return;
    }
    // A machine taking a message has answered: the carrier is not silent, and the message has its own end.
    const watchdogAt = current.status === 'dialing' && !state.voicemail ? current.dial_attempted_at! + Math.round(settings.watchdogSec * 1000 * carrier.timeScale) : Infinity;
    if (current.status === 'dialing' && now >= watchdogAt) {
      await carrier.hangUp(current.carrier_ref!, state.line, now);
      await this.apply(current, { type: 'carrier_silent', at: now }, { engine_state: JSON.stringify(state) }, null);
      return;
    }
    const next = Math.min(news.nextCheckAt ?? Infinity, state.talk?.endsAt ?? Infinity, state.voicemail?.endsAt ?? Infinity, watchdogAt);
    await this.commit(current, now, { set: { engine_state: JSON.stringify(state) }, nextRunAt: Number.isFinite(next) ? next : now + settings.idlePollMs });
  }

  /**
   * Applies one line event; returns the updated row, or 'terminal' when the call ended. The answer is committed
   * with the line as it was before this look, so a worker carrying on after this step was cut short reads again
   * what came after the answer (a drop); the answer it then reads again is ignored.
   */
  private async onLineEvent(row: CallRow, state: EngineState, e: LineEvent, lineBefore: unknown): Promise<CallRow | 'terminal'> {
    if (e.kind === 'answered') {
      if (row.status !== 'dialing') return row;
      state.talk = await this.planTalk(row, e.at);
      // A scripted conversation's turns are written now, each to be heard on the streams as its end is reached.
      const turns = scriptedTurnRows(row.id, state.talk.turns, e.at, this.deps.carrier.timeScale).map((values) => ({ into: 'call_turns' as const, values, keepExisting: ['call_id', 'seq'] }));
      return this.apply(row, { type: 'answered', at: e.at, by: e.by }, { engine_state: JSON.stringify({ ...state, line: lineBefore }) }, state.talk.endsAt, true, turns);
    }
    if (e.kind === 'greeting_ended') {
      if (row.status !== 'dialing' || state.voicemail) return row;
      if (row.voicemail_message === null) {
        await this.apply(row, { type: 'ended', at: e.at, outcome: 'voicemail', by: 'machine' }, { engine_state: JSON.stringify(state) }, null);
        return 'terminal';
      }
      state.voicemail = await this.planMessage(row, state, e);
      return row;
    }
    if (e.kind === 'ended') {
      if (row.status !== 'dialing') return row; // the line ended after the conversation: nothing more to say
      await this.apply(row, { type: 'ended', at: e.at, outcome: e.outcome, error: e.error, by: e.by }, { engine_state: JSON.stringify(state) }, null);
      return 'terminal';
    }
    if (row.status !== 'in_progress' || !state.talk) return row;
    const connectedMs = Math.max(0, Math.min(state.talk.talkMs, Math.round((e.at - state.talk.answeredAt) / this.deps.carrier.timeScale)));
    if (e.kind === 'hung_up') {
      await this.finish(row, { ...state.talk, talkMs: connectedMs, reason: 'hung_up' }, { type: 'conversation_over', at: e.at, connectedMs });
    } else {
      await this.finish(row, state.talk, { type: 'dropped', at: e.at, connectedMs });
    }
    return 'terminal';
  }

  /**
   * At the answer: how long the call may talk — the maximum duration or the minute allowance left — and, for a
   * scripted agent, the whole conversation, which ends at the script's end or that limit.
   */
  private async planTalk(row: CallRow, answeredAt: number): Promise<Talk> {
    const { agent, carrier, settings, store } = this.deps;
    const maxMs = settings.maxCallDurationSec * 1000;
    const capMs = talkAllowanceMs(await accountAllowance(store.db, row.account_id, answeredAt));
    const limitMs = Math.min(maxMs, capMs);
    const limitReason: EndReason = limitMs === maxMs ? 'max_duration' : 'minute_cap';
    const endsAt = (ms: number) => answeredAt + Math.round(ms * carrier.timeScale);
    if (isLive(agent)) return { answeredAt, turns: [], talkMs: limitMs, reason: limitReason, endsAt: endsAt(limitMs), live: true };
    const turns = timeTurns(await agent.converse(briefOf(row)));
    const scriptMs = turns.length ? turns[turns.length - 1].endMs : 0;
    const talkMs = Math.min(scriptMs, limitMs);
    return { answeredAt, turns, talkMs, reason: scriptMs <= limitMs ? 'hung_up' : limitReason, endsAt: endsAt(talkMs) };
  }

  /**
   * The greeting is over: the message is said from here (by the carrier on a line that carries speech), and the
   * line is hung up after it, within the maximum call duration counted from the machine's pick-up.
   */
  private async planMessage(row: CallRow, state: EngineState, e: Extract<LineEvent, { kind: 'greeting_ended' }>): Promise<VoicemailDrop> {
    const { carrier, settings } = this.deps;
    const text = row.voicemail_message!;
    const startMs = Math.max(0, Math.round((e.at - e.pickedUpAt) / carrier.timeScale));
    const maxMs = settings.maxCallDurationSec * 1000;
    const endMs = Math.min(maxMs, startMs + speechMs(text));
    const turns: TimedTurn[] = [];
    const tones: Tone[] = [];
    if (e.greeting) {
      turns.push({ speaker: 'callee', text: e.greeting.text, startMs: 0, endMs: e.greeting.endMs });
      tones.push({ startMs: e.greeting.beepStartMs, endMs: e.greeting.beepEndMs, hz: BEEP_HZ });
    }
    turns.push({ speaker: 'agent', text, startMs, endMs });
    await carrier.leaveMessage?.(row.carrier_ref!, state.line, { text, language: row.language ?? 'en-US', voice: row.voice ?? 'alloy' }, this.deps.clock.now());
    const talkMs = Math.min(maxMs, endMs + MESSAGE_TAIL_MS);
    return { pickedUpAt: e.pickedUpAt, turns, tones, talkMs, endsAt: e.pickedUpAt + Math.round(talkMs * carrier.timeScale) };
  }

  /** Ends a call whose machine took (or, cut short, began to take) the message: voicemail, billed for its time. */
  private async finishVoicemail(row: CallRow, state: EngineState, connectedMs: number, left: boolean): Promise<void> {
    const { carrier, clock } = this.deps;
    const vm = state.voicemail!;
    const said = vm.turns.filter((t) => t.startMs < connectedMs);
    const recording = carrier.recordsCalls ? {} : { recording_request_json: recordingRequestJson({ turns: said, totalMs: connectedMs, language: row.language ?? 'en-US', tones: vm.tones }) };
    const set = { transcript: said.length ? formatTranscript(said) : null, turns_json: JSON.stringify(recordTurns(said, connectedMs)), ...recording, engine_state: JSON.stringify(state) };
    await this.apply(row, { type: 'voicemail_left', at: clock.now(), pickedUpAt: vm.pickedUpAt, connectedMs, left }, set, null, false, [], settled(row.id, said, connectedMs));
  }

  /**
   * Ends an answered call: the transcript of what was said, what its recording is rendered from, and for a completed
   * call the analysis.
   */
  private async finish(row: CallRow, talk: Talk, e: Extract<EngineEvent, { type: 'conversation_over' | 'dropped' }>): Promise<void> {
    const { agent, analyst, carrier } = this.deps;
    const turns = isLive(agent) ? await agent.turns(row.id) : talk.turns;
    const said = turns.filter((t) => t.startMs < e.connectedMs);
    const transcript = said.length ? formatTranscript(said) : null;
    // A carrier that records the line stores its recording on the call itself; otherwise the call keeps what its
    // recording is rendered from when first asked for (recording/call-recordings.ts).
    const recording = carrier.recordsCalls ? {} : { recording_request_json: recordingRequestJson({ turns: said, totalMs: e.connectedMs, language: row.language ?? 'en-US' }) };
    let summary: string | null = null;
    let extracted: string | null = null;
    let evidence: string | null = null;
    // The callee asked not to be called again: by the live agent's tool during the call, or in the analyst's reading.
    let optOut = isLive(agent) && (await agent.optedOut(row.id));
    let values: ExtractedValues | null = null;
    if (e.type === 'conversation_over') {
      const analysis = await analyst.analyse({ brief: briefOf(row), transcript: transcript ?? '', endReason: talk.reason });
      if (analysis.degraded) this.deps.logger.warn({ callId: row.id, analyst: analyst.name, reason: analysis.degraded }, 'call analysis degraded');
      if (analysis.dropped) this.deps.logger.warn({ callId: row.id, analyst: analyst.name, fields: analysis.dropped }, 'values dropped: their quotes are not in the turns they were said in');
      summary = analysis.summary;
      extracted = analysis.extracted === null ? null : JSON.stringify(analysis.extracted);
      evidence = analysis.evidence === null ? null : JSON.stringify(analysis.evidence);
      optOut ||= analysis.optOut;
      values = analysis.extracted;
    }
    const turnsJson = JSON.stringify(recordTurns(said, e.connectedMs));
    // An opt-out lists the number in the transaction that ends the call, so nothing can dial it in between.
    const listing: NewRow[] = optOut ? [optOutEntry(row, this.deps.clock.now())] : [];
    const set = { transcript, turns_json: turnsJson, ...recording, summary, extracted_json: extracted, evidence_json: evidence, opt_out: optOut ? 1 : 0 };
    // A batch's completed call counts toward its stop condition in the transaction that completes it.
    const batchId = row.batch_id;
    const countStop = batchId !== null && e.type === 'conversation_over' ? (ex: Executor) => countTowardStop(ex, batchId, values, this.deps.clock.now()) : undefined;
    const settle = settled(row.id, said, e.connectedMs);
    await this.apply(row, e, set, null, false, listing, async (ex, written) => {
      await settle(ex, written);
      await countStop?.(ex);
    });
  }
}
