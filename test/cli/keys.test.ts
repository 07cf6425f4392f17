import { expect } from 'chai';
import { hashApiKey } from '../../server/src/accounts/secrets.js';
import { forEachStore } from '../support/stores.js';
import { observedApp } from '../http/observability/observed-app.js';
import { cliHarness, type CliHarness } from './cli-harness.js';

const KEY = /^svc_ak_[A-Za-z0-9_-]{43}$/;
const SECRET = /^whsec_[A-Za-z0-9_-]{43}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

forEachStore('svc keys and webhook-secret', (kind) => {
  let cli: CliHarness;
  beforeEach(async function () {
    // A test runs the CLI up to twenty times, each opening the store; on Postgres under the suite's load that passes 20 s.
    this.currentTest?.timeout(90_000);
    cli = await cliHarness(kind);
  });
  afterEach(() => cli?.close());

  describe('keys', () => {
    it('creates a key that authenticates against the app, shows key and secret once, and applies its defaults to a placement', async () => {
      const accountId = await cli.account();
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
        callingWindow: null,
        machineDetection: 'on',
        onBehalfOf: null,
        recordingNotice: true,
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
      await cli.account();
      const r = await cli.run('keys', 'create', '--account', 'acme');
      expect(r.code).to.equal(0);
      const [, id, key, secret] = /^Created key "default" \(([0-9a-f-]{36})\) for account "acme"\.\n {2}API key: {9}(svc_ak_\S+)\n {2}webhook secret: {2}(whsec_\S+)\n/.exec(r.out) ?? [];
      expect(id).to.match(UUID);
      expect(await cli.store.db.selectFrom('api_keys').select(['key_hash', 'webhook_secret']).executeTakeFirstOrThrow()).to.deep.equal({ key_hash: hashApiKey(key), webhook_secret: secret });
      expect(r.out).to.include('  caller id:       account default (+14155550100)\n  voice:           platform default (alloy)\n  rate limit:      10 calls per 60 s (service default)\n');
    });

    it('refuses bad input to keys create (exit 2) and what the store refuses (exit 1), creating nothing', async () => {
      await cli.account();
      const cases: [string[], number, string][] = [
        [[], 2, '--account is required'],
        [['--account', 'nobody'], 1, 'no account with id or name "nobody" (npx svc accounts list shows them)'],
        [['--account', 'acme', '--default-caller-id', '+1415'], 2, '--default-caller-id is not a valid US number: +1415 has 3 digits after +1, and numbers there have 10 digits'],
        [['--account', 'acme', '--default-caller-id', '+14155550199'], 1, `account "acme" does not own +14155550199; add it first: npx svc numbers add --account `],
        [['--account', 'acme', '--default-voice', 'robot'], 2, '--default-voice must be one of alloy, ash, ballad, coral, echo, sage, shimmer, verse, marin, cedar, got "robot"'],
        [['--account', 'acme', '--rate-limit', '0'], 2, '--rate-limit must be a whole number from 1 to 1000000, got "0"'],
        [['--account', 'acme', '--rate-limit'], 2, '--rate-limit needs a value (write --rate-limit=<value> for one that starts with "-")'],
      ];
      for (const [args, code, message] of cases) {
        const r = await cli.run('keys', 'create', ...args);
        expect(r.code, args.join(' ')).to.equal(code);
        expect(r.out).to.equal('');
        expect(r.err, args.join(' ')).to.have.string(`svc: ${message}`);
      }
      expect(await cli.count('api_keys')).to.equal(0);
    });

    it('lists keys by hint with their defaults and revocation, never the key, its hash or the webhook secret', async () => {
      await cli.account();
      const a = await cli.key('--name', 'one', '--default-voice', 'sage');
      const b = await cli.key('--name', 'two', '--rate-limit', '7');
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
      expect(human.out.split('\n')[0]).to.match(/^ID +NAME +KEY +CALLER ID +VOICE +RATE LIMIT +CALLING WINDOW +REVOKED$/);
    });

    it("gives a key a default calling window that placements with it use, in the callee's zone or the one named", async () => {
      await cli.account();
      const r = await cli.run('keys', 'create', '--account', 'acme', '--calling-window', '09:00-20:00', '--days', 'mon-fri', '--json');
      expect(r.code, r.err).to.equal(0);
      expect(r.json.callingWindow).to.deep.equal({ start: '09:00', end: '20:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] });
      const human = await cli.run('keys', 'create', '--account', 'acme', '--calling-window', '08:30-24:00', '--days', 'sat,sun', '--time-zone', 'europe/london');
      expect(human.out).to.include('  calling window:  08:30-24:00 sat,sun, in Europe/London\n');
      const list = await cli.run('keys', 'list', '--account', 'acme');
      expect(list.out).to.include("09:00-20:00 mon,tue,wed,thu,fri, in the callee's time zone (by the number)");
      const app = await observedApp(cli.store);
      try {
        // 2026-11-22T12:00:30Z is a Sunday, 04:00 in Los Angeles: the key's window opens Monday 09:00 PST.
        const res = await fetch(`${app.baseUrl}/v1/agent/calls`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${r.json.key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' }),
        });
        expect(res.status).to.equal(202);
        expect((await res.json()).scheduledAt).to.equal('2026-11-23T17:00:00.000Z');
      } finally {
        await app.close();
      }
    });

    it("updates a key's defaults, clears them with none, and the next placement uses what it was changed to", async () => {
      await cli.account();
      await cli.run('numbers', 'add', '--account', 'acme', '+14155550111');
      const k = await cli.key('--default-voice', 'sage', '--calling-window', '09:00-17:00');
      const r = await cli.run(
        'keys',
        'update',
        k.id,
        '--name',
        'renamed',
        '--default-caller-id',
        '+14155550111',
        '--rate-limit',
        '5',
        '--calling-window',
        '10:00-12:00',
        '--days',
        'tue',
        '--time-zone',
        'Asia/Tokyo',
        '--json',
      );
      expect(r.code, r.err).to.equal(0);
      expect(r.json).to.deep.include({
        id: k.id,
        name: 'renamed',
        defaultCallerId: '+14155550111',
        defaultVoice: 'sage',
        rateLimit: 5,
        callingWindow: { start: '10:00', end: '12:00', days: ['tue'], timeZone: 'Asia/Tokyo' },
      });
      const cleared = await cli.run('keys', 'update', k.id, '--default-voice', 'none', '--calling-window', 'none');
      expect(cleared.code, cleared.err).to.equal(0);
      expect(cleared.out).to.include('  voice:           platform default (alloy)\n  rate limit:      5 calls per 60 s\n  calling window:  none (calls are dialled whenever they are due)');
      const row = await cli.store.db.selectFrom('api_keys').select(['name', 'default_voice', 'rate_limit', 'calling_window_json', 'default_caller_id']).executeTakeFirstOrThrow();
      expect(row).to.deep.equal({ name: 'renamed', default_voice: null, rate_limit: 5, calling_window_json: null, default_caller_id: '+14155550111' });
    });

    it("sets, shows and clears the key's on-behalf-of and recording notice, and placements take them unless they give their own", async () => {
      await cli.account();
      const created = await cli.run('keys', 'create', '--account', 'acme', '--on-behalf-of', "Tony's Pizzeria", '--recording-notice', 'off');
      expect(created.code, created.err).to.equal(0);
      expect(created.out).to.include("  on behalf of:    Tony's Pizzeria\n  recording notice: off (set it off only where the law allows)\n");
      const keyId = /\(([0-9a-f-]{36})\)/.exec(created.out)![1];
      const key = /API key: +(\S+)/.exec(created.out)![1];
      expect(await cli.store.db.selectFrom('api_keys').select(['on_behalf_of', 'recording_notice']).where('id', '=', keyId).executeTakeFirstOrThrow()).to.deep.equal({
        on_behalf_of: "Tony's Pizzeria",
        recording_notice: 0,
      });
      const listed = await cli.run('keys', 'list', '--account', 'acme', '--json');
      expect(listed.json[0]).to.deep.include({ onBehalfOf: "Tony's Pizzeria", recordingNotice: false });

      const app = await observedApp(cli.store);
      const place = async (extra: Record<string, unknown> = {}) => {
        const res = await fetch(`${app.baseUrl}/v1/agent/calls`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.', ...extra }),
        });
        expect(res.status).to.equal(202);
        const { callId } = await res.json();
        return cli.store.db.selectFrom('calls').select(['on_behalf_of', 'recording_notice']).where('id', '=', callId).executeTakeFirstOrThrow();
      };
      try {
        expect(await place()).to.deep.equal({ on_behalf_of: "Tony's Pizzeria", recording_notice: 0 });
        expect(await place({ onBehalfOf: 'Acme Dental', recordingNotice: true })).to.deep.equal({ on_behalf_of: 'Acme Dental', recording_notice: 1 });
        const cleared = await cli.run('keys', 'update', keyId, '--on-behalf-of', 'none', '--recording-notice', 'default', '--json');
        expect(cleared.code, cleared.err).to.equal(0);
        expect(cleared.json).to.deep.include({ onBehalfOf: null, recordingNotice: true });
        expect(await cli.store.db.selectFrom('api_keys').select(['on_behalf_of', 'recording_notice']).where('id', '=', keyId).executeTakeFirstOrThrow()).to.deep.equal({
          on_behalf_of: null,
          recording_notice: null,
        });
        expect(await place()).to.deep.equal({ on_behalf_of: null, recording_notice: 1 });
        expect(await place({ recordingNotice: false, onBehalfOf: null })).to.deep.equal({ on_behalf_of: null, recording_notice: 0 });
      } finally {
        await app.close();
      }
    });

    it("sets and clears a key's default machine detection (--machine-detection off|on), stored as off or no default", async () => {
      await cli.account();
      const k = await cli.key('--machine-detection', 'off');
      const stored = () => cli.store.db.selectFrom('api_keys').select('machine_detection').where('id', '=', k.id).executeTakeFirstOrThrow();
      expect(await stored()).to.deep.equal({ machine_detection: 'off' });
      const on = await cli.run('keys', 'update', k.id, '--machine-detection', 'on', '--json');
      expect(on.code, on.err).to.equal(0);
      expect(on.json).to.deep.include({ id: k.id, machineDetection: 'on' });
      expect(await stored()).to.deep.equal({ machine_detection: null });
      const off = await cli.run('keys', 'update', k.id, '--machine-detection', 'off');
      expect(off.code, off.err).to.equal(0);
      expect(off.out).to.include('  machine detection: off');
      expect(await stored()).to.deep.equal({ machine_detection: 'off' });
    });

    it('refuses bad input to keys update (exit 2) and unknown, revoked or foreign-number keys (exit 1), changing nothing', async () => {
      await cli.account();
      const k = await cli.key('--calling-window', '09:00-17:00');
      const before = await cli.store.db.selectFrom('api_keys').selectAll().executeTakeFirstOrThrow();
      const cases: [string[], number, string][] = [
        [[k.id], 2, 'nothing to change: give --name, --default-caller-id, --default-voice, --rate-limit, --calling-window, --machine-detection, --on-behalf-of or --recording-notice'],
        [[k.id, '--on-behalf-of', '  '], 2, '--on-behalf-of must be 1 to 200 characters, not blank; got ""'],
        [[k.id, '--on-behalf-of', 'x'.repeat(201)], 2, `--on-behalf-of must be 1 to 200 characters, not blank; got "${'x'.repeat(201)}"`],
        [[k.id, '--recording-notice', 'yes'], 2, '--recording-notice must be on or off (or default), got "yes"'],
        [[k.id, '--machine-detection', 'maybe'], 2, '--machine-detection must be on or off'],
        [[k.id, '--calling-window', '9-5'], 2, '--calling-window must be HH:MM-HH:MM in 24-hour time, such as 09:00-20:00, or none; got "9-5"'],
        [[k.id, '--calling-window', '17:00-09:00'], 2, 'the window must end after it starts on the same day (17:00 to 09:00 is empty); 24:00 is the end of the day.'],
        [[k.id, '--calling-window', '09:00-17:00', '--days', 'fri-mon'], 2, '--days must be days such as mon-fri or sat,sun (mon tue wed thu fri sat sun), got "fri-mon"'],
        [[k.id, '--calling-window', '09:00-17:00', '--time-zone', 'Mars/Base'], 2, '--time-zone must be an IANA time zone name like America/New_York; got "Mars/Base".'],
        [[k.id, '--days', 'mon'], 2, '--days and --time-zone go with --calling-window'],
        [[k.id, '--calling-window', 'none', '--days', 'mon'], 2, '--calling-window none takes no --days or --time-zone'],
        [[k.id, '--rate-limit', '0'], 2, '--rate-limit must be a whole number from 1 to 1000000, got "0"'],
        [[k.id, '--default-caller-id', '+14155550199'], 1, "the key's account does not own +14155550199"],
        [['nope', '--name', 'x'], 1, 'no key with id "nope" (npx svc keys list --account <account> shows them)'],
      ];
      for (const [args, code, message] of cases) {
        const r = await cli.run('keys', 'update', ...args);
        expect(r.code, args.join(' ')).to.equal(code);
        expect(r.err, args.join(' ')).to.have.string(`svc: ${message}`);
      }
      await cli.run('keys', 'revoke', k.id);
      expect(await cli.run('keys', 'update', k.id, '--name', 'x')).to.include({ code: 1, err: `svc: key ${k.id} is revoked\n` });
      const { revoked_at, ...after } = await cli.store.db.selectFrom('api_keys').selectAll().executeTakeFirstOrThrow();
      const { revoked_at: _, ...unchanged } = before;
      expect([after, revoked_at]).to.deep.equal([unchanged, cli.clock.ms]);
    });

    it('revokes a key so that it gets 401; revoking again or an unknown key exits 1, a missing id exits 2', async () => {
      await cli.account();
      const k = await cli.key();
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
      expect(await cli.run('keys', 'revoke', 'nope')).to.include({ code: 1, err: 'svc: no key with id "nope" (npx svc keys list --account <account> shows them)\n' });
      expect(await cli.run('keys', 'revoke')).to.include({ code: 2, err: 'svc: missing <key-id>\nRun "npx svc keys revoke --help" for usage.\n' });
    });
  });

  describe('webhook-secret rotate', () => {
    it('gives the key a new secret and keeps the old one signing until the overlap ends', async () => {
      await cli.account();
      const k = await cli.key();
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
      await cli.account();
      const k = await cli.key();
      expect((await cli.run('webhook-secret', 'rotate', k.id, '--overlap-sec', '-1')).code).to.equal(2);
      expect((await cli.run('webhook-secret', 'rotate')).code).to.equal(2);
      expect(await cli.run('webhook-secret', 'rotate', 'nope')).to.include({ code: 1, err: 'svc: no key with id "nope" (npx svc keys list --account <account> shows them)\n' });
      await cli.run('keys', 'revoke', k.id);
      expect(await cli.run('webhook-secret', 'rotate', k.id)).to.include({ code: 1, err: `svc: key ${k.id} is revoked; its webhooks are no longer sent\n` });
      expect((await cli.store.db.selectFrom('api_keys').select('webhook_secret').executeTakeFirstOrThrow()).webhook_secret).to.equal(k.webhookSecret);
    });
  });
});
