// Calling windows: calls.calling_window_json, the window a call is dialled in with the zones it is read in
// ({ start, end, days, timeZone?, zones }); api_keys.calling_window_json, a key's default window
// ({ start, end, days?, timeZone? }).
import type { Kysely, Migration } from 'kysely';

export const m020CallingWindows: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('calling_window_json', 'text').execute();
    await db.schema.alterTable('api_keys').addColumn('calling_window_json', 'text').execute();
  },
};
