// What the live streams send, read from the store alone, so any process can serve a stream of a call another
// process is running. A call's items are its statuses (queued at created_at, then the status log,
// calls/status-log.ts), its turns as they are heard (call_turns.heard_at) and its uses of client tools as they are
// answered (call_tool_calls.at, written by whichever process holds the line); the terminal status comes last,
// after every turn and use the call's record keeps, and ends a call's stream.
//
// A call's stream resumes exactly: its cursor is how many statuses, turns and uses of tools were sent, since each
// kind is seen in its own order. The key's stream spans calls, whose changes commit in no common order, so it reads a
// window of time that overlaps the last read by STREAM_OVERLAP_MS and drops what it already sent; resumed, it
// replays from its cursor's time less that overlap. An item's `id` never changes, so a client deduplicates on it.
// The key's changes are read for many keys at once (the process's stream hub reads once for all its streams) or
// a page at a time (a stream catching up on what it missed).
import { isTerminal } from '../calls/call-status.js';
import type { CallLatency, StreamToolCall, ToolCall } from '../generated/types.gen.js';
import {
  readKeysWindow,
  readReplayMarks,
  readStatusChanges,
  readStreamCall,
  readStreamCallsById,
  readStreamToolCalls,
  readStreamTurns,
  type StatusChangeRow,
  type StreamCallRow,
  type ToolCallRow,
  type TurnRow,
} from '../store/calls/stream-rows.js';
import type { Store } from '../store/store.js';

/**
 * What the streams read with: the store's reading path (store/calls/stream-rows.ts).
 */
export type StreamStore = Pick<Store, 'db' | 'read'>;

/** How many times a call's read is made again when a change commits in the middle of it (then it goes as read). */
const CONSISTENT_READS = 3;

/** How far back of its last read the key's stream reads again: a change that commits later than this after it was made is missed. */
export const STREAM_OVERLAP_MS = 5_000;

export type StreamEventName = 'status' | 'turn' | 'tool_call';

export interface StreamItem {
  event: StreamEventName;
  apiKeyId: string;
  /** When it happened (ms): the status's change, the turn's being heard, the tool's answer. */
  at: number;
  callId: string;
  data: StatusData | TurnData | ToolCallData;
  /** The data as JSON, made once for every stream that sends the item (dataJson). */
  json?: string;
  /** The item as a replay writes it (its own time as the event's id), made once for every stream replaying it. */
  replayFrame?: string;
}

/** The item's data as JSON, serialised once however many streams send it. */
export const dataJson = (item: StreamItem): string => (item.json ??= JSON.stringify(item.data));

export interface StatusData {
  id: string;
  callId: string;
  batchId: string | null;
  status: string;
  timestamp: string;
  durationSec: number | null;
  error: string | null;
  /** A terminal status's: the record's latency, for a call a live agent spoke on. */
  latency?: CallLatency;
}

export interface TurnData {
  id: string;
  callId: string;
  batchId: string | null;
  index: number;
  speaker: string;
  text: string;
  startSec: number;
  endSec: number;
  timestamp: string;
}

/** A use of a client tool as the streams send it: the record's ToolCall, with where it is and when it was answered. */
export type ToolCallData = StreamToolCall;

type CallFields = StreamCallRow;
type StatusRow = StatusChangeRow;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * `at` is when the change was committed (what the reads order and window by); the timestamp shown is the record's
 * own time for the status where it has one (startedAt, endedAt), since an ending commits after the analysis.
 */
function statusItem(call: CallFields, status: string, at: number): StreamItem {
  const terminal = isTerminal(status);
  const shown = terminal && call.ended_at !== null ? Number(call.ended_at) : status === 'in_progress' && call.started_at !== null ? Number(call.started_at) : at;
  return {
    event: 'status',
    apiKeyId: call.api_key_id,
    at,
    callId: call.id,
    data: {
      id: `${call.id}:status:${status}`,
      callId: call.id,
      batchId: call.batch_id,
      status,
      timestamp: iso(shown),
      durationSec: terminal ? call.duration_sec : null,
      error: terminal ? call.error : null,
      // Only where there is one: the events of a call without a live agent carry no latency field.
      ...(terminal && call.latency_json !== null ? { latency: JSON.parse(call.latency_json) as CallLatency } : {}),
    },
  };
}

