// The realtime speech agent (SVC_AGENT=realtime): a live agent. It joins each answered call's line (the carrier's
// media stream, telephony/live-line.ts) with a session with the model, which writes the turns as they are heard;
// the engine reads them back when the line ends. One agent serves both, built once (main.ts); the two sides
// share only the store, so the line and the engine may run in different processes.
//
// While the phone rings the agent warms the call's session (prepare): the process that does so claims the call
// (calls.agent_host, its internal URL), so the one stream that reaches another process is relayed to it (the
// media bridge); a session that fails for good is recorded on the call (calls.agent_failure) for the engine.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Database } from '../store/schema.js';
import { claimAgentHost, markAgentUnavailable, markLineClosed, markLineOpened, markOptedOut, readAgentFailure, readLineMarks, readOptOut, writeCallLatency } from '../store/calls/agent-line.js';
import { getCall } from '../store/calls/call-by-id.js';
import type { LineAgent, LiveLine } from '../telephony/live-line.js';
import { recordVoicemailDetected } from '../telephony/machine-screen.js';
import { apologyFor } from './apology.js';
import { lineBriefOf, type LineBrief, type TimedTurn } from '../conversation/conversation.js';
import type { LiveAgent } from '../conversation/agent.js';
import { appendTurn, recordedTurns } from './recorded-turns.js';
import { openConfirmedLink } from './realtime-link.js';
import { realtimeProtocol } from './realtime-protocol.js';
import { RealtimeSession, sessionUpdateFor, type RealtimeConnection } from './realtime-session.js';
import { CALL_TOOLS, type ToolRegistry } from './tools.js';
import { TurnLedger } from './turn-ledger.js';
import { TurnTiming, type CallLatency, type LatencyObserver } from './turn-timing.js';
import { WarmLinks } from './warm-links.js';
import { DEFAULT_LAST_WORDS_MS } from './closing.js';

/** Beyond the last words' own wait, how long the engine waits for a line in another process to record it closed. */
const LINE_CLOSE_SLACK_MS = 2000;
/** How often it looks. */
const LINE_CLOSE_POLL_MS = 50;

export interface RealtimeAgentOptions {
  /** This process's internal URL (SVC_INTERNAL_URL): where a stream that lands elsewhere is relayed to. */
  internalUrl?: string;
  /** How long a warm session waits for its stream. */
  warmHoldMs?: number;
  logger?: Logger;
  /** Where each call's latencies go as they are measured (the process's histograms, in the service). */
  observer?: LatencyObserver;
  /** The clock a session's back-off waits on (the system's unless told). */
  clock?: Clock;
}

