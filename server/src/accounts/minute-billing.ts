// Minute billing, the whole rule.
// - A billing period is a calendar month in UTC.
// - A call bills its connected time (durationSec, answer to end, in call time) rounded up to whole minutes; a call
//   never answered bills 0.
// - Used minutes are what the period's ended calls billed; every call in flight reserves one minute (the least
//   an answered call can bill).
// - Placement: used plus reserved at or above the plan refuses the call, 429 over_minute_cap, with Retry-After
//   at the period's end.
// - Answer: the call may talk for the allowance left after every other call in flight keeps its one reserved
//   minute; the engine hangs up there. (Two calls answered at the same moment can each be granted that
//   remainder, so an account can overrun by the talk time of calls answered together; the next placement is
//   then refused.)
// The counts are kept in the store by triggers on `calls` (migrations 006 and 007): calls in flight per account
// (account_usage) and minutes billed per account and period (account_minutes), in the same transaction as every
// row written, whoever writes it; so reading them is two key lookups however many calls an account has made.
import type { Kysely, Transaction } from 'kysely';
import { ApiError } from '../errors/api-error.js';
import { readUsage } from '../store/accounts/usage.js';
import { executorFor } from '../store/prepared-query.js';
import type { Database } from '../store/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export function billingPeriod(nowMs: number): { start: number; end: number } {
  const d = new Date(nowMs);
  return { start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) };
}

/** The whole minutes an ended call bills for its connected seconds. */
export function billedMinutes(durationSec: number): number {
  return Math.ceil(durationSec / 60);
}

export interface Usage {
  usedMinutes: number;
  reservedMinutes: number;
}

export interface Allowance extends Usage {
  planMinutes: number;
}

/** The account's plan and its usage in the billing period of `nowMs` (an unknown account has a plan of 0). */
export async function accountAllowance(db: Db, accountId: string, nowMs: number): Promise<Allowance> {
  return usageOf(await readUsage(executorFor(db), billingPeriod(nowMs).start, accountId));
}

/** The account's used and reserved minutes in the billing period of `nowMs`. */
export async function accountUsage(db: Db, accountId: string, nowMs: number): Promise<Usage> {
  const { usedMinutes, reservedMinutes } = await accountAllowance(db, accountId, nowMs);
  return { usedMinutes, reservedMinutes };
}

/** The figures of an account's usage row (store/accounts/usage.ts). */
export function usageOf(row: { plan_minutes?: number | null; calls_in_flight?: number | null; minutes?: number | null } | undefined): Allowance {
  return { planMinutes: Number(row?.plan_minutes ?? 0), usedMinutes: Number(row?.minutes ?? 0), reservedMinutes: Number(row?.calls_in_flight ?? 0) };
}

/** Minutes left to place calls with: the plan less what is used and reserved. */
export function remainingMinutes(a: Allowance): number {
  return Math.max(0, a.planMinutes - a.usedMinutes - a.reservedMinutes);
}

/** At placement: 429 over_minute_cap when used and reserved minutes reach the plan. */
export function checkMinuteCap(a: Allowance, nowMs: number): void {
  if (a.usedMinutes + a.reservedMinutes < a.planMinutes) return;
  const retryAfter = Math.max(1, Math.ceil((billingPeriod(nowMs).end - nowMs) / 1000));
  throw new ApiError(
    429,
    'over_minute_cap',
    `The account's ${a.planMinutes} outbound minutes for this billing period are used up (${a.usedMinutes} used, ${a.reservedMinutes} reserved by calls in flight).`,
    { 'Retry-After': String(retryAfter) },
  );
}

/** At the answer of a call counted in `a`'s calls in flight: the call-time ms it may talk for. */
export function talkAllowanceMs(a: Allowance): number {
  return Math.max(0, (a.planMinutes - a.usedMinutes - (a.reservedMinutes - 1)) * 60_000);
}
