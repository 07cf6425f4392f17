// Realtime sessions warmed while the phone rings, held in the process that opened them until the call's media
// stream takes one (realtime-agent.ts's join) or the bound passes. A warm session that is never taken (no answer,
// a machine, a stream that went to a process that could not reach this one) is closed at the call's end when this
// process hears of it, and at the latest WARM_HOLD_MS after it was opened.
import type { Logger } from 'pino';
import type { RealtimeLink } from './realtime-link.js';

/**
 * How long a warm session waits for its stream: Twilio rings for up to 60 s (its Timeout default) and the stream
 * connects at the pick-up; 90 s covers both with room to spare.
 */
export const WARM_HOLD_MS = 90_000;

interface Held {
  link: Promise<RealtimeLink | null>;
  timer: NodeJS.Timeout;
}

export class WarmLinks {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly logger: Logger,
    private readonly holdMs = WARM_HOLD_MS,
  ) {}

  /** Opens a session for a call, unless one is held already; a failure is logged and leaves nothing held. */
  warm(callId: string, open: () => Promise<RealtimeLink>): void {
    if (this.held.has(callId)) return;
    const link = open().catch((err: Error) => {
      this.logger.warn({ callId, err: err.message }, 'warming the realtime session failed; the stream opens a fresh one');
      return null;
    });
    const timer = setTimeout(() => this.release(callId, 'never taken'), this.holdMs);
    timer.unref();
    this.held.set(callId, { link, timer });
  }

  /** The call's warm session, handed over (it is no longer held); undefined when none was warmed here. */
  take(callId: string): Promise<RealtimeLink | null> | undefined {
    const h = this.held.get(callId);
    if (!h) return undefined;
    clearTimeout(h.timer);
    this.held.delete(callId);
    return h.link;
  }

  /** Closes the call's warm session if it is still held. */
  release(callId: string, why: string): void {
    const h = this.take(callId);
    if (!h) return;
    this.logger.info({ callId, why }, 'closing an unused warm realtime session');
    void h.then((link) => link?.close());
  }

  /** The calls with a session held. */
  get calls(): string[] {
    return [...this.held.keys()];
  }

  closeAll(): void {
    for (const callId of this.calls) this.release(callId, 'shutting down');
  }
}
