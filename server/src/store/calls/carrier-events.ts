// The carrier inbox (carrier_events): what a carrier's callbacks said happened on a line, read back in arrival order.
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { CarrierEventsTable, Database } from '../schema.js';
import { makeDueNow } from './call-due.js';

/** Writes a carrier's event and, in the same transaction, makes its call due at once (makeDueNow). */
export async function appendCarrierEvent(db: Kysely<Database>, row: Insertable<CarrierEventsTable>, now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('carrier_events').values(row).execute();
    await makeDueNow(trx, row.call_id, now);
  });
}

export type CarrierEventRow = Pick<Selectable<CarrierEventsTable>, 'kind' | 'outcome' | 'error' | 'at' | 'payload_json'>;

/** The events of a carrier reference after the first `seen`, in arrival order, at most 1000. */
export async function readCarrierEvents(db: Kysely<Database>, ref: string, seen: number): Promise<CarrierEventRow[]> {
  return db
    .selectFrom('carrier_events')
    .select(['kind', 'outcome', 'error', 'at', 'payload_json'])
    .where('carrier_ref', '=', ref)
    .orderBy('created_at')
    .orderBy('id')
    .offset(seen)
    .limit(1000)
    .execute();
}
