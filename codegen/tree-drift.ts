// The drift gates' comparison (codegen/check.ts, scripts/console-check.ts): a tree built afresh against the one
// committed, file for file and byte for byte.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    // Python's bytecode caches appear beside the generated Python wherever it was imported; they are not output.
    if (name === '__pycache__') return [];
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/** The paths (relative to each tree) that differ: changed, missing from the committed tree, or no longer built. */
export function treeDrift(fresh: string, committed: string): string[] {
  const names = new Set([...files(fresh).map((f) => relative(fresh, f)), ...files(committed).map((f) => relative(committed, f))]);
  const drift: string[] = [];
  for (const f of names) {
    const a = existsSync(join(fresh, f)) ? readFileSync(join(fresh, f)) : null;
    const b = existsSync(join(committed, f)) ? readFileSync(join(committed, f)) : null;
    if (a === null) drift.push(`${f} (stale, no longer generated)`);
    else if (b === null) drift.push(`${f} (missing)`);
    else if (!a.equals(b)) drift.push(f);
  }
  return drift;
}
