// A stand-in carrier that reports by callback, as Twilio does: tests write line events into the carrier inbox
// (recordLineEvent), and check() reads them in arrival order. Hang-ups are only recorded.
import type { Kysely } from 'kysely';
import type { Carrier } from '../../server/src/telephony/carrier.js';
import { readInbox } from '../../server/src/telephony/carrier-inbox.js';
import type { Database } from '../../server/src/store/schema.js';

export interface InboxCarrierOptions {
  /** The carrier reference a dialled call gets; `CA-<callId>` by default. */
  ref?: (callId: string) => string;
  recordsCalls?: boolean;
}

export class InboxCarrier implements Carrier {
  readonly name = 'callbacks';
  readonly timeScale = 1;
  readonly recordsCalls: boolean;
  readonly hangUps: string[] = [];
  private readonly ref: (callId: string) => string;

  constructor(
    private readonly db: Kysely<Database>,
    options: InboxCarrierOptions = {},
  ) {
    this.recordsCalls = options.recordsCalls ?? false;
    this.ref = options.ref ?? ((callId) => `CA-${callId}`);
  }

  async dial(request: { callId: string }) {
    return { ref: this.ref(request.callId), state: { seen: 0 } };
  }

  async check(ref: string, state: unknown) {
    const seen = (state as { seen: number }).seen;
    const events = (await readInbox(this.db, ref, seen)).map((e) => e.event);
    return { events, nextCheckAt: null, state: { seen: seen + events.length } };
  }

  async hangUp(ref: string) {
    this.hangUps.push(ref);
  }
}
