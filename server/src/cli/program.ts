// How a person at a shell runs this installation's svc command, for the hints the CLI and the start banner print:
// from the sources it is the package's bin through npx; built, it is the compiled entry point run with node,
// named relative to the working folder (npx would run the sources through tsx, not the build).
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export function cliProgram(cwd: string = process.cwd()): string {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) return 'npx svc';
  return `node ${relative(cwd, join(dirname(here), 'main.js'))}`;
}
