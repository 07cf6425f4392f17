// What one delivery attempt means for its event: a 2xx delivers it, a 410 Gone ends its deliveries and those of
// every later event of the same call to the same URL (they end gone without being sent), anything else
// (another status, a timeout, no connection, an address the guard refused) is a failure that is retried on the
// schedule (settings/retry-schedule.ts), or fails the event once the schedule is spent. A receiver's Retry-After on 429 or
// 503 can only push the next attempt later.
import { parseRetryAfter } from '../jobs/backoff.js';
import { nextRetryDelayMs } from '../settings/retry-schedule.js';
import type { SendResult } from './webhook-sender.js';

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'gone' | 'refused';

export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  /** The event's state after this attempt: pending (tried again at nextAttemptAt), or final. */
  state: DeliveryState;
  nextAttemptAt: number;
  deliveredAt: number | null;
}

export interface DeliveryRules {
  /** Seconds before each attempt (SVC_WEBHOOK_RETRY_SCHEDULE). */
  schedule: readonly number[];
  /** Jitter source, in [0, 1). */
  random: () => number;
}

/** After a failed attempt (the `attemptsMade`th): tried again on the schedule, or failed when it is spent. */
export function afterFailure(rules: DeliveryRules, attemptsMade: number, result: SendResult, now: number): AttemptOutcome {
  const base = { statusCode: result.status, error: result.error, deliveredAt: null };
  let delay = nextRetryDelayMs(rules.schedule, attemptsMade, rules.random);
  if (delay === null) return { ...base, state: 'failed', nextAttemptAt: now };
  // Retry-After can only push the next attempt later: a receiver cannot make us retry faster than the schedule.
  if (result.status === 429 || result.status === 503) delay = Math.max(delay, parseRetryAfter(result.retryAfter, now) ?? 0);
  return { ...base, state: 'pending', nextAttemptAt: now + delay };
}

/** The outcome of an attempt that got as far as the receiver (the `attemptsMade`th). */
export function outcomeOf(rules: DeliveryRules, attemptsMade: number, result: SendResult, now: number): AttemptOutcome {
  const s = result.status;
  if (s !== null && s >= 200 && s < 300) return { statusCode: s, error: null, state: 'delivered', nextAttemptAt: now, deliveredAt: now };
  if (s === 410) return { statusCode: s, error: 'HTTP 410 Gone: the receiver asked for no more deliveries', state: 'gone', nextAttemptAt: now, deliveredAt: null };
  return afterFailure(rules, attemptsMade, result, now);
}

/** An attempt that never left: the endpoint's address is refused for good (the SSRF guard). */
export function refused(error: string, now: number): AttemptOutcome {
  return { statusCode: null, error, state: 'refused', nextAttemptAt: now, deliveredAt: null };
}

/** An event not sent because its receiver answered 410 Gone to an earlier event of the same call. */
export function goneBefore(now: number): AttemptOutcome {
  return { statusCode: null, error: 'not sent: this URL answered 410 Gone to an earlier event of this call', state: 'gone', nextAttemptAt: now, deliveredAt: null };
}

/** An event that cannot be signed any more: its API key is gone. */
export function unsignable(now: number): AttemptOutcome {
  return { statusCode: null, error: 'the API key of this event no longer exists', state: 'failed', nextAttemptAt: now, deliveredAt: null };
}
