// The realtime speech agent (SVC_AGENT=realtime): a live agent. It joins each answered call's line (the carrier's
// media stream, telephony/live-line.ts) with a session with the model, which writes the turns as they are heard;
// the engine reads them back when the line ends. One agent serves both, built once (main.ts); the two sides
// share only the store, so the line and the engine may run in different processes.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database } from '../store/schema.js';
import type { LineAgent, LiveLine } from '../telephony/live-line.js';
import { recordVoicemailDetected } from '../telephony/machine-screen.js';
import type { LineBrief, TimedTurn } from './conversation.js';
import type { LiveAgent } from './agent.js';
import { appendTurn, recordedTurns } from './recorded-turns.js';
import { realtimeProtocol } from './realtime-protocol.js';
import { RealtimeSession, type RealtimeConnection } from './realtime-session.js';
import { CALL_TOOLS, type ToolRegistry } from './tools.js';
import { TurnLedger } from './turn-ledger.js';
import { TurnTiming, type CallLatency, type LatencyObserver } from './turn-timing.js';
import { callLatencyMetrics } from '../http/observability/call-latency-metrics.js';

export class RealtimeAgent implements LiveAgent, LineAgent {
  readonly name = 'realtime';
  readonly live = true as const;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly connection: RealtimeConnection,
    private readonly tools: ToolRegistry = CALL_TOOLS,
    /** Where each call's latencies go as they are measured (the process's histograms, in the service). */
    private readonly observer: LatencyObserver | null = null,
  ) {}

  turns(callId: string): Promise<TimedTurn[]> {
    return recordedTurns(this.db, callId);
  }

  async optedOut(callId: string): Promise<boolean> {
    const row = await this.db.selectFrom('calls').select('opt_out').where('id', '=', callId).executeTakeFirst();
    return Number(row?.opt_out ?? 0) === 1;
  }

  /** Connects the model to an answered call's line. */
  join(brief: LineBrief, line: LiveLine, logger: Logger): RealtimeSession {
    const { callId } = brief;
    // Like the opt-out, only this column: the record's latency, written as the session ends.
    const writeLatency = async (latency: CallLatency) => {
      await this.db.updateTable('calls').set({ latency_json: JSON.stringify(latency) }).where('id', '=', callId).execute();
    };
    const ledger = new TurnLedger(line, (seq, turn) => appendTurn(this.db, callId, seq, turn), logger, callId, { timing: new TurnTiming(this.observer), writeLatency });
    const optOut = async () => {
      // Only this column of the call: the engine, which holds the call's lease, writes the rest as the call ends.
      await this.db.updateTable('calls').set({ opt_out: 1 }).where('id', '=', callId).execute();
    };
    const voicemail = () => recordVoicemailDetected(this.db, callId, Date.now());
    return new RealtimeSession(brief, line, ledger, this.tools, this.connection, logger, optOut, voicemail);
  }
}

/** The realtime agent as configured (SVC_REALTIME_URL, _MODEL, _PROTOCOL and _API_KEY). */
export function configuredRealtimeAgent(config: Config, db: Kysely<Database>): RealtimeAgent {
  return new RealtimeAgent(
    db,
    { url: config.realtimeUrl, model: config.realtimeModel, protocol: realtimeProtocol(config.realtimeProtocol), apiKey: config.realtimeApiKey! },
    CALL_TOOLS,
    callLatencyMetrics,
  );
}
