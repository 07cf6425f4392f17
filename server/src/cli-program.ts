// How a person at a shell runs this installation's svc command, for the hints the CLI and the start banner print.
// Built, it is the compiled entry point run with node, named relative to the working folder (npx would run the
// sources, not the build). From the sources it is `npx svc`, the documented way, unless the command was started
// as a plain `svc` on the path (`npm link`), which then works from any folder. The sources run as TypeScript
// (tsx) or as their transpiled copy under .cache/ (scripts/transpiled.mjs, what `npm start` and `npx svc` run).
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Invocation {
  /** The script node was started with (process.argv[1]). */
  script?: string;
  /** npm's `npm_command`: `exec` under npx. */
  npmCommand?: string;
  cwd: string;
}

export function cliProgram({ script, npmCommand, cwd }: Invocation = { script: process.argv[1], npmCommand: process.env.npm_command, cwd: process.cwd() }): string {
  const here = fileURLToPath(import.meta.url);
  const fromSource = here.endsWith('.ts') || here.includes(`${sep}.cache${sep}source-`);
  if (!fromSource) return `node ${relative(cwd, join(dirname(here), 'cli', 'main.js'))}`;
  return script !== undefined && basename(script) === 'svc' && npmCommand !== 'exec' ? 'svc' : 'npx svc';
}
