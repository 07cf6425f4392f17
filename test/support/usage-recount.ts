// The minute usage counted from the calls themselves, the way the counters of migration 006 must always add up.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../server/src/store/schema.js';
import { IN_FLIGHT_STATUSES, TERMINAL_STATUSES } from '../../server/src/calls/call-status.js';
import { billingPeriod, type Usage } from '../../server/src/accounts/minute-billing.js';

export async function recountUsage(db: Kysely<Database>, accountId: string, nowMs: number): Promise<Usage> {
  const { start, end } = billingPeriod(nowMs);
  const ended = await db
    .selectFrom('calls')
    .select(sql<number>`coalesce(sum(billed_minutes), 0)`.as('minutes'))
    .where('account_id', '=', accountId)
    .where('status', 'in', TERMINAL_STATUSES)
    .where('ended_at', '>=', start)
    .where('ended_at', '<', end)
    .executeTakeFirstOrThrow();
  const inFlight = await db.selectFrom('calls').select(sql<number>`count(*)`.as('n')).where('account_id', '=', accountId).where('status', 'in', IN_FLIGHT_STATUSES).executeTakeFirstOrThrow();
  return { usedMinutes: Number(ended.minutes), reservedMinutes: Number(inFlight.n) };
}
