// How a test starts one of the service's own processes: node on the plain JS that `npm test` transpiled from the
// source before the run (scripts/test-suite.mjs names its folder in SVC_TEST_SERVICE_DIR), or, when a file runs
// alone (`npx mocha <file>`), tsx on the source itself. Either way it is the same code; the first starts in about
// half the CPU, which counts when a run starts dozens of them.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Node's arguments that run `entry` (a path from the repository's root, such as `server/src/main.ts`). */
export function serviceArgs(entry = 'server/src/main.ts'): string[] {
  const built = process.env.SVC_TEST_SERVICE_DIR;
  return built ? [join(built, entry.replace(/\.ts$/, '.js'))] : ['--import', 'tsx', join(ROOT, entry)];
}
