// What a live agent keeps of each line in the store, whichever kind of agent it is: the turns as they are heard, the
// opt-out, the failure that ended its model, a hold it gave up waiting on, the latency measured, each use of the
// client's tools as it is answered, the handover to a person, and when the session joined the line and when it
// closed with every turn written. The engine, which may run in another process, reads them back as the call ends;
// a session still keeping the callee's last words is waited for (in this process, until it is done; in another,
// until it records its line closed, bounded, as a process that died never does).
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { TimedTurn } from '../conversation/conversation.js';
import type { ToolCall } from '../generated/types.gen.js';
import {
  markAgentUnavailable,
  markHoldTimedOut,
  markLineClosed,
  markLineOpened,
  markOptedOut,
  markTransferred,
  readAgentFailure,
  readHoldTimedOut,
  readLineMarks,
  readOptOut,
  writeCallLatency,
  writeToolCalls,
  type ToolCallsWrite,
} from '../store/calls/agent-line.js';
import { hasEntryForCall } from '../store/do-not-call/do-not-call.js';
import type { Database } from '../store/schema.js';
import type { LiveLine } from '../telephony/live-line.js';
import { recordVoicemailDetected } from '../telephony/machine-screen.js';
import { DEFAULT_LAST_WORDS_MS } from './closing.js';
import { appendTurn, recordedTurns } from './recorded-turns.js';
import { TurnLedger } from './turn-ledger.js';
import { TurnTiming, type CallLatency, type LatencyObserver } from './turn-timing.js';

/** Beyond the last words' own wait, how long the engine waits for a line in another process to record it closed. */
const LINE_CLOSE_SLACK_MS = 2000;
/** How often it looks. */
const LINE_CLOSE_POLL_MS = 50;
/** The uses of client tools a call's record keeps: the first this many (a model that loops on a tool stops counting). */
export const MAX_TOOL_CALLS = 100;
/** The most calls whose tools' uses one statement writes (a few hundred bound parameters: far below either store's limit). */
const TOOL_WRITES_PER_STATEMENT = 200;
/**
 * Uses are written once none has been answered for TOOL_WRITE_QUIET_MS, and at most TOOL_WRITE_WITHIN_MS after the
 * first of them: the uses of a burst (a hundred lines asking the same service) go in one write, made once their
 * answers have gone to their models rather than between them.
 */
const TOOL_WRITE_QUIET_MS = 20;
const TOOL_WRITE_WITHIN_MS = 500;

/** A session on a line in this process, as the records see it. */
export interface HeldSession {
  readonly done: Promise<unknown>;
  readonly keepingLastWords: boolean;
}

/** What a session on one line writes through. */
export interface LineWrites {
  ledger: TurnLedger;
  /** Only the call's opt-out column: the engine, which holds the call's lease, writes the rest as the call ends. */
  recordOptOut(): Promise<void>;
  recordVoicemail(): Promise<void>;
  recordFailure(): Promise<void>;
  /** Records that the agent waited on hold past the call's budget and hangs up. */
  recordHoldTimeout(): Promise<void>;
  /** Adds a use of a client tool to the call's record; resolves once it is written. */
  recordToolCall(call: ToolCall): Promise<void>;
  /** Records the line closed once the session has written every turn (after the ledger closes) and every use of a tool. */
  turnsWritten(): Promise<void>;
  /** Records that the agent handed the call over to `to` and left it (the engine ends the call there). */
  recordTransfer(to: string): Promise<void>;
  /** Whether the number is on the do-not-call list of the call's account now. */
  listed(e164: string): Promise<boolean>;
}

