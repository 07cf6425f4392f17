// What the live line says about who answered, for a call whose carrier only suspects a machine (Twilio's
// machine_start: speech longer than its threshold, which a person with a long greeting also makes). Two kinds of
// evidence, both written durably by the agent's side of the line, so the carrier reads them from any process:
// - the agent heard a voicemail greeting: its voicemail_detected tool wrote calls.voicemail_detected_at;
// - the callee answered the agent: a callee turn that begins after an agent turn began, and after the verdict
//   (a machine's greeting does not reply to anyone; a person does).
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { readTurnStarts } from '../store/calls/call-turns.js';
import { findVoicemailDetectedByRef, markVoicemailDetected } from '../store/calls/voicemail-detected.js';

export interface ScreenEvidence {
  /** When the agent reported a voicemail greeting (wall-clock ms); null if it did not. */
  voicemailDetectedAt: number | null;
  /** Whether a callee turn replied to the agent after `afterMs` (call-time ms from the pick-up). */
  calleeReplied: boolean;
}

/** The evidence for the call dialled as `ref`, the carrier's verdict having come `afterMs` after the pick-up. */
export async function screenEvidence(db: Kysely<Database>, ref: string, afterMs: number): Promise<ScreenEvidence> {
  const call = await findVoicemailDetectedByRef(db, ref);
  if (!call) return { voicemailDetectedAt: null, calleeReplied: false };
  const turns = await readTurnStarts(db, call.id);
  let agentStartedMs = Infinity;
  let calleeReplied = false;
  for (const t of turns) {
    const start = Number(t.start_ms);
    if (t.speaker === 'agent') agentStartedMs = Math.min(agentStartedMs, start);
    else if (start > agentStartedMs && start >= afterMs) calleeReplied = true;
  }
  const at = call.voicemail_detected_at;
  return { voicemailDetectedAt: at === null ? null : Number(at), calleeReplied };
}

/** Records that the agent heard a voicemail greeting (the first report counts), and makes the call due at once. */
export async function recordVoicemailDetected(db: Kysely<Database>, callId: string, now: number): Promise<void> {
  await markVoicemailDetected(db, callId, now);
}
