// The drift gate: regenerate into a temporary folder and fail when any committed generated file differs.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { GENERATED_DIRS, ROOT, generate } from './generate.js';

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

const out = mkdtempSync(join(tmpdir(), 'svc-codegen-'));
try {
  await generate(out);
  const drift: string[] = [];
  for (const dir of GENERATED_DIRS) {
    const fresh = files(join(out, dir)).map((f) => relative(out, f));
    const committed = files(join(ROOT, dir)).map((f) => relative(ROOT, f));
    for (const f of new Set([...fresh, ...committed])) {
      const a = existsSync(join(out, f)) ? readFileSync(join(out, f), 'utf8') : null;
      const b = existsSync(join(ROOT, f)) ? readFileSync(join(ROOT, f), 'utf8') : null;
      if (a !== b) drift.push(a === null ? `${f} (stale, no longer generated)` : b === null ? `${f} (missing)` : f);
    }
  }
  if (drift.length) {
    console.error(`codegen drift: run \`npm run codegen\` and commit the result.\n  ${drift.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log('codegen: generated files match openapi.yaml');
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
