// The rate_windows table: one row per bucket, its current fixed window's start and count (accounts/rate-limit.ts
// has the rule). Each count is one atomic upsert, exact under any concurrency and across processes.
import { sql } from 'kysely';
import { PARAM, statement } from '../prepared-query.js';
import type { Executor } from '../store.js';

/** Bucket names of key windows; the key lookup (api-keys.ts) joins its window by this prefix and the key's id. */
export const KEY_BUCKET_PREFIX = 'key:';

const upsert = statement((db) =>
  db
    .insertInto('rate_windows')
    .values({ bucket: PARAM, window_start: PARAM as unknown as number, count: 1 })
    .onConflict((oc) =>
      oc.column('bucket').doUpdateSet({
        count: sql<number>`case when rate_windows.window_start = excluded.window_start then rate_windows.count + 1 else 1 end`,
        window_start: sql<number>`excluded.window_start`,
      }),
    )
    .returning(['count']),
);

/** The upsert that counts an accepted call only while the window has room: no row comes back when it is full. */
const upsertWithinLimit = statement((db) =>
  db
    .insertInto('rate_windows')
    .values({ bucket: PARAM, window_start: PARAM as unknown as number, count: 1 })
    .onConflict((oc) =>
      oc
        .column('bucket')
        .doUpdateSet({
          count: sql<number>`case when rate_windows.window_start = excluded.window_start then rate_windows.count + 1 else 1 end`,
          window_start: sql<number>`excluded.window_start`,
        })
        .where((eb) => eb.or([eb('rate_windows.window_start', '<>', eb.ref('excluded.window_start')), eb('rate_windows.count', '<', PARAM as unknown as number)])),
    )
    .returning(['count']),
);

/** Counts one in the bucket's window starting at `start` (a row of an earlier window starts again at 1). */
export function countInWindow(ex: Executor, bucket: string, start: number): Promise<{ count: number }[]> {
  return upsert(ex, bucket, start);
}

/** As countInWindow, only while the window's count is below `limit`: no row comes back when it is full. */
export function countWithinLimit(ex: Executor, bucket: string, start: number, limit: number): Promise<{ count: number }[]> {
  return upsertWithinLimit(ex, bucket, start, limit);
}
