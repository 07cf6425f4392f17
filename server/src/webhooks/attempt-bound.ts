// How many of an event's attempts are kept: the first (how the receiver answered to begin with) and the last
// KEPT_LAST_ATTEMPTS. The attempts between them are deleted in the transaction that records the attempt past the
// bound, and counted by outcome in webhook_attempts_omitted, so /metrics still counts every attempt made. An
// event's attempts are numbered 1, 2, … without gaps, so the log's attemptsOmitted is its attempt count less the
// attempts it keeps.
import type { Executor } from '../store/store.js';
import { omitAttemptsUpTo } from '../store/webhooks/attempts.js';

export const KEPT_LAST_ATTEMPTS = 20;

/** Whether recording attempt number `attempt` takes an event past the bound. */
export const passesBound = (attempt: number): boolean => attempt - KEPT_LAST_ATTEMPTS > 1;

/** Deletes the event's attempts between its first and its last KEPT_LAST_ATTEMPTS, `latest` being its last, and counts them. */
export async function omitMiddleAttempts(ex: Executor, eventId: string, latest: number): Promise<void> {
  await omitAttemptsUpTo(ex, eventId, latest - KEPT_LAST_ATTEMPTS);
}
