// The realtime speech agent (SVC_AGENT=realtime): a live agent. The media bridge opens a session with the model
// for each answered call and the session writes the turns as they are heard; the engine reads them back when
// the line ends. The two sides share only the store, so the bridge and the engine may run in different processes.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database } from '../store/schema.js';
import type { TimedTurn } from './conversation.js';
import type { LiveAgent } from './agent.js';
import { appendTurn, recordedTurns } from './recorded-turns.js';
import type { LineBrief } from './realtime-instructions.js';
import { realtimeProtocol } from './realtime-protocol.js';
import { RealtimeSession, type AgentLine, type RealtimeConnection } from './realtime-session.js';

export class RealtimeAgent implements LiveAgent {
  readonly name = 'realtime';
  readonly live = true as const;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly connection: RealtimeConnection,
  ) {}

  turns(callId: string): Promise<TimedTurn[]> {
    return recordedTurns(this.db, callId);
  }

  async optedOut(callId: string): Promise<boolean> {
    const row = await this.db.selectFrom('calls').select('opt_out').where('id', '=', callId).executeTakeFirst();
    return Number(row?.opt_out ?? 0) === 1;
  }

  /** Connects the model to an answered call's line. */
  open(brief: LineBrief, line: AgentLine, logger: Logger): RealtimeSession {
    const { callId } = brief;
    const optOut = async () => {
      // Only this column of the call: the engine, which holds the call's lease, writes the rest as the call ends.
      await this.db.updateTable('calls').set({ opt_out: 1 }).where('id', '=', callId).execute();
    };
    return new RealtimeSession(brief, line, (seq, turn) => appendTurn(this.db, callId, seq, turn), this.connection, logger, optOut);
  }
}

/** The realtime agent as configured (SVC_REALTIME_URL, _MODEL, _PROTOCOL and _API_KEY). */
export function configuredRealtimeAgent(config: Config, db: Kysely<Database>): RealtimeAgent {
  return new RealtimeAgent(db, { url: config.realtimeUrl, model: config.realtimeModel, protocol: realtimeProtocol(config.realtimeProtocol), apiKey: config.realtimeApiKey! });
}
