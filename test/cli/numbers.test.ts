import { expect } from 'chai';
import { forEachStore } from '../support/stores.js';
import { cliHarness, type CliHarness } from './cli-harness.js';

forEachStore('svc numbers', (kind) => {
  let cli: CliHarness;
  beforeEach(async () => {
    cli = await cliHarness(kind);
  });
  afterEach(() => cli?.close());

  describe('numbers', () => {
    it('adds, lists and removes caller numbers; adding one twice changes nothing', async () => {
      const accountId = await cli.account();
      const added = await cli.run('numbers', 'add', '--account', 'acme', '+447911123456', '--json');
      expect(added.json).to.deep.equal({ accountId, e164: '+447911123456', added: true });
      const again = await cli.run('numbers', 'add', '--account', accountId, '+447911123456');
      expect(again).to.include({ code: 0, out: 'Account "acme" already has +447911123456.\n' });
      const list = await cli.run('numbers', 'list', '--account', 'acme', '--json');
      expect(list.json.map((n: { e164: string; default: boolean }) => [n.e164, n.default])).to.deep.equal([
        ['+14155550100', true],
        ['+447911123456', false],
      ]);
      const removed = await cli.run('numbers', 'remove', '--account', 'acme', '+447911123456', '--json');
      expect(removed.json).to.deep.equal({ accountId, e164: '+447911123456', removed: true, clearedAccountDefault: false });
      expect(await cli.store.db.selectFrom('numbers').select('e164').execute()).to.deep.equal([{ e164: '+14155550100' }]);
    });

    it('clears the account default when its number is removed, and refuses while an active key defaults to it', async () => {
      await cli.account();
      const k = await cli.key('--default-caller-id', '+14155550100');
      const refused = await cli.run('numbers', 'remove', '--account', 'acme', '+14155550100');
      expect(refused).to.include({ code: 1, err: `svc: +14155550100 is the default caller id of key ${k.id}; revoke that key first\n` });
      expect(await cli.count('numbers')).to.equal(1);
      await cli.run('keys', 'revoke', k.id);
      const removed = await cli.run('numbers', 'remove', '--account', 'acme', '+14155550100');
      expect(removed).to.include({ code: 0, out: 'Removed +14155550100 from account "acme". It was the account default caller id, which is now unset.\n' });
      expect(await cli.store.db.selectFrom('accounts').select('default_caller_id').executeTakeFirstOrThrow()).to.deep.equal({ default_caller_id: null });
      expect((await cli.run('numbers', 'list', '--account', 'acme')).out).to.match(/^Account "acme" has no numbers\./);
    });

    it('refuses numbers that are not E.164 with exit 2, and absent numbers or accounts with exit 1', async () => {
      await cli.account();
      expect(await cli.run('numbers', 'add', '--account', 'acme', '+1 415 555 0123')).to.include({
        code: 2,
        err: 'svc: the number must be + and digits only, without spaces or punctuation: write "+1 415 555 0123" as +14155550123\nRun "npx svc numbers add --help" for usage.\n',
      });
      expect((await cli.run('numbers', 'add', '--account', 'acme')).code).to.equal(2);
      expect((await cli.run('numbers', 'remove', '--account', 'acme', 'abc')).code).to.equal(2);
      expect(await cli.run('numbers', 'remove', '--account', 'acme', '+14155550123')).to.include({ code: 1, err: 'svc: account "acme" does not have +14155550123\n' });
      expect((await cli.run('numbers', 'list', '--account', 'ghost')).code).to.equal(1);
      expect(await cli.count('numbers')).to.equal(1);
    });
  });
});
