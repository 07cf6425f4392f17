// The turns of a live conversation, written by the media bridge as they are heard and read by the engine when
// the call ends: a live agent's transcript survives the process that held the line.
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { Speaker, TimedTurn } from './conversation.js';

/** Appends a turn; `seq` orders the turns of a call (the bridge numbers them as they end). */
export async function appendTurn(db: Kysely<Database>, callId: string, seq: number, turn: TimedTurn): Promise<void> {
  await db
    .insertInto('call_turns')
    .values({ call_id: callId, seq, speaker: turn.speaker, text: turn.text, start_ms: turn.startMs, end_ms: turn.endMs })
    .onConflict((oc) => oc.columns(['call_id', 'seq']).doNothing())
    .execute();
}

export async function recordedTurns(db: Kysely<Database>, callId: string): Promise<TimedTurn[]> {
  const rows = await db.selectFrom('call_turns').selectAll().where('call_id', '=', callId).orderBy('seq').execute();
  return rows.map((r) => ({ speaker: r.speaker as Speaker, text: r.text, startMs: Number(r.start_ms), endMs: Number(r.end_ms) }));
}
