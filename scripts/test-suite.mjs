// `npm test`: every test file under test/ (any *.test.ts, found anew each run), in mocha's parallel mode. Each
// worker is a process of its own that takes the next file when it is done with one, so the slow files (processes
// scaled out and SIGKILLed, the production build, a browser) run beside the rest. Files start longest first, by
// test/file-times.json, so that none of the long ones is left to run alone at the end; a file the table does not
// know yet is given the table's mean. Mocha's options (.mocharc.json: tsx, timeout, reporter, --exit) apply as they
// do to `npx mocha <file>`; arguments after `npm test --` are passed on (`--grep`, `--bail`).
// The service's own processes that tests start (api and worker processes, crashed and restarted ones) run on the
// plain JS that `npm start` runs (scripts/transpiled.mjs), made before the run if the source changed since it was
// last (SVC_TEST_SERVICE_DIR; test/support/service-entry.ts): each process then starts on node alone rather than
// compiling its modules through tsx's loader, about half its start's CPU, and a run starts dozens of them.
//   SVC_TEST_JOBS=n             worker processes (default 4: most of a test waits on Postgres, sockets or a child)
//   SVC_TEST_WRITE_TIMES=1      afterwards, writes each file's time in this run to test/file-times.json
//   SVC_TEST_CPU_LOG=path       appends each file's CPU seconds (its worker's and the children it started) to path,
//                               a JSON line a file (test/support/root-hooks.ts): what a file costs a run bound by CPU
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transpiled } from './transpiled.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TIMES = join(ROOT, 'test', 'file-times.json');
const MOCHA = join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');

const files = readdirSync(join(ROOT, 'test'), { recursive: true })
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => join('test', f))
  .sort();
/** @type {Record<string, number>} seconds per file */
const known = existsSync(TIMES) ? JSON.parse(readFileSync(TIMES, 'utf8')) : {};
const seconds = Object.values(known);
const guess = seconds.length > 0 ? seconds.reduce((a, b) => a + b, 0) / seconds.length : 1;
const order = files.map((file) => ({ file, s: known[file] ?? guess })).sort((a, b) => b.s - a.s || (a.file < b.file ? -1 : 1));

const jobs = process.env.SVC_TEST_JOBS ?? '4';
const env = { ...process.env };
const timesLog = process.env.SVC_TEST_WRITE_TIMES ? join(mkdtempSync(join(tmpdir(), 'svc-file-times-')), 'times.jsonl') : undefined;
if (timesLog) env.SVC_TEST_TIMES_LOG = timesLog;
env.SVC_TEST_SERVICE_DIR = await transpiled();

const mocha = spawn(process.execPath, [MOCHA, '--parallel', '--jobs', jobs, ...order.map((o) => o.file), ...process.argv.slice(2)], { cwd: ROOT, env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => mocha.kill(signal));
mocha.on('exit', (code, signal) => {
  if (timesLog) writeTimes(timesLog);
  if (signal) process.kill(process.pid, signal);
  process.exit(code ?? 1);
});

function writeTimes(log) {
  if (!existsSync(log)) return;
  const measured = Object.fromEntries(
    readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .map(({ file, ms }) => [relative(ROOT, file), Math.round(ms / 100) / 10])
      // Only the files of this run: a test that starts mocha itself (the reporter's) runs fixtures under the same log.
      .filter(([file]) => files.includes(file))
      .sort((a, b) => b[1] - a[1]),
  );
  writeFileSync(TIMES, `${JSON.stringify(measured, null, 2)}\n`);
  rmSync(join(log, '..'), { recursive: true, force: true });
}
