// The svc command line: finds the command, parses its options with node:util parseArgs, opens and migrates the
// store the service itself would use (SVC_DATA_DIR or DATABASE_URL), runs the command and returns the exit
// code: 0 done, 1 refused or failed, 2 a wrong invocation.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { scrubSecrets } from '../http/observability/service-logger.js';
import { storeFor } from '../store/open-store.js';
import { migrate } from '../store/store.js';
import { CliFailure, UsageError } from './cli-error.js';
import type { Command, CommandOptions, OptionValues } from './command.js';
import { accountCommands } from './commands/account-commands.js';
import { keyCommands } from './commands/key-commands.js';
import { numberCommands } from './commands/number-commands.js';
import { dncCommands } from './commands/dnc-commands.js';
import { doctorCommands } from './commands/doctor-command.js';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
  now(): number;
  /** How the user runs this command (`npx svc`, or the built entry point): named in usage lines and hints. */
  program: string;
  /** Starts the service in this process with SVC_ROLE set; resolves once it is up. */
  serve(role: string): Promise<void>;
  /** Starts the stdio tool server on this process's stdin and stdout; resolves with 2 when it cannot start. */
  mcp(): Promise<number>;
}

const COMMANDS: Command[] = [...accountCommands, ...keyCommands, ...numberCommands, ...dncCommands, ...doctorCommands];
const ROLES = ['api', 'worker', 'both'];
const GLOBAL_OPTIONS = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

function helpText(program: string): string {
  const lines = [
    `Usage: ${program} <command> [options] [--json]`,
    '',
    'Manages the developer settings in the store the service uses (SVC_DATA_DIR, or DATABASE_URL for Postgres).',
    '--json prints machine-readable output; errors then go to stderr as {"error","message"}.',
    'Exit codes: 0 done, 1 refused or failed, 2 wrong usage.',
    '',
    'Commands:',
    '  serve [--role api|worker|both]',
    '      Run the service: the HTTP API, the workers, or both (default both; sets SVC_ROLE).',
    '  mcp',
    '      Run the tool (MCP) server over stdio for an assistant, against SVC_BASE_URL with SVC_API_KEY.',
  ];
  for (const c of COMMANDS) lines.push(`  ${c.name}${c.synopsis ? ` ${c.synopsis}` : ''}`, `      ${c.summary}`);
  return `${lines.join('\n')}\n`;
}

function commandHelp(program: string, c: Command): string {
  return `Usage: ${program} ${c.name}${c.synopsis ? ` ${c.synopsis}` : ''} [--json]\n\n${c.summary}\n`;
}

function findCommand(argv: string[]): { command: Command | 'serve' | 'mcp'; rest: string[] } | undefined {
  if (argv[0] === 'serve' || argv[0] === 'mcp') return { command: argv[0], rest: argv.slice(1) };
  const two = COMMANDS.find((c) => c.name === `${argv[0]} ${argv[1]}`);
  if (two) return { command: two, rest: argv.slice(2) };
  const one = COMMANDS.find((c) => c.name === argv[0]);
  return one ? { command: one, rest: argv.slice(1) } : undefined;
}

function parse(rest: string[], options: CommandOptions): { values: OptionValues; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: rest, options: { ...options, ...GLOBAL_OPTIONS }, allowPositionals: true, strict: true });
    return { values: values as OptionValues, positionals };
  } catch (err) {
    // parseArgs explains itself at length; say the same in one line.
    const message = (err as Error).message;
    const valueless = /^Option '(--[\w-]+)[^']*' argument (missing|is ambiguous)/.exec(message);
    if (valueless) throw new UsageError(`${valueless[1]} needs a value (write ${valueless[1]}=<value> for one that starts with "-")`);
    throw new UsageError(message.split('\n')[0].replace(/\s*To specify a positional argument.*$/, ''));
  }
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  const fail = (err: UsageError | CliFailure | Error, code: number, hint?: string) => {
    const message = scrubSecrets(err.message);
    if (json) io.err(`${JSON.stringify({ error: code === 2 ? 'usage' : 'failure', message })}\n`);
    else io.err(`svc: ${message}\n${hint ? `${hint}\n` : ''}`);
    return code;
  };

  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    (argv.length === 0 ? io.err : io.out)(helpText(io.program));
    return argv.length === 0 ? 2 : 0;
  }
  const found = findCommand(argv);
  if (!found) {
    const known = [...new Set(COMMANDS.map((c) => c.name.split(' ')[0]))];
    const group = COMMANDS.filter((c) => c.name.startsWith(`${argv[0]} `)).map((c) => c.name.split(' ')[1]);
    const message = !group.length
      ? `unknown command "${argv[0]}"; commands: serve, mcp, ${known.join(', ')}`
      : argv[1] === undefined || argv[1].startsWith('-')
        ? `"${argv[0]}" needs a subcommand: ${group.join(', ')}`
        : `unknown subcommand "${argv[0]} ${argv[1]}"; "${argv[0]}" takes ${group.join(', ')}`;
    return fail(new UsageError(message), 2, `Run "${io.program} --help" for usage.`);
  }
  const { command, rest } = found;
  const name = typeof command === 'string' ? command : command.name;
  try {
    if (command === 'mcp') {
      const { values, positionals } = parse(rest, {});
      if (values.help) {
        io.out(`Usage: ${io.program} mcp\n\nRuns the tool (MCP) server over stdio, against SVC_BASE_URL (default http://localhost:8080) with the key SVC_API_KEY.\n`);
        return 0;
      }
      if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
      return await io.mcp();
    }
    if (command === 'serve') {
      const { values, positionals } = parse(rest, { role: { type: 'string' } });
      if (values.help) {
        io.out(`Usage: ${io.program} serve [--role api|worker|both]\n\nRuns the service (default role: both).\n`);
        return 0;
      }
      if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
      const role = typeof values.role === 'string' ? values.role : 'both';
      if (!ROLES.includes(role)) throw new UsageError(`--role must be api, worker or both, got "${role}"`);
      await io.serve(role);
      return 0;
    }
    const { values, positionals } = parse(rest, command.options);
    if (values.help) {
      io.out(commandHelp(io.program, command));
      return 0;
    }
    const wanted = command.positionals ?? [];
    if (positionals.length < wanted.length) throw new UsageError(`missing <${wanted[positionals.length]}>`);
    if (positionals.length > wanted.length) throw new UsageError(`unexpected argument "${positionals[wanted.length]}"`);
    const config = loadConfig(io.env);
    const store = storeFor(config, { poolSize: 1 });
    try {
      await migrate(store);
      const code = await command.run(
        {
          store,
          config,
          now: io.now,
          program: io.program,
          emit: (data, text) => io.out(json ? `${JSON.stringify(data, null, 2)}\n` : `${text}\n`),
        },
        values,
        positionals,
      );
      return code ?? 0;
    } finally {
      await store.close();
    }
  } catch (err) {
    if (err instanceof UsageError) return fail(err, 2, `Run "${io.program} ${name} --help" for usage.`);
    if (err instanceof ConfigError) return fail(err, 2);
    if (err instanceof CliFailure) return fail(err, 1);
    return fail(err as Error, 1);
  }
}