export class LineRecords {
  /** The sessions on lines in this process, by call. */
  private readonly sessions = new Map<string, HeldSession>();
  /** The uses of tools to write, by call (its whole list so far and its uses not yet written), and who waits for them. */
  private readonly toolWritesDue = new Map<string, { list: readonly ToolCall[]; rows: ToolCallsWrite['rows']; waiting: Array<{ resolve(): void; reject(err: unknown): void }> }>();
  /** When the uses due are written, and the latest that may be. */
  private toolWriteTimer: NodeJS.Timeout | null = null;
  private toolWriteBy = 0;
  /** The tools' writes in flight: each batch waits for the one before, so a call's later list is never overwritten by an earlier. */
  private toolWrites: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    /** How long a session keeps waiting for the callee's last words after the line ends. */
    private readonly lastWordsMs: number = DEFAULT_LAST_WORDS_MS,
    private readonly observer: LatencyObserver | null = null,
  ) {}

  /** Opens the records of a line the agent joins; `hold` registers the session once it is built. */
  open(callId: string, line: Pick<LiveLine, 'play' | 'mark' | 'clear'>, logger: Logger): LineWrites {
    const db = this.db;
    const writeLatency = async (latency: CallLatency) => {
      await writeCallLatency(db, callId, JSON.stringify(latency));
    };
    const ledger = new TurnLedger(line, (seq, turn, heardAt) => appendTurn(db, callId, seq, turn, heardAt), logger, callId, { timing: new TurnTiming(this.observer), writeLatency });
    const opened = markLineOpened(db, callId, Date.now());
    opened.catch((err: Error) => logger.error({ callId, err: err.message }, 'could not record the line opened'));
    // The line's tool calls, written whole after each one (each write holds all before it); the line is recorded
    // closed only once the last is written.
    const toolCalls: ToolCall[] = [];
    let toolCallsWritten: Promise<unknown> = Promise.resolve();
    return {
      ledger,
      recordOptOut: async () => {
        await markOptedOut(db, callId);
      },
      recordVoicemail: () => recordVoicemailDetected(db, callId, Date.now()),
      recordFailure: async () => {
        await markAgentUnavailable(db, callId);
      },
      recordHoldTimeout: () => markHoldTimedOut(db, callId, Date.now()),
      recordToolCall: (call) => {
        if (toolCalls.length >= MAX_TOOL_CALLS) return Promise.resolve();
        toolCalls.push(call);
        const seq = toolCalls.length - 1;
        // The streams show the use from its answer, written after the turns begun before it.
        const written = ledger.inOrder().then((at) => this.writeToolCallsSoon(callId, toolCalls, { call_id: callId, seq, at, tool_call_json: JSON.stringify(call) }));
        toolCallsWritten = written.catch(() => undefined);
        return written;
      },
      turnsWritten: async () => {
        await opened.catch(() => undefined);
        await toolCallsWritten;
        await markLineClosed(db, callId, Date.now());
      },
      recordTransfer: (to) => markTransferred(db, callId, to, Date.now()),
      listed: (e164) => hasEntryForCall(db, callId, e164),
    };
  }

  /**
   * Writes a call's tool calls with those of every call whose tools answered in the same burst: calls waiting on
   * their tools at once (a hundred lines asking the same service) cost one write, made after their models have
   * their answers, not one commit each between them.
   */
  private writeToolCallsSoon(callId: string, list: readonly ToolCall[], row: ToolCallsWrite['rows'][number]): Promise<void> {
    const written = new Promise<void>((resolve, reject) => {
      const due = this.toolWritesDue.get(callId);
      if (due) {
        due.rows.push(row);
        due.waiting.push({ resolve, reject });
      } else this.toolWritesDue.set(callId, { list, rows: [row], waiting: [{ resolve, reject }] });
    });
    const now = performance.now();
    if (this.toolWriteTimer === null) {
      this.toolWriteBy = now + TOOL_WRITE_WITHIN_MS;
      this.toolWriteTimer = setTimeout(() => {
        this.toolWriteTimer = null;
        this.writeDueToolCalls();
      }, TOOL_WRITE_QUIET_MS);
    } else if (now + TOOL_WRITE_QUIET_MS <= this.toolWriteBy) {
      // Another use of the burst: the write waits for the burst's end, but no longer than its bound.
      this.toolWriteTimer.refresh();
    }
    return written;
  }

  private writeDueToolCalls(): void {
    // Each call's whole list as it stands now, with the rows of its uses in it not yet written.
    const due = [...this.toolWritesDue].map(([callId, d]) => ({ write: { callId, listJson: JSON.stringify(d.list), rows: d.rows }, waiting: d.waiting }));
    this.toolWritesDue.clear();
    for (let i = 0; i < due.length; i += TOOL_WRITES_PER_STATEMENT) {
      const batch = due.slice(i, i + TOOL_WRITES_PER_STATEMENT);
      const write = () =>
        writeToolCalls(
          this.db,
          batch.map((d) => d.write),
        );
      this.toolWrites = this.toolWrites.then(write, write);
      this.toolWrites.then(
        () => {
          for (const d of batch) for (const w of d.waiting) w.resolve();
        },
        (err: unknown) => {
          for (const d of batch) for (const w of d.waiting) w.reject(err);
        },
      );
    }
  }

  /** Keeps a session of this process until it is done, so `turns` can wait for its last words. */
  hold(callId: string, session: HeldSession): void {
    this.sessions.set(callId, session);
    void session.done.then(() => {
      if (this.sessions.get(callId) === session) this.sessions.delete(callId);
    });
  }

  /** What was said on the line, once the session that held it has written its last words. */
  async turns(callId: string): Promise<TimedTurn[]> {
    const session = this.sessions.get(callId);
    if (session?.keepingLastWords) await session.done;
    else if (!session) await this.lineClosed(callId);
    return recordedTurns(this.db, callId);
  }

  private async lineClosed(callId: string): Promise<void> {
    const deadline = Date.now() + this.lastWordsMs + LINE_CLOSE_SLACK_MS;
    for (;;) {
      const row = await readLineMarks(this.db, callId);
      if (!row || row.line_opened_at === null || row.line_closed_at !== null || Date.now() >= deadline) return;
      // A store poll bounded on the wall: a test's clock does not move it.
      await new Promise((resolve) => setTimeout(resolve, LINE_CLOSE_POLL_MS));
    }
  }

  async optedOut(callId: string): Promise<boolean> {
    const row = await readOptOut(this.db, callId);
    return Number(row?.opt_out ?? 0) === 1;
  }

  async failure(callId: string): Promise<'agent_unavailable' | null> {
    const row = await readAgentFailure(this.db, callId);
    return row?.agent_failure === 'agent_unavailable' ? 'agent_unavailable' : null;
  }

  async heldTooLong(callId: string): Promise<boolean> {
    const row = await readHoldTimedOut(this.db, callId);
    return row?.hold_timed_out_at !== null && row?.hold_timed_out_at !== undefined;
  }
}
