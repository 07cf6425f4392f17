// calls.latency_json: how quickly a live agent answered on the call's line (JSON, the contract's CallLatency),
// written by the process that held the line as its session ends; null for a call no live agent spoke on.
import type { Kysely, Migration } from 'kysely';

export const m031CallLatency: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('latency_json', 'text').execute();
  },
};
