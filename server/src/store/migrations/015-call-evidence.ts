// calls.evidence_json: for each requested field of a completed call, the turn and the exact words its value was
// read from (null for a null value); null when no fields were requested or the call did not complete.
import type { Kysely, Migration } from 'kysely';

export const m015CallEvidence: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('evidence_json', 'text').execute();
  },
};
