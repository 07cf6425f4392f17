// When a failed delivery is tried again, as data: `delays[i]` is the wait before attempt i+1, counted from the
// failure of attempt i (the first entry is the first attempt, which is always at once). A schedule of n entries
// allows n attempts; after the last one fails the event is 'failed'.

/** At once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: eight attempts over about 28 hours. */
export const DEFAULT_RETRY_SCHEDULE_SEC: readonly number[] = [0, 5, 300, 1800, 7200, 18000, 36000, 36000];

/** Each wait is spread uniformly over ±20% so a receiver coming back is not hit by every retry at once. */
const JITTER = 0.2;

/** Parses SVC_WEBHOOK_RETRY_SCHEDULE; returns an error message (never throws) so config can wrap it. */
export function parseRetrySchedule(raw: string): number[] | string {
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.some((p) => !/^\d+$/.test(p))) return `must be comma-separated whole seconds, like "0,5,300", got "${raw}"`;
  const delays = parts.map(Number);
  if (delays[0] !== 0) return `must start with 0 (the first attempt is at once), got "${raw}"`;
  if (delays.length > 50) return `allows at most 50 attempts, got ${delays.length}`;
  return delays;
}

/**
 * The wait in ms before the next attempt, after `attemptsMade` attempts have failed, or null when the schedule
 * is exhausted. `random` is in [0, 1).
 */
export function nextRetryDelayMs(schedule: readonly number[], attemptsMade: number, random: () => number): number | null {
  if (attemptsMade >= schedule.length) return null;
  const base = schedule[attemptsMade] * 1000;
  return Math.round(base * (1 + JITTER * (2 * random() - 1)));
}
