// An account's plan read with its usage counters: calls in flight (account_usage) and minutes billed in a billing
// period (account_minutes), both kept by triggers on `calls` (accounts/minute-billing.ts has the rule). Each read
// is a few key lookups, compiled once.
import type { Kysely } from 'kysely';
import { PARAM, statement } from '../prepared-query.js';
import type { Database } from '../schema.js';
import type { Executor } from '../store.js';

/**
 * Accounts joined to their counters: calls in flight, and minutes of the billing period whose start is a
 * parameter (the first after any in the select list).
 */
function accountsWithUsage(db: Kysely<Database>) {
  return db
    .selectFrom('accounts')
    .leftJoin('account_usage', 'account_usage.account_id', 'accounts.id')
    .leftJoin('account_minutes', (join) => join.onRef('account_minutes.account_id', '=', 'accounts.id').on('account_minutes.period_start', '=', PARAM as unknown as number));
}

export interface UsageRow {
  plan_minutes: number;
  calls_in_flight: number | null;
  minutes: number | null;
}

const allowanceRow = statement((db) => accountsWithUsage(db).select(['accounts.plan_minutes', 'account_usage.calls_in_flight', 'account_minutes.minutes']).where('accounts.id', '=', PARAM));

/** The account's plan and counters for the billing period starting at `periodStart`; none for an unknown account. */
export async function readUsage(ex: Executor, periodStart: number, accountId: string): Promise<UsageRow | undefined> {
  const [row] = await allowanceRow(ex, periodStart, accountId);
  return row;
}

const P = PARAM as never;
const accountState = statement((db) =>
  accountsWithUsage(db)
    .select((eb) => [
      'accounts.plan_minutes',
      'accounts.default_caller_id',
      'account_usage.calls_in_flight',
      'account_minutes.minutes',
      eb
        .exists(
          eb
            .selectFrom('numbers')
            .select('numbers.e164')
            .whereRef('numbers.account_id', '=', 'accounts.id')
            .where('numbers.e164', '=', eb.fn.coalesce(eb.val<string | null>(P), eb.ref('accounts.default_caller_id'))),
        )
        .as('owned'),
      eb.exists(eb.selectFrom('do_not_call').select('do_not_call.e164').whereRef('do_not_call.account_id', '=', 'accounts.id').where('do_not_call.e164', '=', P)).as('listed'),
      eb.exists(eb.selectFrom('do_not_call').select('do_not_call.e164').whereRef('do_not_call.account_id', '=', 'accounts.id').where('do_not_call.e164', '=', P)).as('transfer_listed'),
    ])
    .where('accounts.id', '=', P),
);

export interface PlacementState extends UsageRow {
  default_caller_id: string | null;
  /** Whether the caller id (the call's, else the account's default) is one of the account's numbers. */
  owned: unknown;
  /** Whether the destination is on the account's do-not-call list. */
  listed: unknown;
  /** Whether the transfer's number is on it (false for a call without one). */
  transfer_listed: unknown;
}

/**
 * Everything a placement's last checks need, in one read: the plan, the minutes used and reserved in the period
 * starting at `periodStart`, the account's default caller id, whether the caller id (the call's, else that default)
 * is the account's, and whether the destination (and the transfer's number, null for none) is on the account's
 * do-not-call list. None for an unknown account.
 */
export async function readPlacementState(ex: Executor, callerId: string | null, to: string, transferTo: string | null, periodStart: number, accountId: string): Promise<PlacementState | undefined> {
  const [row] = await accountState(ex, callerId, to, transferTo, periodStart, accountId);
  return row as PlacementState | undefined;
}
