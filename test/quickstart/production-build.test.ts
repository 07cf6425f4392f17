// The production build, as docs/operations.md tells an operator to run it: `npm run build`, then, with
// NODE_ENV=production (no dev account, no printed key), an account and key made by the built CLI and the service
// started from dist/ with plain node. A sandbox call placed on it completes and its recording downloads. Every
// other test runs the TypeScript sources; this one is the proof that the compiled tree is whole (the .mjs worker
// files, openapi.yaml, the static pages and the IRSF list are all read from dist/ at run time).
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkoutLock } from '../support/checkout-lock.js';
import { freePort } from '../support/free-port.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the production build', function () {
  this.timeout(180_000);
  let dataDir: string;
  let service: ChildProcess | null = null;
  // The build writes sdk/dist, which the SDK package test rebuilds too: the file holds the checkout's lock on it.
  let unlock = () => {};
  before(async function () {
    unlock = await checkoutLock('sdk-dist');
    const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
    expect(built.status, `${built.stdout}\n${built.stderr}`).to.equal(0);
  });
  after(() => unlock());
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-built-'));
  });
  afterEach(() => {
    service?.kill('SIGKILL');
    service = null;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('emits JavaScript for the service, its CLI and the SDK, beside the files they read at run time', () => {
    for (const file of [
      'dist/server/src/main.js',
      'dist/server/src/main.js.map',
      'dist/server/src/cli/main.js',
      'dist/server/src/placement/placement-worker-thread.mjs',
      'dist/server/src/batches/batch-body-thread.mjs',
      'dist/openapi.yaml',
      'dist/server/static/versioning.html',
      'dist/server/data/irsf-prefixes.txt',
      'dist/sdk/src/mcp/stdio-server.js',
      'sdk/dist/index.js',
      'sdk/dist/index.d.ts',
      'sdk/dist/mcp/svc-mcp.js',
    ]) {
      expect(existsSync(join(ROOT, file)), file).to.equal(true);
    }
  });

  it('imports only packages listed in dependencies, so it runs after npm prune --omit=dev', () => {
    const { dependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const imported = new Set<string>();
    for (const entry of readdirSync(join(ROOT, 'dist'), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.m?js$/.test(entry.name)) continue;
      const code = readFileSync(join(entry.parentPath, entry.name), 'utf8');
      for (const [, specifier] of code.matchAll(/(?:^import [^'"]*|^export [^'"]* from |\bimport\(|\)\.resolve\()['"]([^'"./][^'"]*)['"]/gm)) {
        if (specifier.startsWith('node:')) continue;
        imported.add(
          specifier
            .split('/')
            .slice(0, specifier.startsWith('@') ? 2 : 1)
            .join('/'),
        );
      }
    }
    expect(imported.size).to.be.above(10);
    expect([...imported].filter((name) => !(name in dependencies))).to.deep.equal([]);
  });

  it('runs with plain node in production mode: the built CLI makes a key, and a call placed with it completes and records', async () => {
    const port = await freePort();
    const env = { ...process.env, NODE_ENV: 'production', SVC_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SVC_SANDBOX_TIME_SCALE: '0.01' };
    const cli = (args: string[]) => {
      const run = spawnSync(process.execPath, ['dist/server/src/cli/main.js', ...args, '--json'], { cwd: ROOT, env, encoding: 'utf8' });
      expect(run.status, run.stderr).to.equal(0);
      return JSON.parse(run.stdout) as Record<string, string>;
    };
    cli(['accounts', 'create', '--name', 'prod', '--caller-id', '+14155550100']);
    const { key } = cli(['keys', 'create', '--account', 'prod']);

    service = spawn(process.execPath, ['--enable-source-maps', 'dist/server/src/main.js'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    service.stdout!.on('data', (c) => (out += c));
    service.stderr!.on('data', (c) => (out += c));
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 30_000;
    while (
      (await fetch(`${base}/readyz`).then(
        (r) => r.status,
        () => 0,
      )) !== 200
    ) {
      if (service.exitCode !== null || Date.now() > deadline) throw new Error(`the built service did not become ready:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // Production mode seeds nothing and prints no key.
    expect(out).to.not.include('dev API key');
    expect(out).to.not.match(/svc_ak_/);

    const auth = { authorization: `Bearer ${key}` };
    const placed = await fetch(`${base}/v1/agent/calls`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' }),
    });
    expect(placed.status).to.equal(202);
    const { callId } = (await placed.json()) as { callId: string };
    let call = { status: 'queued', recordingUrl: null as string | null };
    for (let i = 0; i < 300 && call.status !== 'completed' && call.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      call = await (await fetch(`${base}/v1/agent/calls/${callId}`, { headers: auth })).json();
    }
    expect(call.status).to.equal('completed');
    const recording = await fetch(`${base}/v1/agent/calls/${callId}/recording`, { headers: auth });
    expect(recording.status).to.equal(200);
    expect(recording.headers.get('content-type')).to.equal('audio/wav');
    expect(
      Buffer.from(await recording.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).to.equal('RIFF');
    // The contract and the reference page come from the copies under dist/.
    expect((await fetch(`${base}/openapi.json`)).status).to.equal(200);
    expect((await fetch(`${base}/docs`)).status).to.equal(200);
  });
});
