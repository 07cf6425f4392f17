// calls.metadata_json: the client's own key-value pairs given at placement (JSON), returned unchanged on the
// call record, in list items and in every event; null when the call was placed without.
import type { Kysely, Migration } from 'kysely';

export const m012CallMetadata: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('metadata_json', 'text').execute();
  },
};
