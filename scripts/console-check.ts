// The console's drift gate: build it into a temporary folder and fail when the committed build
// (server/static/console) differs, file for file. `npm run console:build` writes the committed one. It also keeps
// the bundle's budget: its JavaScript, gzipped, at most JS_BUDGET bytes (docs/console.md).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { treeDrift } from '../codegen/tree-drift.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const COMMITTED = join(ROOT, 'server/static/console');
const JS_BUDGET = 36 * 1024;

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
  const assets = join(out, 'assets');
  const js = readdirSync(assets).filter((f) => f.endsWith('.js'));
  const gzipped = js.reduce((n, f) => n + gzipSync(readFileSync(join(assets, f))).length, 0);
  if (gzipped > JS_BUDGET) {
    console.error(`console: its JavaScript is ${gzipped} bytes gzipped, over the budget of ${JS_BUDGET}.`);
    process.exitCode = 1;
  } else {
    console.log(`console: ${gzipped} bytes of JavaScript gzipped, within the budget of ${JS_BUDGET}`);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
