// --account takes an account id or its name; a name shared by several accounts must be given as an id.
import { resolveAccount, type AccountRow } from '../../accounts/developer-settings.js';
import { required } from '../arguments.js';
import { CliFailure } from '../cli-error.js';
import type { CommandContext, OptionValues } from '../command.js';

export const ACCOUNT_OPTION = { account: { type: 'string' } } as const;

export async function accountFrom(ctx: CommandContext, values: OptionValues): Promise<AccountRow> {
  const ref = required(values, 'account');
  const found = await resolveAccount(ctx.store.db, ref);
  if (found === 'ambiguous') throw new CliFailure(`several accounts are named "${ref}"; pass the account id instead (${ctx.program} accounts list)`);
  if (!found) throw new CliFailure(`no account with id or name "${ref}" (${ctx.program} accounts list shows them)`);
  return found;
}
