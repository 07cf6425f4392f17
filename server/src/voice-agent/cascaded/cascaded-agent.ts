// The cascaded agent (SVC_AGENT=cascaded): a live agent built of three providers — a speech recogniser, a chat model
// and a voice (speech/, chat-model/) — and svc's own ears (voice activity, endpointing, barge-in: ears.ts). It joins
// each answered call's line with a session (cascaded-session.ts) that writes the turns as they are heard, through
// the same records as the realtime agent (line-records.ts), so the engine reads them back from any process. Each
// session is offered svc's tools (transfer_call too on a call placed with a transfer: transfer.ts) and the call's
// own (client-tools.ts).
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../../clock.js';
import type { LiveAgent } from '../../conversation/agent.js';
import type { LineBrief, TimedTurn } from '../../conversation/conversation.js';
import type { Database } from '../../store/schema.js';
import type { LineAgent, LiveLine } from '../../telephony/live-line.js';
import { apologyFor } from '../apology.js';
import { LineRecords } from '../line-records.js';
import { CALL_TOOLS, type ToolRegistry } from '../tools.js';
import { ClientTools } from '../client-tools.js';
import { withTransfer } from '../transfer.js';
import type { LatencyObserver } from '../turn-timing.js';
import { CascadedSession, type CascadedProviders, type CascadedTiming } from './cascaded-session.js';
import type { Ears } from './ears.js';

export interface CascadedAgentOptions {
  providers: CascadedProviders;
  timing: CascadedTiming;
  /** svc's ears for one line (voice activity, endpointing and barge-in with the configured bounds). */
  ears: () => Ears;
  tools?: ToolRegistry;
  /** How the calls' own tools are reached (SVC_WEBHOOK_ALLOW_PRIVATE's address rule); the public-address rule unless told. */
  clientTools?: ClientTools;
  observer?: LatencyObserver;
  clock?: Clock;
}

export class CascadedAgent implements LiveAgent, LineAgent {
  readonly name = 'cascaded';
  readonly live = true as const;
  private readonly records: LineRecords;
  private readonly clientTools: ClientTools;

  constructor(
    db: Kysely<Database>,
    private readonly options: CascadedAgentOptions,
  ) {
    this.records = new LineRecords(db, options.timing.lastWordsMs, options.observer ?? null);
    this.clientTools = options.clientTools ?? new ClientTools(db, { allowPrivate: false });
  }

  /** Closes the connections kept to the calls' tools. */
  close(): void {
    this.clientTools.close();
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

  join(brief: LineBrief, line: LiveLine, logger: Logger): CascadedSession {
    const { callId } = brief;
    const writes = this.records.open(callId, line, logger);
    const clock = this.options.clock ?? systemClock;
    const session = new CascadedSession(
      brief,
      line,
      writes.ledger,
      this.options.ears(),
      this.clientTools.registry(brief, withTransfer(brief.transfer, this.options.tools ?? CALL_TOOLS)),
      this.options.providers,
      this.options.timing,
      {
        recordOptOut: writes.recordOptOut,
        recordVoicemail: writes.recordVoicemail,
        recordFailure: writes.recordFailure,
        recordHoldTimeout: writes.recordHoldTimeout,
        apology: (language) => apologyFor(language),
        turnsWritten: writes.turnsWritten,
        recordToolCall: writes.recordToolCall,
        recordTransfer: writes.recordTransfer,
        listed: writes.listed,
        sleep: (ms) => clock.sleep(ms),
      },
      logger,
      (marks) => writes.ledger.timing.stages(marks),
    );
    this.records.hold(callId, session);
    return session;
  }
}