function turnItem(call: CallFields, t: TurnRow): StreamItem {
  const at = Number(t.heard_at);
  return {
    event: 'turn',
    apiKeyId: call.api_key_id,
    at,
    callId: call.id,
    data: {
      id: `${call.id}:turn:${t.seq}`,
      callId: call.id,
      batchId: call.batch_id,
      index: Number(t.seq),
      speaker: t.speaker,
      text: t.text,
      startSec: Number(t.start_ms) / 1000,
      endSec: Number(t.end_ms) / 1000,
      timestamp: iso(at),
    },
  };
}

function toolCallItem(call: CallFields, t: ToolCallRow): StreamItem {
  const at = Number(t.at);
  const use = JSON.parse(t.tool_call_json) as ToolCall;
  return {
    event: 'tool_call',
    apiKeyId: call.api_key_id,
    at,
    callId: call.id,
    data: { id: `${call.id}:tool_call:${t.seq}`, callId: call.id, batchId: call.batch_id, index: Number(t.seq), ...use, timestamp: iso(at) },
  };
}

/**
 * A turn or a use of a tool is shown once its time has come, and only if it came by the end of its call (what the
 * end cut is settled away then).
 */
const shownBy = (call: CallFields, at: number | string | null, now: number) => at !== null && Number(at) <= now && (call.ended_at === null || Number(at) <= Number(call.ended_at));
/** Still to be shown before the call's end. */
const toComeBy = (call: CallFields, at: number | string | null, now: number) => at !== null && Number(at) > now && (call.ended_at === null || Number(at) <= Number(call.ended_at));

/** Items in the order they are sent: by time; at the same time, a status, then a turn, then a use of a tool, a terminal status after all. */
function bySendOrder(a: StreamItem, b: StreamItem): number {
  const rank = (i: StreamItem) => (i.event === 'turn' ? 1 : i.event === 'tool_call' ? 2 : isTerminal((i.data as StatusData).status) ? 3 : 0);
  return a.at - b.at || rank(a) - rank(b);
}

/**
 * Lists, each in its own order, merged in send order without reordering any: a call's cursor counts each kind in
 * its list's order, so the n-th status sent is always the list's n-th.
 */
function merged(lists: readonly StreamItem[][]): StreamItem[] {
  const out: StreamItem[] = [];
  const at = lists.map(() => 0);
  for (;;) {
    let next = -1;
    for (let k = 0; k < lists.length; k++) {
      if (at[k] < lists[k].length && (next < 0 || bySendOrder(lists[k][at[k]], lists[next][at[next]]) < 0)) next = k;
    }
    if (next < 0) return out;
    out.push(lists[next][at[next]++]);
  }
}

/** Where a call's stream is: how many of its statuses, of its turns and of its uses of tools were sent. */
export interface CallCursor {
  statuses: number;
  turns: number;
  tools: number;
}

/** `<statuses>.<turns>`, with `.<uses of tools>` once there is one (a call without tools keeps v1's ids). */
export const formatCallCursor = (c: CallCursor) => (c.tools > 0 ? `${c.statuses}.${c.turns}.${c.tools}` : `${c.statuses}.${c.turns}`);

export const CALL_START: CallCursor = { statuses: 0, turns: 0, tools: 0 };

/** A Last-Event-ID of a call's stream, or the start for anything else. */
export function parseCallCursor(raw: string | undefined): CallCursor {
  const m = /^(\d{1,4})\.(\d{1,6})(?:\.(\d{1,4}))?$/.exec(raw?.trim() ?? '');
  return m ? { statuses: Number(m[1]), turns: Number(m[2]), tools: Number(m[3] ?? 0) } : { ...CALL_START };
}

