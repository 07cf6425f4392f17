// The documentation, run as written: README.md and every docs/*.md in turn, each shell block line by line in one
// bash session (a reader's terminal), each TypeScript and Python block as a program, and each `npx svc …` command of
// the prose, against a fresh service started as the quick start says (`npm start`, on an empty data folder). A
// command fails when it exits other than 0 or answers with the API's error body. What a reader fills in is filled in
// (the port, the key the start banner hands over where a page writes `svc_ak_…`, the call just placed), and the
// store is the service's own; the key is in the environment only once a page has exported it.
// A block that cannot run here says so in the page (see test/support/doc-samples.ts); it is listed below as a
// skipped test, with its reason.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { scrubSecrets } from '../../server/src/http/observability/service-logger.js';
import { commandsOf, NEVER_RUN, samplesOf, STARTS_SERVICE, type Sample } from '../support/doc-samples.js';
import { DocShell, filledIn, readerEnv, ROOT, startService, type Fill, type Ran } from '../support/doc-shell.js';
import { freePort } from '../support/free-port.js';
import { killOnExit } from '../support/kill-on-exit.js';

const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const SHELL = ['sh', 'bash', 'shell', 'inline'];
const TYPESCRIPT = ['ts', 'typescript'];
const PYTHON = ['python', 'py'];
/** tsx's loader, by its address: the sample's folder is outside the repository, where `--import tsx` finds nothing. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
/** A command's own limit: generous, as a loaded machine starts npx and tsx slowly. */
const COMMAND_MS = 120_000;

