// call_tool_calls: each use of a client tool as its own row, for the live streams, which read windows of time
// across calls by an indexed column (as call_turns.heard_at). `seq` is the use's place in the call's toolCalls, `at`
// (wall-clock ms) when the streams show it, and `tool_call_json` the use as the record lists it (the contract's
// ToolCall). The record's list stays on calls.tool_calls_json, written in the same transaction. Uses already on
// calls are copied in, each shown at its answer (its call time plus its latency).
import type { Kysely, Migration } from 'kysely';

export const m039CallToolCalls: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('call_tool_calls')
      .addColumn('call_id', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('tool_call_json', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('call_tool_calls_pk', ['call_id', 'seq'])
      .execute();
    await db.schema.createIndex('call_tool_calls_by_at').on('call_tool_calls').columns(['at']).execute();
    const calls = await db.selectFrom('calls').select(['id', 'tool_calls_json']).where('tool_calls_json', 'is not', null).execute();
    for (const call of calls as { id: string; tool_calls_json: string }[]) {
      const uses = JSON.parse(call.tool_calls_json) as { at: string; latencyMs: number }[];
      if (uses.length === 0) continue;
      await db
        .insertInto('call_tool_calls')
        .values(uses.map((u, seq) => ({ call_id: call.id, seq, at: Date.parse(u.at) + u.latencyMs, tool_call_json: JSON.stringify(u) })))
        .execute();
    }
  },
};
