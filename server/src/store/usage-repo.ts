// Minutes against the plan allowance. A billing period is a calendar month in UTC. Used minutes are the ended
// calls of the period, each rounded up to a whole minute; every call still in flight reserves one minute
// (the least any answered call can bill), and the engine hangs up a call when the allowance runs out. Both are
// read from counters that triggers on `calls` keep (migration 006), so the check does not grow with the calls.
import type { Kysely, Transaction } from 'kysely';
import { executorFor, PARAM, statement } from './prepared-query.js';
import type { Database } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export function billingPeriod(nowMs: number): { start: number; end: number } {
  const d = new Date(nowMs);
  return { start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) };
}

export interface Usage {
  usedMinutes: number;
  reservedMinutes: number;
}

/**
 * Accounts joined to their counters: calls in flight, and minutes of the billing period whose start is a
 * parameter (the first after any in the select list). accountUsage and the placement's account read
 * (placement.ts) select from it.
 */
export function accountsWithUsage(db: Kysely<Database>) {
  return db
    .selectFrom('accounts')
    .leftJoin('account_usage', 'account_usage.account_id', 'accounts.id')
    .leftJoin('account_minutes', (join) =>
      join.onRef('account_minutes.account_id', '=', 'accounts.id').on('account_minutes.period_start', '=', PARAM as unknown as number),
    );
}

const usageRow = statement((db) => accountsWithUsage(db).select(['account_usage.calls_in_flight', 'account_minutes.minutes']).where('accounts.id', '=', PARAM));

export async function accountUsage(db: Db, accountId: string, nowMs: number): Promise<Usage> {
  const [row] = await usageRow(executorFor(db), billingPeriod(nowMs).start, accountId);
  return { usedMinutes: Number(row?.minutes ?? 0), reservedMinutes: Number(row?.calls_in_flight ?? 0) };
}