const samples = PAGES.flatMap((page) => samplesOf(join(ROOT, page)).map((s) => ({ ...s, file: page })));
/** `docs/cli.md:12 npx svc accounts create --name acme … (6 lines)`: where the sample is, and how it starts. */
function title(s: Sample): string {
  const lines = SHELL.includes(s.lang) ? commandsOf(s.text) : s.text.split('\n');
  const first = lines[0]
    .split('\n')[0]
    .replace(/\s+#.*$/, '')
    .replace(/\s*\\$/, ' …');
  return `${s.file}:${s.line} ${first.length > 72 ? `${first.slice(0, 72)}…` : first}${lines.length > 1 ? ` (${lines.length} lines)` : ''}`;
}

describe('the documentation, run as written', function () {
  this.timeout(10 * 60_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-docs-runner-'));
  const fill: Fill = { port: 0, key: '' };
  let service: ChildProcess | undefined;
  let banner = '';
  let env: Record<string, string>;
  // The reader's terminal: one session for every page, in order, so the key README.md exports is there for the
  // pages after it, as it would be for a reader who started there.
  let shell: DocShell;

  before(async () => {
    fill.port = await freePort();
    // The quick start's `npm start`, with the sandbox at twenty times real time so a call ends in about 2 s.
    service = spawn('npm', ['start'], {
      cwd: ROOT,
      env: readerEnv({ PORT: String(fill.port), HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, SVC_SANDBOX_TIME_SCALE: '0.05' }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    killOnExit(service);
    service.stdout!.on('data', (c: Buffer) => (banner += c.toString()));
    service.stderr!.on('data', (c: Buffer) => (banner += c.toString()));
    const end = Date.now() + 180_000;
    while (!/^ {2}export SVC_API_KEY=svc_ak_\S+\n/m.test(banner)) {
      if (service.exitCode !== null || Date.now() > end) throw new Error(`npm start did not print its banner:\n${scrubSecrets(banner)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    fill.key = /^ {2}export SVC_API_KEY=(svc_ak_\S+)\n/m.exec(banner)![1];
    // The store and the port are filled in where a reader relies on their defaults (./data, localhost:8080).
    env = readerEnv({ SVC_DATA_DIR: dataDir, SVC_BASE_URL: `http://localhost:${fill.port}` });
    shell = new DocShell(env);
  });

  after(async () => {
    shell?.close();
    if (service?.exitCode === null) {
      const exited = new Promise((resolve) => service!.once('exit', resolve));
      process.kill(-service.pid!, 'SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts with a banner that names the API reference and the console, and hands over the key as a line to paste', () => {
    const base = `http://localhost:${fill.port}`;
    expect(banner).to.include(`\n  API reference:      ${base}/docs\n`);
    expect(banner).to.include(`\n  console:            ${base}/console  (sign in with the key below)\n`);
    expect(banner).to.include(`\n  export SVC_API_KEY=${fill.key}\n`);
  });

  it('tags every code block with its language (sh and ts run; text, json and the like are read)', () => {
    expect(samples.filter((s) => s.lang === '').map(title)).to.deep.equal([]);
  });

  it('writes every svc command a reader may copy as npx svc …, which is how it runs from a clone', () => {
    const bare = PAGES.flatMap((page) =>
      [...readFileSync(join(ROOT, page), 'utf8').matchAll(/(?<!npx )`(svc [a-z-]+ [^`]*--[^`]*)`/g)]
        .map((m) => m[1])
        .filter((c) => !/[<>|…[\]]/.test(c))
        .map((c) => `${page}: ${c}`),
    );
    expect(bare).to.deep.equal([]);
  });

  for (const page of PAGES) {
    const runnable = samples.filter((s) => s.file === page && [...SHELL, ...TYPESCRIPT, ...PYTHON].includes(s.lang));
    if (runnable.length === 0) continue;
    describe(page, () => {
      for (const sample of runnable) {
        if (sample.marker?.kind === 'skip') {
          it.skip(`${title(sample)}: skipped, ${sample.marker.reason}`);
        } else if (sample.marker?.kind === 'run-by') {
          const by = sample.marker.test;
          it(`hands ${title(sample)} to ${by}, which runs it`, () => {
            expect(existsSync(join(ROOT, by)), by).to.equal(true);
            expect(readFileSync(join(ROOT, by), 'utf8')).to.include(`'${page}'`);
          });
        } else {
          it(`runs ${title(sample)}`, async () => {
            const failures = SHELL.includes(sample.lang) ? await runShell(sample) : await runProgram(sample);
            expect(failures).to.deep.equal([]);
          });
        }
      }
    });
  }

  async function runShell(sample: Sample): Promise<string[]> {
    const failures: string[] = [];
    for (const command of commandsOf(sample.text)) {
      const line = filledIn(command, fill);
      // Refused unrun; `npm run build` too, as the production build's test builds dist/ and runs what uses it.
      if (NEVER_RUN.test(line) || /\bnpm run build\b/.test(line)) {
        failures.push(`${command}\n  not run: it changes the checkout or runs the suite; mark the block skip (or run by the test that runs it)`);
        continue;
      }
      if (STARTS_SERVICE.test(line)) {
        const started = await startService(line, env, await freePort(), COMMAND_MS);
        await started.stop();
        if (!started.ready) failures.push(failure(command, { code: null, out: started.output(), err: '' }, 'did not start'));
        continue;
      }
      const ran = await shell.run(line, COMMAND_MS);
      const why = ran.code === null ? 'did not end' : ran.code !== 0 ? `exited ${ran.code}` : errorBody(ran.out);
      if (why) failures.push(failure(command, ran, why));
      fill.callId = /"callId":"([0-9a-f-]{36})"/.exec(ran.out)?.[1] ?? fill.callId;
    }
    return failures;
  }

  /**
   * A TypeScript or Python sample as a program, in a folder of its own where the SDK is found as an installed
   * package would be (`@svc/sdk` mapped to the SDK's sources; the Python package's sources on PYTHONPATH).
   */
  async function runProgram(sample: Sample): Promise<string[]> {
    const dir = mkdtempSync(join(tmpdir(), 'svc-docs-sample-'));
    try {
      const python = PYTHON.includes(sample.lang);
      const file = python ? 'sample.py' : 'sample.mts';
      if (!python) writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { paths: { '@svc/sdk': [join(ROOT, 'sdk/src/index.ts')] } } }));
      writeFileSync(join(dir, file), filledIn(sample.text, fill));
      // Run from the reader's terminal: with what it exported so far.
      const exported = await shell.run('env -0', COMMAND_MS);
      const shellEnv = Object.fromEntries(
        exported.out
          .split('\0')
          .filter(Boolean)
          .map((v) => [v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1)]),
      );
      const ran = await new Promise<Ran>((resolve) => {
        const [command, ...args] = python ? ['python3', file] : [process.execPath, '--import', TSX, file];
        const programEnv = python ? { ...shellEnv, PYTHONPATH: join(ROOT, 'sdk-python/src') } : shellEnv;
        const child = spawn(command, args, { cwd: dir, env: programEnv, stdio: ['ignore', 'pipe', 'pipe'] });
        killOnExit(child);
        let out = '';
        let err = '';
        child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), COMMAND_MS);
        child.once('exit', (code) => (clearTimeout(timer), resolve({ code, out, err })));
      });
      return ran.code === 0 ? [] : [failure(sample.text, ran, `exited ${ran.code}`)];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

/** The API's error body (`{"error": …}`), which curl prints with exit 0: a documented request that is refused. */
function errorBody(out: string): string | null {
  try {
    const body = JSON.parse(out);
    return body && typeof body === 'object' && typeof body.error === 'string' ? `answered ${body.error}` : null;
  } catch {
    return null;
  }
}

function failure(command: string, ran: Ran, why: string): string {
  const tail = (text: string) => scrubSecrets(text.trim()).split('\n').slice(-8).join('\n');
  return `${command}\n  ${why}\n  stdout: ${tail(ran.out)}\n  stderr: ${tail(ran.err)}`;
}
