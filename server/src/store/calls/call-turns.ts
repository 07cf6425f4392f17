// A call's turns (call_turns), each with when it was heard; `seq` orders the turns of a call.
import type { Insertable, Kysely, Selectable } from 'kysely';
import { runQuery } from '../prepared-query.js';
import type { CallTurnsTable, Database } from '../schema.js';
import type { Executor } from '../store.js';

/** Writes a turn; a turn the call already has at its `seq` is kept as it is. */
export async function insertTurn(db: Kysely<Database>, row: Insertable<CallTurnsTable>): Promise<void> {
  await db
    .insertInto('call_turns')
    .values(row)
    .onConflict((oc) => oc.columns(['call_id', 'seq']).doNothing())
    .execute();
}

/** The call's turns, in order. */
export async function readTurns(db: Kysely<Database>, callId: string): Promise<Selectable<CallTurnsTable>[]> {
  return db.selectFrom('call_turns').selectAll().where('call_id', '=', callId).orderBy('seq').execute();
}

/** Who spoke each of the call's turns and when it began (call-time ms), in order. */
export async function readTurnStarts(db: Kysely<Database>, callId: string): Promise<Pick<Selectable<CallTurnsTable>, 'speaker' | 'start_ms'>[]> {
  return db.selectFrom('call_turns').select(['speaker', 'start_ms']).where('call_id', '=', callId).orderBy('seq').execute();
}

/**
 * Makes the call's rows `rows` (its turns from seq 0, all heard by `endedAt`, none ending after `connectedMs`): rows
 * past them, never heard, heard after the end, ending after the line was cut, or holding another turn than the one
 * at their seq (a live line numbers its turns as they begin, and leaves a gap where a turn began but was never said)
 * are deleted, and those missing are written; a row kept stays as it is.
 */
export async function settleTurnRows(ex: Executor, callId: string, rows: readonly Insertable<CallTurnsTable>[], connectedMs: number, endedAt: number): Promise<void> {
  const db = ex.compiler;
  await runQuery(
    ex,
    db
      .deleteFrom('call_turns')
      .where('call_id', '=', callId)
      .where((eb) => eb.or([eb('seq', '>=', rows.length), eb('heard_at', 'is', null), eb('heard_at', '>', endedAt), eb('end_ms', '>', connectedMs)])),
  );
  if (rows.length === 0) return;
  const kept = await runQuery(ex, db.selectFrom('call_turns').select(['seq', 'speaker', 'text', 'start_ms', 'end_ms']).where('call_id', '=', callId));
  const moved = kept
    .filter((k) => {
      const want = rows[Number(k.seq)];
      return !want || want.speaker !== k.speaker || want.text !== k.text || Number(want.start_ms) !== Number(k.start_ms) || Number(want.end_ms) !== Number(k.end_ms);
    })
    .map((k) => Number(k.seq));
  if (moved.length > 0) await runQuery(ex, db.deleteFrom('call_turns').where('call_id', '=', callId).where('seq', 'in', moved));
  await runQuery(
    ex,
    db
      .insertInto('call_turns')
      .values(rows)
      .onConflict((oc) => oc.columns(['call_id', 'seq']).doNothing()),
  );
}
