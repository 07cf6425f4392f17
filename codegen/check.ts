// The drift gate: regenerate into a temporary folder and fail when any committed generated file differs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GENERATED_DIRS, ROOT, generate } from './generate.js';
import { treeDrift } from './tree-drift.js';

const out = mkdtempSync(join(tmpdir(), 'svc-codegen-'));
try {
  await generate(out);
  const drift = GENERATED_DIRS.flatMap((dir) => treeDrift(join(out, dir), join(ROOT, dir)).map((f) => join(dir, f)));
  if (drift.length) {
    console.error(`codegen drift: run \`npm run codegen\` and commit the result.\n  ${drift.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log('codegen: generated files match openapi.yaml');
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
