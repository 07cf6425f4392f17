// The realtime speech agent (SVC_AGENT=realtime): a live agent. It joins each answered call's line (the carrier's
// media stream, telephony/live-line.ts) with a session with the model, which writes the turns as they are heard;
// the engine reads them back when the line ends. One agent serves both, built once (main.ts); the two sides
// share only the store, so the line and the engine may run in different processes.
//
// While the phone rings the agent warms the call's session (prepare): the process that does so claims the call
// (calls.agent_host, its internal URL), so the one stream that reaches another process is relayed to it (the
// media bridge); a session that fails for good is recorded on the call (calls.agent_failure) for the engine.
// Each call's session is offered svc's tools (transfer_call too on a call placed with a transfer: transfer.ts) and
// the call's own (client-tools.ts), warm or not.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Database } from '../store/schema.js';
import { claimAgentHost } from '../store/calls/agent-line.js';
import { getCall } from '../store/calls/call-by-id.js';
import type { LineAgent, LiveLine } from '../telephony/live-line.js';
import { apologyFor } from './apology.js';
import { lineBriefOf, type LineBrief, type TimedTurn } from '../conversation/conversation.js';
import type { LiveAgent } from '../conversation/agent.js';
import { openConfirmedLink } from './realtime-link.js';
import { realtimeProtocol } from './realtime-protocol.js';
import { RealtimeSession, sessionUpdateFor, type RealtimeConnection } from './realtime-session.js';
import { CALL_TOOLS, type ToolRegistry } from './tools.js';
import { ClientTools } from './client-tools.js';
import { withTransfer } from './transfer.js';
import { fillerFor } from './filler.js';
import type { LatencyObserver } from './turn-timing.js';
import { WarmLinks } from './warm-links.js';
import { LineRecords } from './line-records.js';

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
  /** How the calls' own tools are reached (SVC_WEBHOOK_ALLOW_PRIVATE's address rule); the public-address rule unless told. */
  clientTools?: ClientTools;
}

export class RealtimeAgent implements LiveAgent, LineAgent {
  readonly name = 'realtime';
  readonly live = true as const;
  private readonly records: LineRecords;
  private readonly warmLinks: WarmLinks | null;
  private readonly clientTools: ClientTools;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly connection: RealtimeConnection,
    private readonly tools: ToolRegistry = CALL_TOOLS,
    private readonly options: RealtimeAgentOptions = {},
  ) {
    this.warmLinks = options.internalUrl && options.logger ? new WarmLinks(options.logger, options.warmHoldMs) : null;
    this.records = new LineRecords(db, connection.lastWordsMs, options.observer ?? null);
    this.clientTools = options.clientTools ?? new ClientTools(db, { allowPrivate: false });
  }

  /** This process's internal URL, when it warms sessions. */
  get internalUrl(): string | null {
    return this.warmLinks ? (this.options.internalUrl ?? null) : null;
  }

  turns(callId: string): Promise<TimedTurn[]> {
    return this.records.turns(callId);
  }

  optedOut(callId: string): Promise<boolean> {
    return this.records.optedOut(callId);
  }

  failure(callId: string): Promise<'agent_unavailable' | null> {
    return this.records.failure(callId);
  }

  heldTooLong(callId: string): Promise<boolean> {
    return this.records.heldTooLong(callId);
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
    const tools = this.clientTools.registry(brief, withTransfer(brief.transfer, this.tools));
    warm.warm(callId, () => openConfirmedLink(this.connection, sessionUpdateFor(this.connection, brief, tools), logger));
  }

  /** The call ended before its stream came (no answer, a machine): its warm session, if held here, is closed. */
  release(callId: string): void {
    this.warmLinks?.release(callId, 'the call ended');
  }

  /** Closes every warm session this process holds, and the connections kept to the calls' tools. */
  close(): void {
    this.warmLinks?.closeAll();
    this.clientTools.close();
  }

  /** Connects the model to an answered call's line: the warm session if this process holds one, else a fresh one. */
  join(brief: LineBrief, line: LiveLine, logger: Logger): RealtimeSession {
    const { callId } = brief;
    const writes = this.records.open(callId, line, logger);
    const own = withTransfer(brief.transfer, this.tools);
    const tools = this.clientTools.registry(brief, own);
    // The filler is rendered now, so a slow tool's first wait does not wait for it too.
    if (tools !== own) void fillerFor(brief.language).catch(() => undefined);
    const session = new RealtimeSession(brief, line, writes.ledger, tools, this.connection, logger, writes.recordOptOut, writes.recordVoicemail, {
      warm: this.warmLinks?.take(callId),
      clock: this.options.clock,
      recordFailure: writes.recordFailure,
      recordHoldTimeout: writes.recordHoldTimeout,
      apology: (language) => apologyFor(language),
      turnsWritten: writes.turnsWritten,
      recordToolCall: writes.recordToolCall,
      recordTransfer: writes.recordTransfer,
      listed: writes.listed,
      filler: (language) => fillerFor(language),
    });
    this.records.hold(callId, session);
    return session;
  }
}

/** The realtime agent as configured (SVC_REALTIME_*, SVC_INTERNAL_URL); the composition root gives the process's latency observer. */
export function configuredRealtimeAgent(config: Config, db: Kysely<Database>, logger?: Logger, observer?: LatencyObserver): RealtimeAgent {
  return new RealtimeAgent(
    db,
    { url: config.realtimeUrl, model: config.realtimeModel, protocol: realtimeProtocol(config.realtimeProtocol), apiKey: config.realtimeApiKey!, turnTaking: config.realtimeTurnTaking },
    CALL_TOOLS,
    { internalUrl: config.internalUrl, logger: logger?.child({ part: 'realtime' }), observer, clientTools: new ClientTools(db, { allowPrivate: config.webhookAllowPrivate }) },
  );
}
