// Reading a call by its id alone, for the machinery that holds an id it was given by the store itself or by the
// carrier (not by an API key: the key-scoped reads are in calls-repo.ts).
import type { Kysely, Selectable } from 'kysely';
import type { CallsTable, Database } from '../schema.js';

/** The call's whole row; undefined for no such call. */
export async function findCall(db: Kysely<Database>, callId: string): Promise<Selectable<CallsTable> | undefined> {
  return db.selectFrom('calls').selectAll().where('id', '=', callId).executeTakeFirst();
}

/** The call's whole row; throws for no such call. */
export async function getCall(db: Kysely<Database>, callId: string): Promise<Selectable<CallsTable>> {
  return db.selectFrom('calls').selectAll().where('id', '=', callId).executeTakeFirstOrThrow();
}

/** The call's carrier reference (null until dialled); undefined for no such call. */
export async function findCarrierRef(db: Kysely<Database>, callId: string): Promise<Pick<Selectable<CallsTable>, 'id' | 'carrier_ref'> | undefined> {
  return db.selectFrom('calls').select(['id', 'carrier_ref']).where('id', '=', callId).executeTakeFirst();
}

/** Records where the call's recording is kept. */
export async function setRecordingPath(db: Kysely<Database>, callId: string, path: string): Promise<void> {
  await db.updateTable('calls').set({ recording_path: path }).where('id', '=', callId).execute();
}
