import { expect } from 'chai';
import { hashApiKey } from '../../server/src/accounts/secrets.js';
import { forEachStore } from '../support/stores.js';
import { insertTestCall } from '../support/calls.js';
import { observedApp } from '../http/observability/observed-app.js';
import { cliHarness, type CliHarness } from './cli-harness.js';

const KEY = /^svc_ak_[A-Za-z0-9_-]{43}$/;
const SECRET = /^whsec_[A-Za-z0-9_-]{43}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

forEachStore('svc CLI', (kind) => {
  let cli: CliHarness;
  beforeEach(async () => {
    cli = await cliHarness(kind);
  });
  afterEach(() => cli?.close());

  const count = async (table: 'accounts' | 'api_keys' | 'numbers') =>
    Number((await cli.store.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  async function account(name = 'acme', ...extra: string[]): Promise<string> {
    const r = await cli.run('accounts', 'create', '--name', name, '--caller-id', '+14155550100', ...extra, '--json');
    expect(r.code, r.err).to.equal(0);
    return r.json.id;
  }
  async function key(...extra: string[]) {
    const r = await cli.run('keys', 'create', '--account', 'acme', ...extra, '--json');
    expect(r.code, r.err).to.equal(0);
    return r.json as { id: string; key: string; webhookSecret: string };
  }

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
      expect(plain.out).to.match(/^Created account "beta" \([0-9a-f-]{36}\) with 1000 minutes per billing period\.\nNext: svc keys create --account beta\n$/);

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
      expect(await count('accounts')).to.equal(2);
    });

    it('says so when there are no accounts', async () => {
      expect(await cli.run('accounts', 'list')).to.include({ code: 0, out: 'No accounts. Create one with: svc accounts create --name <name>\n' });
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
        [['--name', 'a', '--caller-id', '4155550100'], '--caller-id must be a valid E.164 number such as +14155550100, got "4155550100"'],
        [['--name', 'a', '--caller-id', '+11234567890'], '--caller-id must be a valid E.164 number such as +14155550100, got "+11234567890"'],
        [['--name', 'a', '--colour', 'red'], "Unknown option '--colour'."],
        [['--name', 'a', 'extra'], 'unexpected argument "extra"'],
      ];
      for (const [args, message] of cases) {
        const r = await cli.run('accounts', 'create', ...args);
        expect(r, args.join(' ')).to.include({ code: 2, out: '', err: `svc: ${message}\nRun "svc accounts create --help" for usage.\n` });
      }
      expect(await count('accounts')).to.equal(0);
    });
  });

  describe('keys', () => {
    it('creates a key that authenticates against the app, shows key and secret once, and applies its defaults to a placement', async () => {
      const accountId = await account();
      await cli.run('numbers', 'add', '--account', 'acme', '+14155550111');
      const r = await cli.run('keys', 'create', '--account', 'acme', '--name', 'backend', '--default-caller-id', '+14155550111', '--default-voice', 'Coral', '--rate-limit', '3', '--json');
      expect(r.code, r.err).to.equal(0);
      expect(r.json.key).to.match(KEY);
      expect(r.json.webhookSecret).to.match(SECRET);
      expect(r.json).to.deep.equal({
        id: r.json.id,
        accountId,
        name: 'backend',
        key: r.json.key,
        keyHint: `${r.json.key.slice(0, 11)}…`,
        webhookSecret: r.json.webhookSecret,
        defaultCallerId: '+14155550111',
        defaultVoice: 'coral',
        rateLimit: 3,
        createdAt: '2026-11-22T12:00:30.000Z',
      });
      const row = await cli.store.db.selectFrom('api_keys').selectAll().executeTakeFirstOrThrow();
      expect(row).to.include({ id: r.json.id, account_id: accountId, key_hash: hashApiKey(r.json.key), webhook_secret: r.json.webhookSecret, default_voice: 'coral', rate_limit: 3, revoked_at: null });

      const app = await observedApp(cli.store);
      try {
        const res = await fetch(`${app.baseUrl}/v1/agent/calls`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${r.json.key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' }),
        });
        expect(res.status).to.equal(202);
        expect(res.headers.get('ratelimit-policy')).to.equal('3;w=60');
        const body = await res.json();
        expect(body.voice).to.equal('coral');
        expect(await cli.store.db.selectFrom('calls').select('caller_id').where('id', '=', body.callId).executeTakeFirstOrThrow()).to.deep.equal({ caller_id: '+14155550111' });
      } finally {
        await app.close();
      }
    });

    it('prints the key and secret in the human output with the effective defaults', async () => {
      await account();
      const r = await cli.run('keys', 'create', '--account', 'acme');
      expect(r.code).to.equal(0);
      const [, id, key, secret] = /^Created key "default" \(([0-9a-f-]{36})\) for account "acme"\.\n {2}API key: {9}(svc_ak_\S+)\n {2}webhook secret: {2}(whsec_\S+)\n/.exec(r.out) ?? [];
      expect(id).to.match(UUID);
      expect(await cli.store.db.selectFrom('api_keys').select(['key_hash', 'webhook_secret']).executeTakeFirstOrThrow()).to.deep.equal({ key_hash: hashApiKey(key), webhook_secret: secret });
      expect(r.out).to.include('  caller id:       account default (+14155550100)\n  voice:           platform default (alloy)\n  rate limit:      10 calls per 60 s (service default)\n');
    });

    it('refuses bad input to keys create (exit 2) and what the store refuses (exit 1), creating nothing', async () => {
      await account();
      const cases: [string[], number, string][] = [
        [[], 2, '--account is required'],
        [['--account', 'nobody'], 1, 'no account with id or name "nobody" (svc accounts list shows them)'],
        [['--account', 'acme', '--default-caller-id', '+1415'], 2, '--default-caller-id must be a valid E.164 number such as +14155550100, got "+1415"'],
        [['--account', 'acme', '--default-caller-id', '+14155550199'], 1, `account "acme" does not own +14155550199; add it first: svc numbers add --account `],
        [['--account', 'acme', '--default-voice', 'robot'], 2, '--default-voice must be one of alloy, ash, ballad, coral, echo, sage, shimmer, verse, got "robot"'],
        [['--account', 'acme', '--rate-limit', '0'], 2, '--rate-limit must be a whole number from 1 to 1000000, got "0"'],
        [['--account', 'acme', '--rate-limit'], 2, '--rate-limit needs a value (write --rate-limit=<value> for one that starts with "-")'],
      ];
      for (const [args, code, message] of cases) {
        const r = await cli.run('keys', 'create', ...args);
        expect(r.code, args.join(' ')).to.equal(code);
        expect(r.out).to.equal('');
        expect(r.err, args.join(' ')).to.have.string(`svc: ${message}`);
      }
      expect(await count('api_keys')).to.equal(0);
    });

    it('lists keys by hint with their defaults and revocation, never the key, its hash or the webhook secret', async () => {
      await account();
      const a = await key('--name', 'one', '--default-voice', 'sage');
      const b = await key('--name', 'two', '--rate-limit', '7');
      cli.clock.advance(60_000);
      expect((await cli.run('keys', 'revoke', b.id)).code).to.equal(0);
      const list = await cli.run('keys', 'list', '--account', 'acme', '--json');
      expect(list.code).to.equal(0);
      const byName = Object.fromEntries(list.json.map((k: { name: string }) => [k.name, k]));
      expect(byName.one).to.deep.include({ id: a.id, keyHint: `${a.key.slice(0, 11)}…`, defaultVoice: 'sage', rateLimit: null, revokedAt: null });
      expect(byName.two).to.deep.include({ id: b.id, rateLimit: 7, revokedAt: '2026-11-22T12:01:30.000Z' });
      const human = await cli.run('keys', 'list', '--account', 'acme');
      for (const text of [list.out, human.out]) {
        for (const secret of [a.key, b.key, a.webhookSecret, b.webhookSecret, hashApiKey(a.key), a.key.slice(11)]) expect(text).to.not.include(secret);
      }
      expect(human.out.split('\n')[0]).to.match(/^ID +NAME +KEY +CALLER ID +VOICE +RATE LIMIT +REVOKED$/);
    });

    it('revokes a key so that it gets 401; revoking again or an unknown key exits 1, a missing id exits 2', async () => {
      await account();
      const k = await key();
      const revoked = await cli.run('keys', 'revoke', k.id, '--json');
      expect(revoked).to.include({ code: 0, err: '' });
      expect(revoked.json).to.deep.equal({ id: k.id, revoked: true });
      const app = await observedApp(cli.store);
      try {
        expect((await fetch(`${app.baseUrl}/v1/agent/calls`, { headers: { Authorization: `Bearer ${k.key}` } })).status).to.equal(401);
      } finally {
        await app.close();
      }
      expect(await cli.run('keys', 'revoke', k.id)).to.include({ code: 1, err: `svc: key ${k.id} is already revoked\n` });
      expect(await cli.run('keys', 'revoke', 'nope')).to.include({ code: 1, err: 'svc: no key with id "nope" (svc keys list --account <account> shows them)\n' });
      expect(await cli.run('keys', 'revoke')).to.include({ code: 2, err: 'svc: missing <key-id>\nRun "svc keys revoke --help" for usage.\n' });
    });
  });

  describe('numbers', () => {
    it('adds, lists and removes caller numbers; adding one twice changes nothing', async () => {
      const accountId = await account();
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

    it("clears the account default when its number is removed, and refuses while an active key defaults to it", async () => {
      await account();
      const k = await key('--default-caller-id', '+14155550100');
      const refused = await cli.run('numbers', 'remove', '--account', 'acme', '+14155550100');
      expect(refused).to.include({ code: 1, err: `svc: +14155550100 is the default caller id of key ${k.id}; revoke that key first\n` });
      expect(await count('numbers')).to.equal(1);
      await cli.run('keys', 'revoke', k.id);
      const removed = await cli.run('numbers', 'remove', '--account', 'acme', '+14155550100');
      expect(removed).to.include({ code: 0, out: 'Removed +14155550100 from account "acme". It was the account default caller id, which is now unset.\n' });
      expect(await cli.store.db.selectFrom('accounts').select('default_caller_id').executeTakeFirstOrThrow()).to.deep.equal({ default_caller_id: null });
      expect((await cli.run('numbers', 'list', '--account', 'acme')).out).to.match(/^Account "acme" has no numbers\./);
    });

    it('refuses numbers that are not E.164 with exit 2, and absent numbers or accounts with exit 1', async () => {
      await account();
      expect(await cli.run('numbers', 'add', '--account', 'acme', '+1 415 555 0123')).to.include({ code: 2, err: 'svc: the number must be a valid E.164 number such as +14155550100, got "+1 415 555 0123"\nRun "svc numbers add --help" for usage.\n' });
      expect((await cli.run('numbers', 'add', '--account', 'acme')).code).to.equal(2);
      expect((await cli.run('numbers', 'remove', '--account', 'acme', 'abc')).code).to.equal(2);
      expect(await cli.run('numbers', 'remove', '--account', 'acme', '+14155550123')).to.include({ code: 1, err: 'svc: account "acme" does not have +14155550123\n' });
      expect((await cli.run('numbers', 'list', '--account', 'ghost')).code).to.equal(1);
      expect(await count('numbers')).to.equal(1);
    });
  });

  describe('plan and usage', () => {
    it('sets the plan, and usage reports minutes used this period and reserved by calls in flight', async () => {
      const accountId = await account();
      const k = await key();
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
      await account('acme', '--plan-minutes', '40');
      expect((await cli.run('plan', 'set', '--account', 'acme')).err).to.equal('svc: --minutes is required\nRun "svc plan set --help" for usage.\n');
      expect((await cli.run('plan', 'set', '--account', 'acme', '--minutes', 'lots')).code).to.equal(2);
      expect((await cli.run('plan', 'set', '--account', 'acme', '--minutes', '10000001')).code).to.equal(2);
      expect((await cli.run('plan', 'set', '--account', 'ghost', '--minutes', '5')).code).to.equal(1);
      expect((await cli.run('usage')).code).to.equal(2);
      expect((await cli.store.db.selectFrom('accounts').select('plan_minutes').executeTakeFirstOrThrow()).plan_minutes).to.equal(40);
    });
  });

  describe('webhook-secret rotate', () => {
    it('gives the key a new secret and keeps the old one signing until the overlap ends', async () => {
      await account();
      const k = await key();
      const r = await cli.run('webhook-secret', 'rotate', k.id, '--overlap-sec', '3600', '--json');
      expect(r.code, r.err).to.equal(0);
      expect(r.json.webhookSecret).to.match(SECRET).and.not.equal(k.webhookSecret);
      expect(r.json).to.deep.equal({ id: k.id, webhookSecret: r.json.webhookSecret, previousSecretValidUntil: '2026-11-22T13:00:30.000Z' });
      const row = await cli.store.db.selectFrom('api_keys').select(['webhook_secret', 'previous_webhook_secret', 'previous_secret_expires_at']).executeTakeFirstOrThrow();
      expect(row).to.deep.equal({ webhook_secret: r.json.webhookSecret, previous_webhook_secret: k.webhookSecret, previous_secret_expires_at: cli.clock.ms + 3_600_000 });
      const byDefault = await cli.run('webhook-secret', 'rotate', k.id);
      expect(byDefault.out).to.include('until 2026-11-23T12:00:30.000Z;');
    });

    it('refuses a bad overlap with exit 2, and unknown or revoked keys with exit 1, changing nothing', async () => {
      await account();
      const k = await key();
      expect((await cli.run('webhook-secret', 'rotate', k.id, '--overlap-sec', '-1')).code).to.equal(2);
      expect((await cli.run('webhook-secret', 'rotate')).code).to.equal(2);
      expect(await cli.run('webhook-secret', 'rotate', 'nope')).to.include({ code: 1, err: 'svc: no key with id "nope" (svc keys list --account <account> shows them)\n' });
      await cli.run('keys', 'revoke', k.id);
      expect(await cli.run('webhook-secret', 'rotate', k.id)).to.include({ code: 1, err: `svc: key ${k.id} is revoked; its webhooks are no longer sent\n` });
      expect((await cli.store.db.selectFrom('api_keys').select('webhook_secret').executeTakeFirstOrThrow()).webhook_secret).to.equal(k.webhookSecret);
    });
  });
});

