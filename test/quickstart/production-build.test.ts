// The production build, run from docs/operations.md as written (the block marked for this test, line by line, on an
// empty data folder): `npm run build`, an account and a key made by the built CLI, and the service started from
// dist/ with NODE_ENV=production (no dev account, no printed key). A sandbox call placed on it completes and its
// recording downloads. Every other test runs the TypeScript sources; this one is the proof that the compiled tree is
// whole (the .mjs worker files, the document's JSON, the static pages and the IRSF list are all read from dist/ at run
// time).
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkoutLock } from '../support/checkout-lock.js';
import { commandsOf, NEVER_RUN, samplesOf, STARTS_SERVICE } from '../support/doc-samples.js';
import { readerEnv, startService, type RunningService } from '../support/doc-shell.js';
import { freePort } from '../support/free-port.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAGE = 'docs/operations.md';
const block = samplesOf(join(ROOT, PAGE)).find((s) => s.marker?.kind === 'run-by' && s.marker.test === 'test/quickstart/production-build.test.ts');
const [build, ...steps] = commandsOf(block?.text ?? '');

describe('the production build', function () {
  this.timeout(180_000);
  let dataDir: string;
  let service: RunningService | null = null;
  // The build writes sdk/dist, which the SDK package test rebuilds too: the file holds the checkout's lock on it.
  let unlock = () => {};
  before(async function () {
    unlock = await checkoutLock('sdk-dist');
    expect(build, `the block of ${PAGE} marked for this test`).to.match(/^npm run build\b/);
    const built = spawnSync('bash', ['-c', build], { cwd: ROOT, encoding: 'utf8' });
    expect(built.status, `${built.stdout}\n${built.stderr}`).to.equal(0);
  });
  after(() => unlock());
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-built-'));
  });
  afterEach(async () => {
    await service?.stop();
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
      'dist/server/src/generated/openapi.gen.json',
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

  it('names the built CLI in its hints as it was run, so a hint pastes as it is', () => {
    const cli = (...args: string[]) => spawnSync(process.execPath, ['dist/server/src/cli/main.js', ...args], { cwd: ROOT, env: readerEnv({ SVC_DATA_DIR: dataDir }), encoding: 'utf8' });
    expect(cli('keys', 'create', '--account', 'acme')).to.include({
      status: 1,
      stderr: 'svc: no account with id or name "acme" (node dist/server/src/cli/main.js accounts list shows them)\n',
    });
    expect(cli('accounts', 'create', '--name', 'acme').stdout).to.match(/\nNext: node dist\/server\/src\/cli\/main\.js keys create --account acme\n$/);
  });

  it(`runs as ${PAGE} says: the built CLI makes an account and a key on an empty store, and a call placed on the built service completes and records`, async () => {
    const port = await freePort();
    // What a reader fills in: the store and the port; the sandbox runs a hundred times faster.
    const env = readerEnv({ SVC_DATA_DIR: dataDir, SVC_SANDBOX_TIME_SCALE: '0.01' });
    let key = '';
    for (const step of steps) {
      expect(NEVER_RUN.test(step), `${step}: a step this test never runs`).to.equal(false);
      if (STARTS_SERVICE.test(step)) {
        service = await startService(step, env, port, 60_000);
        expect(service.ready, `${step}\n${service.output()}`).to.equal(true);
        continue;
      }
      const ran = spawnSync('bash', ['-c', step], { cwd: ROOT, env, encoding: 'utf8' });
      expect(ran.status, `${step}\n${ran.stderr}`).to.equal(0);
      key = /API key:\s+(svc_ak_\S+)/.exec(ran.stdout)?.[1] ?? key;
    }
    expect(service, `${PAGE} starts the built service`).to.not.equal(null);
    expect(key, `${PAGE} makes a key`).to.match(/^svc_ak_/);
    const out = service!.output();
    const base = `http://127.0.0.1:${port}`;
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
