import { expect } from 'chai';
import { forEachStore } from '../support/stores.js';
import { insertTestCall } from '../support/calls.js';
import { cliHarness, type CliHarness } from './cli-harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

forEachStore('svc accounts, plan and usage', (kind) => {
  let cli: CliHarness;
  beforeEach(async () => {
    cli = await cliHarness(kind);
  });
  afterEach(() => cli?.close());

  describe('accounts', () => {
    it('creates an account with its plan and caller number, lists it, and refuses a second account of that name with exit 1', async () => {
      const created = await cli.run('accounts', 'create', '--name', 'acme', '--plan-minutes', '250', '--caller-id', '+14155550100', '--json');
      expect(created.code).to.equal(0);
      expect(created.err).to.equal('');
      expect(created.json).to.deep.equal({ id: created.json.id, name: 'acme', planMinutes: 250, defaultCallerId: '+14155550100' });
      expect(created.json.id).to.match(UUID);
      const row = await cli.store.db.selectFrom('accounts').selectAll().executeTakeFirstOrThrow();
      expect(row).to.include({ id: created.json.id, name: 'acme', plan_minutes: 250, default_caller_id: '+14155550100', created_at: cli.clock.ms });
      expect(await cli.store.db.selectFrom('numbers').select(['account_id', 'e164']).execute()).to.deep.equal([{ account_id: created.json.id, e164: '+14155550100' }]);

      cli.clock.advance(1000);
      const plain = await cli.run('accounts', 'create', '--name', 'beta');
      expect(plain.code).to.equal(0);
      expect(plain.out).to.match(/^Created account "beta" \([0-9a-f-]{36}\) with 1000 minutes per billing period\.\nNext: npx svc keys create --account beta\n$/);

      const list = await cli.run('accounts', 'list', '--json');
      expect(list.code).to.equal(0);
      expect(list.json.map((a: { name: string; planMinutes: number; defaultCallerId: string | null }) => [a.name, a.planMinutes, a.defaultCallerId])).to.deep.equal([
        ['acme', 250, '+14155550100'],
        ['beta', 1000, null],
      ]);
      expect(list.json[0].createdAt).to.equal('2026-11-22T12:00:30.000Z');
      expect((await cli.run('accounts', 'list')).out).to.match(/^ID +NAME +PLAN MINUTES +CALLER ID +CREATED\n[0-9a-f-]{36} +acme +250 +\+14155550100 +2026-11-22T12:00:30.000Z\n/);

      const dup = await cli.run('accounts', 'create', '--name', 'acme');
      expect(dup).to.include({ code: 1, out: '', err: 'svc: an account named "acme" already exists; choose another name\n' });
      expect(await cli.count('accounts')).to.equal(2);
    });

    it('says so when there are no accounts', async () => {
      expect(await cli.run('accounts', 'list')).to.include({ code: 0, out: 'No accounts. Create one with: npx svc accounts create --name <name>\n' });
      expect((await cli.run('accounts', 'list', '--json')).json).to.deep.equal([]);
    });

    it('refuses bad input to accounts create with exit 2 and creates nothing', async () => {
      const cases: [string[], string][] = [
        [[], '--name is required'],
        [['--name', '  '], '--name is required'],
        [['--name', 'x'.repeat(101)], '--name must be at most 100 characters'],
        [['--name', 'a', '--plan-minutes', '-5'], '--plan-minutes needs a value (write --plan-minutes=<value> for one that starts with "-")'],
        [['--name', 'a', '--plan-minutes=-5'], '--plan-minutes must be a whole number from 0 to 10000000, got "-5"'],
        [['--name', 'a', '--plan-minutes', '1.5'], '--plan-minutes must be a whole number from 0 to 10000000, got "1.5"'],
        [['--name', 'a', '--caller-id', '4155550100'], '--caller-id must start with + and the country code (E.164), such as +14155550123; "4155550100" has no +'],
        [['--name', 'a', '--caller-id', '+11234567890'], '--caller-id is not a valid US number: +11234567890 has area code 123, and area codes start with 2 to 9'],
        [['--name', 'a', '--colour', 'red'], "Unknown option '--colour'."],
        [['--name', 'a', 'extra'], 'unexpected argument "extra"'],
      ];
      for (const [args, message] of cases) {
        const r = await cli.run('accounts', 'create', ...args);
        expect(r, args.join(' ')).to.include({ code: 2, out: '', err: `svc: ${message}\nRun "npx svc accounts create --help" for usage.\n` });
      }
      expect(await cli.count('accounts')).to.equal(0);
    });
  });

  describe('plan and usage', () => {
    it('sets the plan, and usage reports minutes used this period and reserved by calls in flight', async () => {
      const accountId = await cli.account();
      const k = await cli.key();
      const tenant = { accountId, keyId: k.id, key: k.key, callerId: '+14155550100', api: undefined as never };
      const thisMonth = Date.UTC(2026, 10, 3);
      await insertTestCall(cli.store, tenant, { created_at: thisMonth, ended_at: thisMonth + 60_000, billed_minutes: 2 });
      await insertTestCall(cli.store, tenant, { created_at: thisMonth, ended_at: thisMonth + 60_000, billed_minutes: 3, status: 'voicemail' });
      await insertTestCall(cli.store, tenant, { created_at: Date.UTC(2026, 9, 30), ended_at: Date.UTC(2026, 9, 30, 0, 5), billed_minutes: 5 });
      await insertTestCall(cli.store, tenant, { status: 'in_progress', ended_at: null, billed_minutes: null, next_run_at: cli.clock.ms });

      expect(await cli.run('plan', 'set', '--account', 'acme', '--minutes', '30', '--json')).to.deep.include({ code: 0, json: { accountId, planMinutes: 30 } });
      const usage = await cli.run('usage', '--account', 'acme', '--json');
      expect(usage.json).to.deep.equal({
        accountId,
        periodStart: '2026-11-01T00:00:00.000Z',
        periodEnd: '2026-12-01T00:00:00.000Z',
        planMinutes: 30,
        usedMinutes: 5,
        reservedMinutes: 1,
        remainingMinutes: 24,
      });
      expect((await cli.run('usage', '--account', 'acme')).out).to.equal(
        'Account "acme", billing period 2026-11-01T00:00:00.000Z to 2026-12-01T00:00:00.000Z\n  plan:      30 minutes\n  used:      5\n  reserved:  1  (calls in flight, one minute each)\n  remaining: 24\n',
      );
    });

    it('refuses a bad plan with exit 2 and an unknown account with exit 1, leaving the plan as it was', async () => {
      await cli.account('acme', '--plan-minutes', '40');
      expect((await cli.run('plan', 'set', '--account', 'acme')).err).to.equal('svc: --minutes is required\nRun "npx svc plan set --help" for usage.\n');
      expect((await cli.run('plan', 'set', '--account', 'acme', '--minutes', 'lots')).code).to.equal(2);
      expect((await cli.run('plan', 'set', '--account', 'acme', '--minutes', '10000001')).code).to.equal(2);
      expect((await cli.run('plan', 'set', '--account', 'ghost', '--minutes', '5')).code).to.equal(1);
      expect((await cli.run('usage')).code).to.equal(2);
      expect((await cli.store.db.selectFrom('accounts').select('plan_minutes').executeTakeFirstOrThrow()).plan_minutes).to.equal(40);
    });
  });
});
