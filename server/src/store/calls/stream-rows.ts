// What the live streams read of calls, their status log, their turns and their uses of client tools, on the
// store's reading path (on SQLite the reading connection, so replays never queue behind the writer; on Postgres
// the pool). The queries are built by the store's kysely for each read, since their keys and limits vary.
import type { Compilable, Selectable } from 'kysely';
import type { CallRow } from '../calls-repo.js';
import type { CallStatusChangesTable, CallToolCallsTable, CallTurnsTable } from '../schema.js';
import type { Store } from '../store.js';

/** The store as the streams read it. */
export type ReadPath = Pick<Store, 'db' | 'read'>;

/** The fields of a call a stream item carries. */
export type StreamCallRow = Pick<CallRow, 'id' | 'api_key_id' | 'batch_id' | 'status' | 'created_at' | 'started_at' | 'ended_at' | 'duration_sec' | 'error' | 'latency_json'>;
const CALL_FIELDS = ['id', 'api_key_id', 'batch_id', 'status', 'created_at', 'started_at', 'ended_at', 'duration_sec', 'error', 'latency_json'] as const;
export type StatusChangeRow = Pick<Selectable<CallStatusChangesTable>, 'call_id' | 'status' | 'at'>;
export type TurnRow = Selectable<CallTurnsTable>;
export type ToolCallRow = Selectable<CallToolCallsTable>;

function run<Row>(s: ReadPath, query: Compilable<Row>): Promise<Row[]> {
  const { sql, parameters } = query.compile();
  return s.read<Row>(sql, parameters);
}

async function first<Row>(s: ReadPath, query: Compilable<Row>): Promise<Row | undefined> {
  return (await run(s, query))[0];
}

/** The call's status changes, in no order. */
export function readStatusChanges(s: ReadPath, callId: string): Promise<StatusChangeRow[]> {
  return run(s, s.db.selectFrom('call_status_changes').select(['call_id', 'status', 'at']).where('call_id', '=', callId));
}

/** The key's call `callId`; undefined when the call is not the key's. */
export function readStreamCall(s: ReadPath, apiKeyId: string, callId: string): Promise<StreamCallRow | undefined> {
  return first(s, s.db.selectFrom('calls').select(CALL_FIELDS).where('id', '=', callId).where('api_key_id', '=', apiKeyId));
}

/** The call's turns, in order. */
export function readStreamTurns(s: ReadPath, callId: string): Promise<TurnRow[]> {
  return run(s, s.db.selectFrom('call_turns').selectAll().where('call_id', '=', callId).orderBy('seq'));
}

/** The call's uses of client tools, in order. */
export function readStreamToolCalls(s: ReadPath, callId: string): Promise<ToolCallRow[]> {
  return run(s, s.db.selectFrom('call_tool_calls').selectAll().where('call_id', '=', callId).orderBy('seq'));
}

export interface KeysWindow {
  /** Status changes, by time. */
  changes: StatusChangeRow[];
  /** Calls placed, by time. */
  created: StreamCallRow[];
  /** Turns heard, by time. */
  turns: TurnRow[];
  /** Uses of client tools shown, by time. */
  toolCalls: ToolCallRow[];
}

/**
 * The keys' status changes, calls placed, turns heard and uses of tools in (from, to], each kind by time and, with
 * `n`, at most `n` of each. The changes are read first, and the rest after them, so that all are at least as new
 * as the changes.
 */
export async function readKeysWindow(s: ReadPath, keys: string[], from: number, to: number, n: number | undefined): Promise<KeysWindow> {
  const { db } = s;
  let changes = db.selectFrom('call_status_changes').select(['call_id', 'status', 'at']).where('api_key_id', 'in', keys).where('at', '>', from).where('at', '<=', to).orderBy('at');
  let created = db.selectFrom('calls').select(CALL_FIELDS).where('api_key_id', 'in', keys).where('created_at', '>', from).where('created_at', '<=', to).orderBy('created_at');
  let turns = db
    .selectFrom('call_turns')
    .innerJoin('calls', 'calls.id', 'call_turns.call_id')
    .selectAll('call_turns')
    .where('call_turns.heard_at', '>', from)
    .where('call_turns.heard_at', '<=', to)
    .where('calls.api_key_id', 'in', keys)
    .orderBy('call_turns.heard_at');
  let toolCalls = db
    .selectFrom('call_tool_calls')
    .innerJoin('calls', 'calls.id', 'call_tool_calls.call_id')
    .selectAll('call_tool_calls')
    .where('call_tool_calls.at', '>', from)
    .where('call_tool_calls.at', '<=', to)
    .where('calls.api_key_id', 'in', keys)
    .orderBy('call_tool_calls.at')
    .orderBy('call_tool_calls.seq');
  if (n !== undefined) {
    changes = changes.limit(n);
    created = created.limit(n);
    turns = turns.limit(n);
    toolCalls = toolCalls.limit(n);
  }
  const c = await run(s, changes);
  const [cr, t, tc] = await Promise.all([run(s, created), run(s, turns), run(s, toolCalls)]);
  return { changes: c, created: cr, turns: t, toolCalls: tc };
}

/** The calls with these ids (a few hundred at most: the caller reads more in slices). */
export function readStreamCallsById(s: ReadPath, ids: string[]): Promise<StreamCallRow[]> {
  return run(s, s.db.selectFrom('calls').select(CALL_FIELDS).where('id', 'in', ids));
}

/**
 * The times of the key's status change, call placed, turn heard and use of a tool that are each `max` after the
 * newest after `after`; undefined for a kind with no more than `max` after it.
 */
export async function readReplayMarks(s: ReadPath, apiKeyId: string, after: number, max: number) {
  const { db } = s;
  return Promise.all([
    first(s, db.selectFrom('call_status_changes').select('at').where('api_key_id', '=', apiKeyId).where('at', '>', after).orderBy('at', 'desc').offset(max).limit(1)),
    first(s, db.selectFrom('calls').select('created_at as at').where('api_key_id', '=', apiKeyId).where('created_at', '>', after).orderBy('created_at', 'desc').offset(max).limit(1)),
    first(
      s,
      db
        .selectFrom('call_turns')
        .innerJoin('calls', 'calls.id', 'call_turns.call_id')
        .select('call_turns.heard_at as at')
        .where('calls.api_key_id', '=', apiKeyId)
        .where('call_turns.heard_at', '>', after)
        .orderBy('call_turns.heard_at', 'desc')
        .offset(max)
        .limit(1),
    ),
    first(
      s,
      db
        .selectFrom('call_tool_calls')
        .innerJoin('calls', 'calls.id', 'call_tool_calls.call_id')
        .select('call_tool_calls.at as at')
        .where('calls.api_key_id', '=', apiKeyId)
        .where('call_tool_calls.at', '>', after)
        .orderBy('call_tool_calls.at', 'desc')
        .offset(max)
        .limit(1),
    ),
  ]);
}
