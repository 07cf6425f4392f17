// The realtime agent's session as the engine and the other api processes see it: calls.agent_host, the internal
// URL of the process that warmed the call's model session while the phone rang (a media stream that reaches
// another process is relayed there), and calls.agent_failure, `agent_unavailable` once the model could not be
// brought back (the engine ends the call failed with it).
import type { Kysely, Migration } from 'kysely';

export const m030AgentSession: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('agent_host', 'text').execute();
    await db.schema.alterTable('calls').addColumn('agent_failure', 'text').execute();
  },
};
