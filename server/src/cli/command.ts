// What a command is: its options (node:util parseArgs), its named positionals, and a run function given the
// parsed values and an open store. Commands print through `emit`, which writes JSON under --json and the
// human-readable text otherwise.
import type { ParseArgsConfig } from 'node:util';
import type { Config } from '../config.js';
import type { Store } from '../store/store.js';

export interface CommandContext {
  store: Store;
  config: Config;
  now: () => number;
  /** How the user runs the CLI (`npx svc`, or the built entry point), for hints naming another command. */
  program: string;
  /** Writes `data` as JSON under --json, else `text`. */
  emit(data: unknown, text: string): void;
}

export type CommandOptions = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | boolean | undefined>;

export interface Command {
  /** `accounts create`, as typed. */
  name: string;
  summary: string;
  /** The synopsis after the command name, e.g. `--account <id|name> <e164>`. */
  synopsis: string;
  options: CommandOptions;
  /** Names of the positional arguments, all required. */
  positionals?: string[];
  /** Resolves with the exit code when it is not 0 and nothing was thrown (a report whose checks failed). */
  run(ctx: CommandContext, values: OptionValues, positionals: string[]): Promise<void | number>;
}
