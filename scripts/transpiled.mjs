// The service's source as plain JS, laid out as dist/ is, made once for each state of the source and kept under
// .cache/ in the checkout (so its imports find node_modules). `npm start`, `npx svc` and `npm test` run on it: a
// process then starts on node alone rather than compiling and resolving its modules through tsx's loader, which
// is most of a start's CPU. esbuild (what tsx itself runs) transpiles each file on its own, as tsx does, so the
// code run is the same, with source maps, so stack traces name the .ts lines. The state of the source is the path,
// size and modification time of every file under server/src, sdk/src, server/static and server/data, with this
// file and esbuild's version: an edit, a checkout or codegen makes a new folder. Folders of other states are
// removed once a day old (a service started from one may still load modules from it).
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(ROOT, '.cache');
const SOURCES = ['server/src', 'sdk/src', 'server/static', 'server/data'];
/** Written last into a folder once it is whole. */
const DONE = '.transpiled';
const DAY_MS = 24 * 60 * 60 * 1000;

/** The folder of the source as it is now, made if it is not there yet. */
export async function transpiled() {
  const files = SOURCES.flatMap((top) =>
    readdirSync(join(ROOT, top), { recursive: true })
      .map((f) => join(top, f))
      .sort(),
  );
  const hash = createHash('sha256');
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  hash.update(readFileSync(join(ROOT, 'node_modules', 'esbuild', 'package.json')));
  for (const file of files) {
    const s = statSync(join(ROOT, file));
    if (s.isFile()) hash.update(`${file} ${s.size} ${s.mtimeMs}\n`);
  }
  const dir = join(CACHE, `source-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(join(dir, DONE))) return dir;
  mkdirSync(CACHE, { recursive: true });
  // Made aside and renamed into place whole: processes starting together each make one, and the first rename wins.
  const making = mkdtempSync(join(CACHE, 'making-'));
  try {
    const { build } = await import('esbuild');
    const entryPoints = files.filter((f) => /^(server|sdk)\/src\/.*\.ts$/.test(f) && !f.endsWith('.d.ts')).map((f) => join(ROOT, f));
    await build({ entryPoints, outdir: making, outbase: ROOT, format: 'esm', platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' });
    const assets = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-assets.mjs'), making], { cwd: ROOT, stdio: 'inherit' });
    if (assets.status !== 0) throw new Error('scripts/build-assets.mjs failed');
    writeFileSync(join(making, DONE), '');
    try {
      renameSync(making, dir);
    } catch (err) {
      if (!existsSync(join(dir, DONE))) throw err;
    }
  } finally {
    rmSync(making, { recursive: true, force: true });
  }
  prune(dir);
  return dir;
}

/**
 * Runs `entry` (a module of the source, such as `server/src/main.ts`) from the transpiled folder; through tsx, on the
 * source itself, when the folder cannot be made.
 */
export async function runSource(entry) {
  let dir = null;
  try {
    dir = await transpiled();
  } catch (err) {
    process.stderr.write(`svc: running the TypeScript through tsx: the transpiled source could not be made (${err.message})\n`);
  }
  if (dir) {
    process.setSourceMapsEnabled(true);
    return import(pathToFileURL(join(dir, entry.replace(/\.ts$/, '.js'))).href);
  }
  (await import('tsx/esm/api')).register();
  return import(pathToFileURL(join(ROOT, entry)).href);
}

function prune(keep) {
  const now = Date.now();
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (path === keep || !/^(source|making)-/.test(name)) continue;
    try {
      if (now - statSync(path).mtimeMs > DAY_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}
