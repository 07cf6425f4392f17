// The console's drift gate: build it into a temporary folder and fail when the committed build
// (server/static/console) differs, file for file. `npm run console:build` writes the committed one.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { treeDrift } from '../codegen/tree-drift.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const COMMITTED = join(ROOT, 'server/static/console');

const out = mkdtempSync(join(tmpdir(), 'svc-console-'));
try {
  execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', join(ROOT, 'console/vite.config.ts'), '--outDir', out, '--emptyOutDir'], {
    stdio: 'inherit',
    cwd: ROOT,
  });
  const drift = treeDrift(out, COMMITTED);
  if (drift.length) {
    console.error(`console drift: run \`npm run console:build\` and commit the result.\n  ${drift.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log('console: the committed build matches console/');
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