/** A call's items after a cursor, each with the cursor after it, and whether the call's stream has ended with them. */
export interface CallRead {
  /** `frame`: the event as written, made once for every stream of the call. */
  items: { item: StreamItem; cursor: CallCursor; frame?: string }[];
  ended: boolean;
}

/**
 * The call's items after `cursor`, each with the cursor after it; `ended` once its terminal status is among what
 * has been sent. Null when the call is not the key's.
 */
export async function readCall(s: StreamStore, apiKeyId: string, callId: string, cursor: CallCursor, now: number): Promise<CallRead | null> {
  // The changes are read first, and the turns and the record after them, so that each change is shown with the
  // record and turns at least as new as it: a change shown with the record as it was before it would carry none
  // of the ending's fields, and an ending with the turns before it was settled would leave out the turn it cut.
  // A change that commits between the reads (the record, read last, has reached a status the changes lack) is read
  // again whole: the turns written with it (a scripted conversation's, with the answer) would otherwise go out
  // before it, where a resumed read, which has it, puts them after it.
  let changes: StatusRow[] = [];
  let turns: TurnRow[] = [];
  let uses: ToolCallRow[] = [];
  let call: CallFields | undefined;
  for (let read = 0; read < CONSISTENT_READS; read++) {
    changes = await readStatusChanges(s, callId);
    [turns, uses] = await Promise.all([readStreamTurns(s, callId), readStreamToolCalls(s, callId)]);
    call = await readStreamCall(s, apiKeyId, callId);
    if (!call) return null;
    const status = call.status;
    if (status === 'queued' || changes.some((c) => c.status === status)) break;
  }
  if (!call) return null;
  // Queued first whatever the clocks say (the placing process's clock may run ahead of the worker's).
  const statuses = [statusItem(call, 'queued', Number(call.created_at)), ...changes.map((c) => statusItem(call, c.status, Number(c.at))).sort(bySendOrder)];
  const heard = turns.filter((t) => shownBy(call, t.heard_at, now)).map((t) => turnItem(call, t));
  const answered = uses.filter((u) => shownBy(call, u.at, now)).map((u) => toolCallItem(call, u));
  // The terminal status waits for the turns and uses still to come before the end; at the end they are settled.
  const toCome = turns.some((t) => toComeBy(call, t.heard_at, now)) || uses.some((u) => toComeBy(call, u.at, now));
  const next = merged([statuses.slice(cursor.statuses), heard.slice(cursor.turns), answered.slice(cursor.tools)]);
  const c = { ...cursor };
  const items: { item: StreamItem; cursor: CallCursor }[] = [];
  let ended = false;
  for (const item of next) {
    const terminal = item.event === 'status' && isTerminal((item.data as StatusData).status);
    if (terminal && toCome) break;
    if (item.event === 'status') c.statuses++;
    else if (item.event === 'turn') c.turns++;
    else c.tools++;
    items.push({ item, cursor: { ...c } });
    ended ||= terminal;
  }
  // Resumed after its end: nothing more to send, and the stream ends. (The record may be newer than the changes
  // read: only an ending among them ends the stream.)
  ended ||= changes.some((ch) => isTerminal(ch.status)) && c.statuses >= statuses.length && !toCome;
  return { items, ended };
}

/** An item's own id (`<callId>:status:<status>`, `<callId>:turn:<index>`, `<callId>:tool_call:<index>`), the same on every read. */
export const itemId = (item: StreamItem): string => (item.data as { id: string }).id;

/**
 * The key's items in (from - STREAM_OVERLAP_MS, now], in the order they are sent; those whose ids are in `sent`
 * are left out.
 */
