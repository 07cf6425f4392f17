// calls.recording_request_json: what a call's recording is rendered from (the Recorder's request as JSON: the
// turns said, the length of the line, the language, any tones), kept by a call whose carrier does not record the
// line (the sandbox). The recording is rendered from it when it is first asked for.
import type { Kysely, Migration } from 'kysely';

export const m025RecordingRequests: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('recording_request_json', 'text').execute();
  },
};
