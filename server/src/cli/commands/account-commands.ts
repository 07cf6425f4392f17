// accounts create|list, plan set, usage.
import { addNumber, createAccount, findAccountByName } from '../../accounts/accounts-repo.js';
import { listAccounts, setPlanMinutes } from '../../accounts/developer-settings.js';
import { accountUsage, billingPeriod, remainingMinutes } from '../../accounts/minute-billing.js';
import { e164, integer, optional, required } from '../arguments.js';
import { CliFailure, UsageError } from '../cli-error.js';
import type { Command } from '../command.js';
import { iso, table } from '../output.js';
import { ACCOUNT_OPTION, accountFrom } from './account-ref.js';

const MAX_MINUTES = 10_000_000;
const DEFAULT_PLAN_MINUTES = 1000;

export const accountCommands: Command[] = [
  {
    name: 'accounts create',
    summary: 'Create an account; --caller-id adds that number and makes it the default caller id.',
    synopsis: `--name <name> [--plan-minutes <n, default ${DEFAULT_PLAN_MINUTES}>] [--caller-id <e164>]`,
    options: { name: { type: 'string' }, 'plan-minutes': { type: 'string' }, 'caller-id': { type: 'string' } },
    async run(ctx, values) {
      const name = required(values, 'name');
      if (name.length > 100) throw new UsageError('--name must be at most 100 characters');
      const rawMinutes = optional(values, 'plan-minutes');
      const planMinutes = rawMinutes === undefined ? DEFAULT_PLAN_MINUTES : integer('--plan-minutes', rawMinutes, 0, MAX_MINUTES);
      const rawCaller = optional(values, 'caller-id');
      const callerId = rawCaller === undefined ? null : e164('--caller-id', rawCaller);
      const db = ctx.store.db;
      const id = await db.transaction().execute(async (trx) => {
        if (await findAccountByName(trx, name)) throw new CliFailure(`an account named "${name}" already exists; choose another name`);
        const accountId = await createAccount(trx, { name, planMinutes, defaultCallerId: callerId }, ctx.now());
        if (callerId) await addNumber(trx, accountId, callerId, ctx.now());
        return accountId;
      });
      ctx.emit(
        { id, name, planMinutes, defaultCallerId: callerId },
        `Created account "${name}" (${id}) with ${planMinutes} minutes per billing period${callerId ? ` and caller id ${callerId}` : ''}.\n` + `Next: ${ctx.program} keys create --account ${name}`,
      );
    },
  },
  {
    name: 'accounts list',
    summary: 'List accounts with their plans and default caller ids.',
    synopsis: '',
    options: {},
    async run(ctx) {
      const rows = await listAccounts(ctx.store.db);
      ctx.emit(
        rows.map((a) => ({ id: a.id, name: a.name, planMinutes: a.plan_minutes, defaultCallerId: a.default_caller_id, createdAt: iso(a.created_at) })),
        table(
          ['ID', 'NAME', 'PLAN MINUTES', 'CALLER ID', 'CREATED'],
          rows.map((a) => [a.id, a.name, a.plan_minutes, a.default_caller_id, iso(a.created_at)]),
          `No accounts. Create one with: ${ctx.program} accounts create --name <name>`,
        ),
      );
    },
  },
  {
    name: 'plan set',
    summary: "Set the account's outbound minutes per billing period (a calendar month, UTC).",
    synopsis: '--account <id|name> --minutes <n>',
    options: { ...ACCOUNT_OPTION, minutes: { type: 'string' } },
    async run(ctx, values) {
      const minutes = integer('--minutes', required(values, 'minutes'), 0, MAX_MINUTES);
      const account = await accountFrom(ctx, values);
      await setPlanMinutes(ctx.store.db, account.id, minutes);
      ctx.emit({ accountId: account.id, planMinutes: minutes }, `Account "${account.name}" now has ${minutes} minutes per billing period.`);
    },
  },
  {
    name: 'usage',
    summary: 'Minutes used and reserved by calls in flight this billing period, against the plan.',
    synopsis: '--account <id|name>',
    options: { ...ACCOUNT_OPTION },
    async run(ctx, values) {
      const account = await accountFrom(ctx, values);
      const now = ctx.now();
      const usage = await accountUsage(ctx.store.db, account.id, now);
      const period = billingPeriod(now);
      const remaining = remainingMinutes({ planMinutes: account.plan_minutes, ...usage });
      ctx.emit(
        {
          accountId: account.id,
          periodStart: iso(period.start),
          periodEnd: iso(period.end),
          planMinutes: account.plan_minutes,
          usedMinutes: usage.usedMinutes,
          reservedMinutes: usage.reservedMinutes,
          remainingMinutes: remaining,
        },
        [
          `Account "${account.name}", billing period ${iso(period.start)} to ${iso(period.end)}`,
          `  plan:      ${account.plan_minutes} minutes`,
          `  used:      ${usage.usedMinutes}`,
          `  reserved:  ${usage.reservedMinutes}  (calls in flight, one minute each)`,
          `  remaining: ${remaining}`,
        ].join('\n'),
      );
    },
  },
];
