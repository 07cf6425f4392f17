// What the agent's side of the line says about a voicemail greeting, and what the carrier reads of it.
import type { Kysely, Selectable } from 'kysely';
import type { CallsTable, Database } from '../schema.js';
import { makeDueNow } from './call-due.js';

/** The call dialled as `ref`: its id and when the agent reported a voicemail greeting; undefined for none. */
export async function findVoicemailDetectedByRef(db: Kysely<Database>, ref: string): Promise<Pick<Selectable<CallsTable>, 'id' | 'voicemail_detected_at'> | undefined> {
  return db.selectFrom('calls').select(['id', 'voicemail_detected_at']).where('carrier_ref', '=', ref).executeTakeFirst();
}

/** Records the agent's report of a voicemail greeting at `now` (the first report counts) and makes the call due at once, in one transaction. */
export async function markVoicemailDetected(db: Kysely<Database>, callId: string, now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('calls').set({ voicemail_detected_at: now }).where('id', '=', callId).where('voicemail_detected_at', 'is', null).execute();
    await makeDueNow(trx, callId, now);
  });
}
