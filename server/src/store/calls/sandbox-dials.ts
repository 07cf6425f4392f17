// The sandbox carrier's ledger of dials (sandbox_dials): every dial it accepts, and when its line was released.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** Writes a dial the sandbox accepted, its line not yet released. */
export async function recordSandboxDial(db: Kysely<Database>, dial: { callId: string; ref: string; to: string; at: number }): Promise<void> {
  await db.insertInto('sandbox_dials').values({ call_id: dial.callId, carrier_ref: dial.ref, to_number: dial.to, at: dial.at, hung_up_at: null }).execute();
}

/** Marks the dial's line released at `now`; the first release of a line is the one kept. */
export async function markSandboxHungUp(db: Kysely<Database>, ref: string, now: number): Promise<void> {
  await db.updateTable('sandbox_dials').set({ hung_up_at: now }).where('carrier_ref', '=', ref).where('hung_up_at', 'is', null).execute();
}

/** When the dial's line was released, or null while it is up. */
export async function readSandboxHungUp(db: Kysely<Database>, ref: string): Promise<number | null> {
  const row = await db.selectFrom('sandbox_dials').select('hung_up_at').where('carrier_ref', '=', ref).executeTakeFirst();
  return row?.hung_up_at === undefined || row.hung_up_at === null ? null : Number(row.hung_up_at);
}
