// getStats and getSettings: what a console's overview and settings pages read, and a script can read alike. Both
// are scoped to the key's account (getSettings to the key itself for its defaults); another account's calls never
// count.
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { AccountStats, AnsweredBy, PlanUsage, Settings } from '../../generated/types.gen.js';
import { keyDefaults } from '../../accounts/developer-settings.js';
import { accountAllowance, billingPeriod } from '../../accounts/minute-billing.js';
import { CALL_STATUSES } from '../../calls/call-status.js';
import { ApiError } from '../../errors/api-error.js';
import { findAccountById } from '../../store/accounts/accounts.js';
import { listNumberRows } from '../../store/accounts/numbers.js';
import { DAY_MS, readCallStats } from '../../store/calls/call-stats.js';
import type { Store } from '../../store/store.js';
import type { AppDeps } from '../app-deps.js';
import type { ApiCaller } from '../key-gate.js';
import type { ValidatedRequest } from '../../contract/request-validator.js';
import { periodOf } from './period.js';

const ANSWERED_BY: (AnsweredBy | 'none')[] = ['human', 'machine', 'fax', 'unknown', 'none'];
/** The calls that ended by being dialled: the rates' denominator (a canceled call was never put through). */
const DIALLED_ENDINGS = new Set(['completed', 'no_answer', 'voicemail', 'declined', 'failed']);
export const DEFAULT_STATS_DAYS = 30;
export const MAX_STATS_DAYS = 366;

/** The first 8 hex digits of the secret's SHA-256: enough to tell two secrets apart, nothing to sign with. */
export const secretFingerprint = (secret: string) => createHash('sha256').update(secret).digest('hex').slice(0, 8);

async function planUsage(store: Store, accountId: string, now: number): Promise<PlanUsage> {
  const { planMinutes, usedMinutes, reservedMinutes } = await accountAllowance(store.db, accountId, now);
  const { start, end } = billingPeriod(now);
  return { planMinutes, usedMinutes, reservedMinutes, periodStart: new Date(start).toISOString(), periodEnd: new Date(end).toISOString() };
}

const rate = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);

export function accountReadHandlers({ store, clock, catalogue }: AppDeps) {
  return {
    async getStats(ctx: Context, req: ValidatedRequest) {
      const { key } = ctx.state.caller as ApiCaller;
      const now = clock.now();
      const period = periodOf(req.query);
      // By default the period takes in a call created this very millisecond.
      const to = period.to ?? now + 1;
      const from = period.from ?? to - DEFAULT_STATS_DAYS * DAY_MS;
      if (to <= from) throw new ApiError(400, 'invalid_period', 'The period ends before it starts (createdTo defaults to now).');
      if (to - from > MAX_STATS_DAYS * DAY_MS) throw new ApiError(400, 'invalid_period', `The period is longer than ${MAX_STATS_DAYS} days.`);
      const dayOrigin = Math.floor(from / DAY_MS) * DAY_MS;
      const [rows, plan] = await Promise.all([readCallStats(store, { accountId: key.account_id, from, to, dayOrigin }), planUsage(store, key.account_id, now)]);

      const byStatus = Object.fromEntries(CALL_STATUSES.map((s) => [s, 0])) as Record<string, number>;
      const byAnsweredBy = Object.fromEntries(ANSWERED_BY.map((a) => [a, 0])) as Record<string, number>;
      let calls = 0;
      let billed = 0;
      let ended = 0;
      let answered = 0;
      for (const g of rows.groups) {
        calls += g.calls;
        billed += g.minutes;
        byStatus[g.status] = (byStatus[g.status] ?? 0) + g.calls;
        const who = g.answered_by ?? 'none';
        byAnsweredBy[who] = (byAnsweredBy[who] ?? 0) + g.calls;
        if (DIALLED_ENDINGS.has(g.status)) {
          ended += g.calls;
          if (g.answered_by !== null) answered += g.calls;
        }
      }
      const perDayCount = new Map(rows.days.map((d) => [d.day, d.calls]));
      const dayCount = Math.floor((to - 1 - dayOrigin) / DAY_MS) + 1;
      const perDay = Array.from({ length: dayCount }, (_, i) => ({ date: new Date(dayOrigin + i * DAY_MS).toISOString().slice(0, 10), calls: perDayCount.get(i) ?? 0 }));
      const byError = new Map<string, number>();
      for (const g of rows.groups) if (g.error !== null) byError.set(g.error, (byError.get(g.error) ?? 0) + g.calls);
      const errors = [...byError]
        .map(([error, n]) => ({ error, calls: n }))
        .sort((a, b) => b.calls - a.calls || (a.error < b.error ? -1 : 1))
        .slice(0, 5);
      const webhooks = { failed: 0, gone: 0 };
      for (const w of rows.webhooks) if (w.state === 'failed' || w.state === 'gone') webhooks[w.state] = w.deliveries;
      const body: AccountStats = {
        periodStart: new Date(from).toISOString(),
        periodEnd: new Date(to).toISOString(),
        calls,
        perDay,
        byStatus: byStatus as AccountStats['byStatus'],
        byAnsweredBy: byAnsweredBy as AccountStats['byAnsweredBy'],
        answerRate: rate(answered, ended),
        completionRate: rate(byStatus.completed ?? 0, ended),
        minutes: { billed, plan },
        latency: rows.latency,
        webhooks,
        errors,
      };
      ctx.body = body;
    },

    async getSettings(ctx: Context) {
      const { key } = ctx.state.caller as ApiCaller;
      const [account, numbers, plan] = await Promise.all([findAccountById(store.db, key.account_id), listNumberRows(store.db, key.account_id), planUsage(store, key.account_id, clock.now())]);
      const body: Settings = {
        key: {
          name: key.name,
          hint: key.key_hint,
          callerId: key.default_caller_id,
          voice: key.default_voice,
          ...keyDefaults(key),
        },
        account: { name: account!.name, defaultCallerId: account!.default_caller_id, numbers: numbers.map((n) => n.e164) },
        plan,
        webhookSecretFingerprint: secretFingerprint(key.webhook_secret),
        voices: [...catalogue.voices],
        defaultVoice: catalogue.defaultVoice,
      };
      ctx.body = body;
    },
  };
}
