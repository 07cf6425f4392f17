// startAt: the time a placement or a batch asks to be dialled at, checked and read as epoch ms.
import { ApiError } from '../errors/api-error.js';

/** How far ahead a call may be scheduled. */
export const MAX_SCHEDULE_AHEAD_MS = 30 * 24 * 3600 * 1000;

/**
 * startAt as the time to dial: the schema has checked its shape (a date-time with an offset); a time already past
 * means now, and one more than 30 days ahead is refused.
 */
export function scheduledAt(startAt: string | null | undefined, now: number): number | null {
  if (startAt === undefined || startAt === null) return null;
  const at = Date.parse(startAt);
  if (!Number.isFinite(at)) throw new ApiError(400, 'invalid_start_at', `\`startAt\` must be an ISO 8601 date-time with an offset; got ${JSON.stringify(startAt)}.`);
  if (at - now > MAX_SCHEDULE_AHEAD_MS) throw new ApiError(400, 'invalid_start_at', '`startAt` may be at most 30 days ahead.');
  return Math.max(at, now);
}
