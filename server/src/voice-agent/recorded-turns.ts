// The turns of a call in call_turns, each with the time it was heard (heard_at, wall-clock ms), which is what the
// live streams read (calls/call-stream.ts). A live agent's turn is written by the media bridge as it ends, and
// read back by the engine when the call ends, so its transcript survives the process that held the line. A
// scripted (sandbox) conversation is written whole at the answer, each turn heard when the conversation reaches
// its end. When the call ends, the rows are settled to the record's turns in the transaction that ends it.
import type { Insertable, Kysely } from 'kysely';
import { insertTurn, readTurns, settleTurnRows } from '../store/calls/call-turns.js';
import type { Executor } from '../store/store.js';
import type { CallTurnsTable, Database } from '../store/schema.js';
import type { Speaker, TimedTurn } from '../conversation/conversation.js';

/**
 * Appends a turn, heard now; `seq` orders the turns of a call (the bridge numbers them as they end). The media
 * bridge runs on the wall clock, whatever clock the engine is given.
 */
export async function appendTurn(db: Kysely<Database>, callId: string, seq: number, turn: TimedTurn, heardAt = Date.now()): Promise<void> {
  await insertTurn(db, turnRow(callId, seq, turn, heardAt));
}

export function turnRow(callId: string, seq: number, turn: TimedTurn, heardAt: number): Insertable<CallTurnsTable> {
  return { call_id: callId, seq, speaker: turn.speaker, text: turn.text, start_ms: turn.startMs, end_ms: turn.endMs, heard_at: heardAt };
}

/** A scripted conversation's turns, answered at `answeredAt`: each heard when its end is reached on the wall clock. */
export function scriptedTurnRows(callId: string, turns: readonly TimedTurn[], answeredAt: number, timeScale: number): Insertable<CallTurnsTable>[] {
  return turns.map((t, i) => turnRow(callId, i, t, answeredAt + Math.round(t.endMs * timeScale)));
}

export async function recordedTurns(db: Kysely<Database>, callId: string): Promise<TimedTurn[]> {
  const rows = await readTurns(db, callId);
  return rows.map((r) => ({ speaker: r.speaker as Speaker, text: r.text, startMs: Number(r.start_ms), endMs: Number(r.end_ms) }));
}

/**
 * Makes the call's rows the turns that were said (`said`, cut at `connectedMs`), all heard by `endedAt`: a scripted
 * turn the end cut short, or never reached, is rewritten or removed; a turn the record has and the rows lack (a
 * voicemail's greeting and message) is added, heard at the end.
 */
export async function settleTurns(ex: Executor, callId: string, said: readonly TimedTurn[], connectedMs: number, endedAt: number): Promise<void> {
  const rows = said.map((t, i) => turnRow(callId, i, { ...t, endMs: Math.min(t.endMs, connectedMs) }, endedAt));
  await settleTurnRows(ex, callId, rows, connectedMs, endedAt);
}