export async function readKey(s: StreamStore, apiKeyId: string, from: number, now: number, sent: ReadonlySet<string>): Promise<StreamItem[]> {
  return (await readKeys(s, [apiKeyId], from - STREAM_OVERLAP_MS, now)).items.filter((i) => !sent.has(itemId(i)));
}

export interface KeyItems {
  /** In the order they are sent. */
  items: StreamItem[];
  /**
   * Null when every item of the window is here; otherwise the page ends early, with every item up to this time
   * (ms) and none after it: the next page starts after it.
   */
  cut: number | null;
}

/**
 * The items of the keys `apiKeyIds` in (after, now], in the order they are sent. With `limit`, a page: about that
 * many items of each kind at most, ending at a whole millisecond (`cut`), so the next page, from `cut`, misses none.
 */
export async function readKeys(s: StreamStore, apiKeyIds: readonly string[], after: number, now: number, limit?: number): Promise<KeyItems> {
  if (apiKeyIds.length === 0) return { items: [], cut: null };
  const keys = [...apiKeyIds];
  // As for one call (readCall): the changes first, then the records and turns, at least as new as they are.
  const window = (from: number, to: number, n: number | undefined) => readKeysWindow(s, keys, from, to, n);
  let read = await window(after, now, limit);
  let cut: number | null = null;
  if (limit !== undefined) {
    // A kind that filled its page is complete only up to the millisecond before its last row.
    const full = [
      read.changes.length === limit ? Number(read.changes.at(-1)!.at) : null,
      read.created.length === limit ? Number(read.created.at(-1)!.created_at) : null,
      read.turns.length === limit ? Number(read.turns.at(-1)!.heard_at) : null,
      read.toolCalls.length === limit ? Number(read.toolCalls.at(-1)!.at) : null,
    ].filter((x): x is number => x !== null);
    if (full.length > 0) {
      cut = Math.min(...full) - 1;
      // More than a page in one millisecond: that millisecond whole.
      if (cut <= after) {
        cut = after + 1;
        read = await window(after, cut, undefined);
      }
    }
  }
  const within = (at: number) => cut === null || at <= cut;
  const calls = new Map<string, CallFields>(read.created.map((c) => [c.id, c]));
  const changes = read.changes.filter((c) => within(Number(c.at)));
  const turns = read.turns.filter((t) => within(Number(t.heard_at)));
  const uses = read.toolCalls.filter((u) => within(Number(u.at)));
  const missing = [...new Set([...changes.map((c) => c.call_id), ...turns.map((t) => t.call_id), ...uses.map((u) => u.call_id)])].filter((id) => !calls.has(id));
  for (let i = 0; i < missing.length; i += 500) {
    for (const c of await readStreamCallsById(s, missing.slice(i, i + 500))) calls.set(c.id, c);
  }
  const items: StreamItem[] = [
    ...read.created.filter((c) => within(Number(c.created_at))).map((c) => statusItem(c, 'queued', Number(c.created_at))),
    ...changes.map((c: StatusRow) => statusItem(calls.get(c.call_id)!, c.status, Number(c.at))),
    ...turns.filter((t) => shownBy(calls.get(t.call_id)!, t.heard_at, now)).map((t) => turnItem(calls.get(t.call_id)!, t)),
    ...uses.filter((u) => shownBy(calls.get(u.call_id)!, u.at, now)).map((u) => toolCallItem(calls.get(u.call_id)!, u)),
  ];
  return { items: items.sort(bySendOrder), cut };
}

/**
 * Where a key's replay after `after` starts when it may send at most `max` items of each kind: after the newest
 * `max` status changes, calls placed, turns heard and uses of tools, or `after` itself when it has fewer.
 */
export async function replayStart(s: StreamStore, apiKeyId: string, after: number, max: number): Promise<number> {
  const marks = await readReplayMarks(s, apiKeyId, after, max);
  return Math.max(after, ...marks.map((r) => (r ? Number(r.at) : after)));
}
