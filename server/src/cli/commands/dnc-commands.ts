// dnc add|list|remove: the account's do-not-call list, the same list the API's /v1/agent/do-not-call keeps.
import { addToDoNotCall, listDoNotCall, removeFromDoNotCall } from '../../accounts/do-not-call.js';
import { e164, optional } from '../arguments.js';
import { CliFailure, UsageError } from '../cli-error.js';
import type { Command } from '../command.js';
import { table } from '../output.js';
import { ACCOUNT_OPTION, accountFrom } from './account-ref.js';

export const dncCommands: Command[] = [
  {
    name: 'dnc add',
    summary: "Put a number (E.164) on an account's do-not-call list; a number already listed keeps its entry.",
    synopsis: '--account <id|name> <e164> [--reason <text>]',
    options: { ...ACCOUNT_OPTION, reason: { type: 'string' } },
    positionals: ['e164'],
    async run(ctx, values, [raw]) {
      const number = e164('the number', raw);
      const reason = optional(values, 'reason') ?? null;
      if (reason !== null && reason.length > 500) throw new UsageError('--reason must be at most 500 characters');
      const account = await accountFrom(ctx, values);
      const { entry, added } = await addToDoNotCall(ctx.store.db, { accountId: account.id, e164: number, reason, source: 'cli' }, ctx.now());
      ctx.emit({ accountId: account.id, ...entry, added }, added ? `${number} will not be called by account "${account.name}".` : `${number} was already on the list of account "${account.name}".`);
    },
  },
  {
    name: 'dnc list',
    summary: "List an account's do-not-call list.",
    synopsis: '--account <id|name>',
    options: { ...ACCOUNT_OPTION },
    async run(ctx, values) {
      const account = await accountFrom(ctx, values);
      const entries = [];
      let after: string | null = null;
      do {
        const page = await listDoNotCall(ctx.store.db, account.id, 100, after);
        entries.push(...page.entries);
        after = page.nextAfter;
      } while (after !== null);
      ctx.emit(
        entries,
        table(
          ['NUMBER', 'SOURCE', 'ADDED', 'REASON'],
          entries.map((e) => [e.number, e.source, e.addedAt, e.reason ?? '']),
          `Account "${account.name}" has no numbers on its do-not-call list.`,
        ),
      );
    },
  },
  {
    name: 'dnc remove',
    summary: "Take a number off an account's do-not-call list.",
    synopsis: '--account <id|name> <e164>',
    options: { ...ACCOUNT_OPTION },
    positionals: ['e164'],
    async run(ctx, values, [raw]) {
      const number = e164('the number', raw);
      const account = await accountFrom(ctx, values);
      if (!(await removeFromDoNotCall(ctx.store.db, account.id, number))) throw new CliFailure(`${number} is not on the do-not-call list of account "${account.name}"`);
      ctx.emit({ accountId: account.id, number, removed: true }, `${number} may be called again by account "${account.name}".`);
    },
  },
];
