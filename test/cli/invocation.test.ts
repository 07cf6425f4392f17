import { expect } from 'chai';
import { runCli } from '../../server/src/cli/run-cli.js';
import { cliHarness, type CliHarness } from './cli-harness.js';

describe('svc CLI invocation', () => {
  let cli: CliHarness;
  beforeEach(async () => {
    cli = await cliHarness('sqlite');
  });
  afterEach(() => cli?.close());

  it('prints help with exit 0 on --help, and on stderr with exit 2 when given nothing', async () => {
    const help = await cli.run('--help');
    expect(help.code).to.equal(0);
    expect(help.out).to.match(/^Usage: npx svc <command> \[options\] \[--json\]\n/);
    for (const name of [
      'serve',
      'accounts create',
      'accounts list',
      'keys create',
      'keys list',
      'keys update',
      'keys revoke',
      'numbers add',
      'numbers list',
      'numbers remove',
      'plan set',
      'webhook-secret rotate',
      'usage',
    ]) {
      expect(help.out).to.include(`\n  ${name}`);
    }
    const none = await cli.run();
    expect(none).to.include({ code: 2, out: '', err: help.out });
    expect(await cli.run('keys', 'create', '--help')).to.include({
      code: 0,
      out: 'Usage: npx svc keys create --account <id|name> [--name <label>] [--default-caller-id <e164>] [--default-voice <voice>] [--rate-limit <calls per window>] [--calling-window HH:MM-HH:MM [--days mon-fri] [--time-zone <IANA>]] [--machine-detection on|off] [--on-behalf-of <name>] [--recording-notice on|off] [--json]\n\nCreate an API key; prints the key and its webhook signing secret once.\n',
    });
  });

  it('names unknown commands and subcommands with exit 2', async () => {
    expect(await cli.run('frobnicate')).to.include({
      code: 2,
      err: 'svc: unknown command "frobnicate"; commands: serve, mcp, accounts, plan, usage, keys, webhook-secret, numbers, dnc, doctor\nRun "npx svc --help" for usage.\n',
    });
    expect(await cli.run('keys')).to.include({ code: 2, err: 'svc: "keys" needs a subcommand: create, list, update, revoke\nRun "npx svc --help" for usage.\n' });
    expect(await cli.run('keys', 'delete', 'x')).to.include({ code: 2, err: 'svc: unknown subcommand "keys delete"; "keys" takes create, list, update, revoke\nRun "npx svc --help" for usage.\n' });
  });

  it('reports errors as JSON on stderr under --json', async () => {
    expect(await cli.run('keys', 'list', '--json')).to.include({ code: 2, out: '', err: '{"error":"usage","message":"--account is required"}\n' });
    expect(await cli.run('keys', 'list', '--account', 'ghost', '--json')).to.include({
      code: 1,
      err: '{"error":"failure","message":"no account with id or name \\"ghost\\" (npx svc accounts list shows them)"}\n',
    });
  });

  it('refuses a bad store setting with exit 2', async () => {
    let err = '';
    const code = await runCli(['accounts', 'list'], {
      env: { DATABASE_URL: 'mysql://db/svc' },
      out: () => {},
      err: (t) => void (err += t),
      now: () => 0,
      program: 'npx svc',
      serve: async () => {},
      mcp: async () => 0,
    });
    expect(code).to.equal(2);
    expect(err).to.equal('svc: DATABASE_URL must be a postgres:// URL; leave it unset for the embedded SQLite store\n');
  });

  it('passes mcp through to the stdio tool server, and refuses an argument with exit 2', async () => {
    expect((await cli.run('mcp', '--help')).out).to.equal(
      'Usage: npx svc mcp\n\nRuns the tool (MCP) server over stdio, against SVC_BASE_URL (default http://localhost:8080) with the key SVC_API_KEY.\n',
    );
    expect(cli.served).to.deep.equal([]);
    expect((await cli.run('mcp')).code).to.equal(0);
    expect(cli.served).to.deep.equal(['mcp']);
    expect(await cli.run('mcp', 'extra')).to.include({ code: 2, err: 'svc: unexpected argument "extra"\nRun "npx svc mcp --help" for usage.\n' });
  });

  it('passes serve through with the chosen role, both by default, and refuses an unknown role with exit 2', async () => {
    expect(await cli.run('serve', '--help')).to.include({ code: 0, out: 'Usage: npx svc serve [--role api|worker|both]\n\nRuns the service (default role: both).\n' });
    expect(cli.served).to.deep.equal([]);
    expect((await cli.run('serve', '--role', 'worker')).code).to.equal(0);
    expect((await cli.run('serve')).code).to.equal(0);
    expect(cli.served).to.deep.equal(['worker', 'both']);
    expect(await cli.run('serve', '--role', 'cook')).to.include({ code: 2, err: 'svc: --role must be api, worker or both, got "cook"\nRun "npx svc serve --help" for usage.\n' });
    expect(cli.served).to.have.length(2);
  });
});
