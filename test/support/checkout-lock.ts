// A lock held across the processes of one checkout's test run (mocha's parallel workers), for the files that two
// test files both write in the checkout: sdk/dist, which the production build (`npm run build`) and the SDK
// package test (`npm pack`, whose prepack empties it first) rebuild. The lock is a directory holding the pid of
// its holder, put in place whole by one rename, so a lock left by a process that died is taken over, not waited on.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Waits for the checkout's lock of `name`, then holds it until the returned function is called. */
export async function checkoutLock(name: string): Promise<() => void> {
  const dir = join(tmpdir(), `svc-lock-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}-${name}`);
  for (;;) {
    const mine = mkdtempSync(`${dir}-`);
    writeFileSync(join(mine, 'pid'), String(process.pid));
    try {
      renameSync(mine, dir);
      return () => rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      rmSync(mine, { recursive: true, force: true });
      if (!['EEXIST', 'ENOTEMPTY'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    }
    if (!holderAlive(dir)) rmSync(dir, { recursive: true, force: true });
    else await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function holderAlive(dir: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
  } catch {
    // Let go of since it was found held.
    return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
