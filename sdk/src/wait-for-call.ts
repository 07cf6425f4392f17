// Polling a call (or a batch) until it ends. The poll itself is passed in, so the loop can be tested with a fake
// clock.
import type { BatchStatus, CallStatus } from './generated/types.gen.js';
import { SvcTimeoutError, type RateLimitInfo } from './errors.js';
import { RetryPolicy, type Sleep } from './retry-policy.js';

export const TERMINAL_STATUSES: readonly CallStatus[] = ['completed', 'no_answer', 'voicemail', 'declined', 'failed', 'canceled'];

/** The statuses a batch ends in. */
export const BATCH_ENDED_STATUSES: readonly BatchStatus[] = ['completed', 'canceled', 'stopped'];

export function isTerminal(status: string): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

export interface WaitForCallOptions {
  /** Give up after this long. Default 10 minutes, the service's default longest call. */
  timeoutMs?: number;
  /** Pause between polls. Default 2000 ms. */
  intervalMs?: number;
  /** Aborting rejects the wait with the signal's reason. */
  signal?: AbortSignal;
}

export interface Poll<T> {
  data: T;
  rateLimit: RateLimitInfo;
}

export async function waitForTerminal<T extends { status: string }>(
  id: string,
  poll: (signal?: AbortSignal) => Promise<Poll<T>>,
  time: { sleep: Sleep; now: () => number },
  options: WaitForCallOptions,
  ended: (status: string) => boolean = isTerminal,
): Promise<T> {
  const { timeoutMs = 600_000, intervalMs = 2000, signal } = options;
  const deadline = time.now() + timeoutMs;
  let lastStatus: string | null = null;
  for (;;) {
    if (signal?.aborted) throw signal.reason;
    let wait = intervalMs;
    try {
      const { data, rateLimit } = await poll(signal);
      if (ended(data.status)) return data;
      lastStatus = data.status;
      // A spent window means the next request would be refused: wait for it to reset instead.
      if (rateLimit.remaining === 0 && rateLimit.resetSec !== null) wait = Math.max(wait, rateLimit.resetSec * 1000);
    } catch (error) {
      // A transient failure (429, 502, 503, network) costs a pause, not the wait; anything else is final.
      if (signal?.aborted || !RetryPolicy.isTransient(error, 'other')) throw error;
      const retryAfterSec = (error as { rateLimit?: RateLimitInfo }).rateLimit?.retryAfterSec ?? null;
      if (retryAfterSec !== null) wait = Math.max(wait, retryAfterSec * 1000);
    }
    const left = deadline - time.now();
    if (left <= 0) throw new SvcTimeoutError(id, timeoutMs, lastStatus, ended === isTerminal ? 'Call' : 'Batch');
    // The last pause ends at the deadline, so the final poll happens just in time rather than never.
    await time.sleep(Math.min(wait, left), signal);
  }
}
