// The answering-machine verdict as the live line hears of it, for a call dialled with DetectMessageEnd (a call that
// leaves a voicemail message): Twilio's verdict comes by callback, to whichever process the load balancer picks,
// and is kept in the carrier inbox (carrier-inbox.ts), so the process holding the call's media stream reads it from
// there until it comes. A person (human, or unknown: Twilio could not tell) lets the agent speak; a machine
// (machine_end_beep, _silence, _other, or a fax) keeps it silent while the carrier leaves the message.
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { AnswerVerdict } from '../live-line.js';
import { readTwilioEvents } from './line-events.js';
import { AMD_WAIT_MS } from './twilio-carrier.js';

/** How often the inbox is read while the verdict is awaited: a quarter of a second of added silence at most. */
export const VERDICT_POLL_MS = 250;

export interface VerdictWatch {
  readonly verdict: Promise<AnswerVerdict>;
  /** Stops reading (the stream ended); the verdict then never comes. */
  stop(): void;
}

/** Whether a call waits for the greeting's end before anyone speaks (call-params.ts dials it with DetectMessageEnd). */
export const awaitsGreetingEnd = (row: { voicemail_message: string | null; machine_detection: string | null }): boolean => row.voicemail_message !== null && row.machine_detection !== 'off';

/**
 * Reads the call's verdict from the inbox every `pollMs` until it is there. Twilio gives up deciding after 30 s
 * ("unknown"); should no verdict come by `boundMs` (the carrier's own wait), the agent is let speak: the carrier
 * takes that call for answered too.
 */
export function watchVerdict(db: Kysely<Database>, ref: string, opts: { pollMs?: number; boundMs?: number } = {}): VerdictWatch {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const deadline = Date.now() + (opts.boundMs ?? AMD_WAIT_MS);
  const verdict = new Promise<AnswerVerdict>((resolve) => {
    const read = async () => {
      timer = null;
      if (stopped) return;
      const events = await readTwilioEvents(db, ref, 0).catch(() => []);
      const amd = events.find((e) => e.source === 'amd');
      if (amd) return resolve(amd.event.kind === 'ended' ? 'machine' : 'person');
      if (Date.now() >= deadline) return resolve('person');
      if (!stopped) timer = setTimeout(() => void read(), opts.pollMs ?? VERDICT_POLL_MS);
    };
    void read();
  });
  return {
    verdict,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