describe('svc CLI invocation', () => {
  let cli: CliHarness;
  beforeEach(async () => {
    cli = await cliHarness('sqlite');
  });
  afterEach(() => cli?.close());

  it('prints help with exit 0 on --help, and on stderr with exit 2 when given nothing', async () => {
    const help = await cli.run('--help');
    expect(help.code).to.equal(0);
    expect(help.out).to.match(/^Usage: svc <command> \[options\] \[--json\]\n/);
    for (const name of ['serve', 'accounts create', 'accounts list', 'keys create', 'keys list', 'keys revoke', 'numbers add', 'numbers list', 'numbers remove', 'plan set', 'webhook-secret rotate', 'usage']) {
      expect(help.out).to.include(`\n  ${name}`);
    }
    const none = await cli.run();
    expect(none).to.include({ code: 2, out: '', err: help.out });
    expect(await cli.run('keys', 'create', '--help')).to.include({
      code: 0,
      out: 'Usage: svc keys create --account <id|name> [--name <label>] [--default-caller-id <e164>] [--default-voice <voice>] [--rate-limit <calls per window>] [--json]\n\nCreate an API key; prints the key and its webhook signing secret once.\n',
    });
  });

  it('names unknown commands and subcommands with exit 2', async () => {
    expect(await cli.run('frobnicate')).to.include({ code: 2, err: 'svc: unknown command "frobnicate"; commands: serve, accounts, plan, usage, keys, webhook-secret, numbers\nRun "svc --help" for usage.\n' });
    expect(await cli.run('keys')).to.include({ code: 2, err: 'svc: "keys" needs a subcommand: create, list, revoke\nRun "svc --help" for usage.\n' });
    expect(await cli.run('keys', 'delete', 'x')).to.include({ code: 2, err: 'svc: unknown subcommand "keys delete"; "keys" takes create, list, revoke\nRun "svc --help" for usage.\n' });
  });

  it('reports errors as JSON on stderr under --json', async () => {
    expect(await cli.run('keys', 'list', '--json')).to.include({ code: 2, out: '', err: '{"error":"usage","message":"--account is required"}\n' });
    expect(await cli.run('keys', 'list', '--account', 'ghost', '--json')).to.include({ code: 1, err: '{"error":"failure","message":"no account with id or name \\"ghost\\" (svc accounts list shows them)"}\n' });
  });

  it('refuses a bad store setting with exit 2', async () => {
    const r = await cli.run('accounts', 'list');
    expect(r.code).to.equal(0);
    const { runCli } = await import('../../server/src/cli/run-cli.js');
    let err = '';
    const code = await runCli(['accounts', 'list'], { env: { DATABASE_URL: 'mysql://db/svc' }, out: () => {}, err: (t) => void (err += t), now: () => 0, serve: async () => {} });
    expect(code).to.equal(2);
    expect(err).to.equal('svc: DATABASE_URL must be a postgres:// URL; leave it unset for the embedded SQLite store\n');
  });

  it('passes serve through with the chosen role, both by default, and refuses an unknown role with exit 2', async () => {
    expect((await cli.run('serve', '--role', 'worker')).code).to.equal(0);
    expect((await cli.run('serve')).code).to.equal(0);
    expect(cli.served).to.deep.equal(['worker', 'both']);
    expect(await cli.run('serve', '--role', 'cook')).to.include({ code: 2, err: 'svc: --role must be api, worker or both, got "cook"\nRun "svc serve --help" for usage.\n' });
    expect(cli.served).to.have.length(2);
  });
});
