// numbers add|list|remove: the caller ids an account may place calls from.
import { addNumber, ownsNumber } from '../../accounts/accounts-repo.js';
import { keysDefaultingTo, listNumbers, removeNumber } from '../../accounts/developer-settings.js';
import { e164 } from '../arguments.js';
import { CliFailure } from '../cli-error.js';
import type { Command } from '../command.js';
import { iso, table } from '../output.js';
import { ACCOUNT_OPTION, accountFrom } from './account-ref.js';

export const numberCommands: Command[] = [
  {
    name: 'numbers add',
    summary: 'Add a caller number (E.164) to an account; adding one it already has changes nothing.',
    synopsis: '--account <id|name> <e164>',
    options: { ...ACCOUNT_OPTION },
    positionals: ['e164'],
    async run(ctx, values, [raw]) {
      const number = e164('the number', raw);
      const account = await accountFrom(ctx, values);
      const had = await ownsNumber(ctx.store.db, account.id, number);
      if (!had) await addNumber(ctx.store.db, account.id, number, ctx.now());
      ctx.emit({ accountId: account.id, e164: number, added: !had }, had ? `Account "${account.name}" already has ${number}.` : `Added ${number} to account "${account.name}".`);
    },
  },
  {
    name: 'numbers list',
    summary: "List an account's caller numbers.",
    synopsis: '--account <id|name>',
    options: { ...ACCOUNT_OPTION },
    async run(ctx, values) {
      const account = await accountFrom(ctx, values);
      const numbers = await listNumbers(ctx.store.db, account.id);
      ctx.emit(
        numbers.map((n) => ({ e164: n.e164, default: n.e164 === account.default_caller_id, createdAt: iso(n.createdAt) })),
        table(
          ['NUMBER', 'DEFAULT', 'ADDED'],
          numbers.map((n) => [n.e164, n.e164 === account.default_caller_id ? 'yes' : '', iso(n.createdAt)]),
          `Account "${account.name}" has no numbers. Add one with: ${ctx.program} numbers add --account ${account.id} <e164>`,
        ),
      );
    },
  },
  {
    name: 'numbers remove',
    summary: 'Remove a caller number; refused while an active key uses it as its default caller id.',
    synopsis: '--account <id|name> <e164>',
    options: { ...ACCOUNT_OPTION },
    positionals: ['e164'],
    async run(ctx, values, [raw]) {
      const number = e164('the number', raw);
      const account = await accountFrom(ctx, values);
      const keys = await keysDefaultingTo(ctx.store.db, account.id, number);
      if (keys.length > 0) throw new CliFailure(`${number} is the default caller id of key ${keys.join(', ')}; revoke ${keys.length > 1 ? 'those keys' : 'that key'} first`);
      if (!(await removeNumber(ctx.store.db, account.id, number))) throw new CliFailure(`account "${account.name}" does not have ${number}`);
      const wasDefault = account.default_caller_id === number;
      ctx.emit(
        { accountId: account.id, e164: number, removed: true, clearedAccountDefault: wasDefault },
        `Removed ${number} from account "${account.name}".${wasDefault ? ' It was the account default caller id, which is now unset.' : ''}`,
      );
    },
  },
];
