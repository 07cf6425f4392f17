// Fixed rate-limit windows kept in the store, so every process sees the same count. A window starts at a
// multiple of its length in epoch time. Consuming is one atomic upsert, exact under any concurrency.
import { sql } from 'kysely';
import { PARAM, statement, type Executor } from './prepared-query.js';

export interface WindowState {
  limit: number;
  windowSec: number;
  /** Requests counted in the current window, this one included when consumed. */
  count: number;
  remaining: number;
  /** Whole seconds until the window resets, at least 1. */
  resetSec: number;
}

function windowStart(nowMs: number, windowSec: number): number {
  return Math.floor(nowMs / (windowSec * 1000)) * windowSec * 1000;
}

function state(limit: number, windowSec: number, count: number, start: number, nowMs: number): WindowState {
  return {
    limit,
    windowSec,
    count,
    remaining: Math.max(0, limit - count),
    resetSec: Math.max(1, Math.ceil((start + windowSec * 1000 - nowMs) / 1000)),
  };
}

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

/** Counts one request against the bucket's current window. The request is allowed when count <= limit. */
export async function consumeWindow(ex: Executor, bucket: string, limit: number, windowSec: number, nowMs: number): Promise<WindowState> {
  const start = windowStart(nowMs, windowSec);
  const [row] = await upsert(ex, bucket, start);
  return state(limit, windowSec, Number(row.count), start, nowMs);
}

/** The current window from a stored row (or none): a row of an earlier window counts as empty. */
export function windowFromRow(
  rowStart: number | null,
  rowCount: number | null,
  limit: number,
  windowSec: number,
  nowMs: number,
): WindowState {
  const start = windowStart(nowMs, windowSec);
  const count = rowStart !== null && Number(rowStart) === start ? Number(rowCount) : 0;
  return state(limit, windowSec, count, start, nowMs);
}
