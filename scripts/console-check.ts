// The console's drift gate: build it into a temporary folder and fail when the committed build
// (server/static/console) differs, file for file. `npm run console:build` writes the committed one.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const COMMITTED = join(ROOT, 'server/static/console');

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

const out = mkdtempSync(join(tmpdir(), 'svc-console-'));
try {
  execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', join(ROOT, 'console/vite.config.ts'), '--outDir', out, '--emptyOutDir'], { stdio: 'inherit', cwd: ROOT });
  const names = new Set([...files(out).map((f) => relative(out, f)), ...files(COMMITTED).map((f) => relative(COMMITTED, f))]);
  const drift = [...names].filter((f) => {
    const a = existsSync(join(out, f)) ? readFileSync(join(out, f)) : null;
    const b = existsSync(join(COMMITTED, f)) ? readFileSync(join(COMMITTED, f)) : null;
    return a === null || b === null || !a.equals(b);
  });
  if (drift.length) {
    console.error(`console drift: run \`npm run console:build\` and commit the result.\n  ${drift.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log('console: the committed build matches console/');
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
