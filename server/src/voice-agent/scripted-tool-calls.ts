// A scripted conversation's uses of client tools (the sandbox's 555-0131), which the engine writes as the call is
// answered, with its turns: each use is timed, on the record and on the streams, at the moment the turn that led to
// it is heard (the conversation's clock, as its turns are), though the tool was asked as the conversation was laid
// out. When the call ends, a use whose turn the end cut off is dropped, as that turn is.
import type { Insertable } from 'kysely';
import type { ToolCall } from '../generated/types.gen.js';
import type { CallToolCallsTable } from '../store/schema.js';
import type { TimedTurn } from '../conversation/conversation.js';

export interface ScriptedToolCalls {
  /** The record's toolCalls. */
  list: ToolCall[];
  /** Their rows for the streams. */
  rows: Insertable<CallToolCallsTable>[];
}

/** The uses carried by `turns` of a conversation answered at `answeredAt`, each at its turn's end on the wall clock. */
export function scriptedToolCalls(callId: string, turns: readonly TimedTurn[], answeredAt: number, timeScale: number): ScriptedToolCalls {
  const list: ToolCall[] = [];
  const rows: Insertable<CallToolCallsTable>[] = [];
  for (const t of turns) {
    if (!t.toolCall) continue;
    const at = answeredAt + Math.round(t.endMs * timeScale);
    const use = { ...t.toolCall, at: new Date(at).toISOString() };
    rows.push({ call_id: callId, seq: list.length, at, tool_call_json: JSON.stringify(use) });
    list.push(use);
  }
  return { list, rows };
}