export class RealtimeAgent implements LiveAgent, LineAgent {
  readonly name = 'realtime';
  readonly live = true as const;
  /** The sessions on lines in this process, by call. */
  private readonly sessions = new Map<string, RealtimeSession>();
  private readonly warmLinks: WarmLinks | null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly connection: RealtimeConnection,
    private readonly tools: ToolRegistry = CALL_TOOLS,
    private readonly options: RealtimeAgentOptions = {},
  ) {
    this.warmLinks = options.internalUrl && options.logger ? new WarmLinks(options.logger, options.warmHoldMs) : null;
  }

  /** This process's internal URL, when it warms sessions. */
  get internalUrl(): string | null {
    return this.warmLinks ? (this.options.internalUrl ?? null) : null;
  }

  /**
   * What was said. A session still keeping the callee's last words (the line ended under it) is waited for, so the
   * words said as the callee hung up are in: in this process, until it is done (bounded by its own wait); in
   * another (the engine runs in a worker, the line in an api process), until it records its line closed, read from
   * the store, bounded by that wait and a little more (a process that died never records it).
   */
  async turns(callId: string): Promise<TimedTurn[]> {
    const session = this.sessions.get(callId);
    if (session?.keepingLastWords) await session.done;
    else if (!session) await this.lineClosed(callId);
    return recordedTurns(this.db, callId);
  }

  private async lineClosed(callId: string): Promise<void> {
    const deadline = Date.now() + (this.connection.lastWordsMs ?? DEFAULT_LAST_WORDS_MS) + LINE_CLOSE_SLACK_MS;
    for (;;) {
      const row = await readLineMarks(this.db, callId);
      if (!row || row.line_opened_at === null || row.line_closed_at !== null || Date.now() >= deadline) return;
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

  /**
   * The phone is ringing: opens and confirms the call's session now, so the answer does not wait for it. Only the
   * first process to claim the call warms it; a call already claimed, or no longer dialling, is left alone.
   */
  async prepare(callId: string): Promise<void> {
    const warm = this.warmLinks;
    const me = this.internalUrl;
    if (!warm || !me) return;
    if (!(await claimAgentHost(this.db, callId, me))) return;
    const row = await getCall(this.db, callId);
    const brief = lineBriefOf(row);
    const logger = this.options.logger!.child({ callId });
    logger.info('warming the realtime session while the phone rings');
    warm.warm(callId, () => openConfirmedLink(this.connection, sessionUpdateFor(this.connection, brief, this.tools), logger));
  }

  /** The call ended before its stream came (no answer, a machine): its warm session, if held here, is closed. */
  release(callId: string): void {
    this.warmLinks?.release(callId, 'the call ended');
  }

  /** Closes every warm session this process holds. */
  close(): void {
    this.warmLinks?.closeAll();
  }

  /** Connects the model to an answered call's line: the warm session if this process holds one, else a fresh one. */
  join(brief: LineBrief, line: LiveLine, logger: Logger): RealtimeSession {
    const { callId } = brief;
    // Like the opt-out, only this column: the record's latency, written as the session ends.
    const writeLatency = async (latency: CallLatency) => {
      await writeCallLatency(this.db, callId, JSON.stringify(latency));
    };
    const ledger = new TurnLedger(line, (seq, turn) => appendTurn(this.db, callId, seq, turn), logger, callId, { timing: new TurnTiming(this.options.observer ?? null), writeLatency });
    const optOut = async () => {
      // Only this column of the call: the engine, which holds the call's lease, writes the rest as the call ends.
      await markOptedOut(this.db, callId);
    };
    const voicemail = () => recordVoicemailDetected(this.db, callId, Date.now());
    // Like the opt-out, only these columns: the engine reads them to know whether the line's turns are all written.
    const opened = markLineOpened(this.db, callId, Date.now());
    opened.catch((err: Error) => logger.error({ callId, err: err.message }, 'could not record the line opened'));
    const session = new RealtimeSession(brief, line, ledger, this.tools, this.connection, logger, optOut, voicemail, {
      warm: this.warmLinks?.take(callId),
      clock: this.options.clock,
      // Only this column, as for the opt-out.
      recordFailure: async () => {
        await markAgentUnavailable(this.db, callId);
      },
      apology: (language) => apologyFor(language),
      turnsWritten: async () => {
        await opened.catch(() => undefined);
        await markLineClosed(this.db, callId, Date.now());
      },
    });
    this.sessions.set(callId, session);
    void session.done.then(() => {
      if (this.sessions.get(callId) === session) this.sessions.delete(callId);
    });
    return session;
  }
}

/** The realtime agent as configured (SVC_REALTIME_*, SVC_INTERNAL_URL); the composition root gives the process's latency observer. */
export function configuredRealtimeAgent(config: Config, db: Kysely<Database>, logger?: Logger, observer?: LatencyObserver): RealtimeAgent {
  return new RealtimeAgent(
    db,
    { url: config.realtimeUrl, model: config.realtimeModel, protocol: realtimeProtocol(config.realtimeProtocol), apiKey: config.realtimeApiKey!, turnTaking: config.realtimeTurnTaking },
    CALL_TOOLS,
    { internalUrl: config.internalUrl, logger: logger?.child({ part: 'realtime' }), observer },
  );
}
