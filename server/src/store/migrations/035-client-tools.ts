// A call's client tools (calls.tools_json: JSON, the tools as placed, with their defaults resolved: name,
// description, parameters, url, timeoutMs), and each use the agent made of them (calls.tool_calls_json: JSON, the
// contract's ToolCall list), written by the process that holds the call's line as each is answered; null for none.
import type { Kysely, Migration } from 'kysely';

export const m035ClientTools: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('tools_json', 'text').execute();
    await db.schema.alterTable('calls').addColumn('tool_calls_json', 'text').execute();
  },
};
