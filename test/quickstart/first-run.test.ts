// A newcomer's first minutes, as processes: `npm start` on an empty data folder prints a key that works (this
// test places a call with it and sees it complete), a second start finds the same account, SIGTERM in the middle
// of a call shuts down cleanly and the call completes after a restart, and `npm run demo` tells the whole story.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../../server/src/store/open-store.js';
import { freePort } from '../support/free-port.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Started {
  proc: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
}

/** `npm start`'s command (node scripts/start.mjs) in a child process; resolves once it listens and has seeded. */
async function start(env: Record<string, string>): Promise<Started> {
  const proc = spawn(process.execPath, ['scripts/start.mjs'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (c) => (out += c));
  proc.stderr!.on('data', (c) => (out += c));
  const exit = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  const deadline = Date.now() + 30_000;
  while (!/Place a sandbox call[^\n]*:\n[\s\S]*-d '/.test(out)) {
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`the service did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { proc, output: () => out, exit };
}

/** `npx svc …` as the banner says it, from the repository; resolves with its stdout. */
function runCli(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const cli = spawn('npx', ['svc', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    cli.stdout!.on('data', (c) => (out += c));
    cli.stderr!.on('data', (c) => (err += c));
    cli.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`npx svc ${args.join(' ')} exited ${code}: ${err}`))));
  });
}

describe('the quick start', function () {
  this.timeout(120_000);
  let dataDir: string;
  let running: Started | null = null;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-first-run-'));
  });
  afterEach(() => {
    running?.proc.kill('SIGKILL');
    running = null;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints a dev key on an empty data folder that places a sandbox call, and finds the same account on the next start', async () => {
    const port = await freePort();
    const env = { PORT: String(port), HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, SVC_SANDBOX_TIME_SCALE: '0.01', NODE_ENV: '' };
    running = await start(env);
    const out = running.output();
    const baseUrl = /svc is running at (\S+)/.exec(out)![1];
    const key = /dev API key:\s+(svc_ak_[A-Za-z0-9_-]+)/.exec(out)![1];
    expect(baseUrl).to.equal(`http://localhost:${port}`);
    expect(/webhook secret:\s+(whsec_\S+)/.test(out)).to.equal(true);
    // The banner hands over the key as a line to paste, and names the reference and the console, which are there.
    expect(out).to.include(`\n  export SVC_API_KEY=${key}\n`);
    expect(/API reference:\s+(\S+)/.exec(out)![1]).to.equal(`http://localhost:${port}/docs`);
    expect((await fetch(`http://127.0.0.1:${port}/docs`)).status).to.equal(200);
    const consoleUrl = /console:\s+(\S+)/.exec(out)![1];
    expect(consoleUrl).to.equal(`http://localhost:${port}/console`);
    const page = await fetch(`http://127.0.0.1:${port}/console`);
    expect([page.status, page.headers.get('content-type')]).to.deep.equal([200, 'text/html; charset=utf-8']);
    expect(await page.text()).to.match(/<script type="module" crossorigin src="\/console\/assets\/index-[\w-]+\.js"><\/script>/);
    // The banner's own curl, run as printed.
    const body = /-d '(\{.*\})'/.exec(out)![1];
    const res = await fetch(`http://127.0.0.1:${port}/v1/agent/calls`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
    expect(res.status).to.equal(202);
    const { callId } = await res.json();
    let call: { status: string; extracted: Record<string, unknown> | null } = { status: 'queued', extracted: null };
    for (let i = 0; i < 200 && !['completed', 'failed'].includes(call.status); i++) {
      await new Promise((r) => setTimeout(r, 100));
      call = await (await fetch(`http://127.0.0.1:${port}/v1/agent/calls/${callId}`, { headers: { authorization: `Bearer ${key}` } })).json();
    }
    expect(call.status).to.equal('completed');
    expect(Object.keys(call.extracted!)).to.deep.equal(['open_sunday']);

    running.proc.kill('SIGTERM');
    expect(await running.exit).to.equal(0);
    running = await start(env);
    const restarted = running.output();
    expect(restarted).to.include('dev API key:        printed on the first start only (it is stored hashed). To get one again, either');
    expect(restarted).to.include('make a new key:  npx svc keys create --account dev');
    expect(restarted).to.include('-H "Authorization: Bearer $SVC_API_KEY"');
    expect(restarted).to.not.include(key);
    const again = await fetch(`http://127.0.0.1:${port}/v1/agent/calls/${callId}`, { headers: { authorization: `Bearer ${key}` } });
    expect(again.status).to.equal(200);
    // The banner's way to a new key, followed while the service runs.
    const made = await runCli(['keys', 'create', '--account', 'dev', '--json'], { ...env });
    const newKey = (JSON.parse(made) as { key: string }).key;
    expect(newKey)
      .to.match(/^svc_ak_/)
      .and.not.equal(key);
    const withNewKey = await fetch(`http://127.0.0.1:${port}/v1/agent/calls`, { headers: { authorization: `Bearer ${newKey}` } });
    expect(withNewKey.status).to.equal(200);
    const store = openStore({ sqlitePath: join(dataDir, 'svc.db') });
    expect((await store.db.selectFrom('accounts').select('id').execute()).length).to.equal(1);
    await store.close();
  });

  it('shuts down on SIGTERM in the middle of a call, releasing its lease, and the call completes after a restart, dialled once', async () => {
    const port = await freePort();
    const env = { PORT: String(port), HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, SVC_SANDBOX_TIME_SCALE: '0.2', SVC_DEV_API_KEY: 'svc_ak_quickstart_test_key_0123456789', NODE_ENV: '' };
    running = await start(env);
    const auth = { authorization: 'Bearer svc_ak_quickstart_test_key_0123456789' };
    const res = await fetch(`http://127.0.0.1:${port}/v1/agent/calls`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' }),
    });
    const { callId } = await res.json();
    const store = openStore({ sqlitePath: join(dataDir, 'svc.db') });
    const status = async () => await store.db.selectFrom('calls').select(['status', 'lease_owner']).where('id', '=', callId).executeTakeFirstOrThrow();
    while ((await status()).status !== 'in_progress') await new Promise((r) => setTimeout(r, 20));
    const stoppedAt = Date.now();
    running.proc.kill('SIGTERM');
    expect(await running.exit).to.equal(0);
    expect(Date.now() - stoppedAt).to.be.below(10_000);
    expect(running.output()).to.include('shutting down');
    expect(await status()).to.deep.equal({ status: 'in_progress', lease_owner: null });
    running = await start(env);
    while (!['completed', 'failed'].includes((await status()).status)) await new Promise((r) => setTimeout(r, 50));
    expect((await status()).status).to.equal('completed');
    const dials = await store.db.selectFrom('sandbox_dials').select('call_id').where('call_id', '=', callId).execute();
    expect(dials).to.have.length(1);
    await store.close();
  });

  it('runs `npm run demo` on its own: each status as it happens, then the transcript, summary and extracted values', async () => {
    const demo = spawn('npm', ['run', '--silent', 'demo'], { cwd: ROOT, env: { ...process.env, SVC_API_KEY: '', SVC_SANDBOX_TIME_SCALE: '0.05' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    demo.stdout!.on('data', (c) => (out += c));
    demo.stderr!.on('data', (c) => (out += c));
    const code = await new Promise((r) => demo.once('exit', r));
    expect(code, out).to.equal(0);
    expect(out).to.match(/placed [0-9a-f-]{36} {2}language en-US \(inferred\), voice alloy/);
    // Polled every 50 ms: a state shorter than that (queued, dialing) may pass unseen; the ~2 s of talk cannot.
    const seen = [...out.matchAll(/^ {2}\+ *[\d.]+ s {2}(\w+)$/gm)].map((m) => m[1]);
    const order = ['queued', 'dialing', 'in_progress', 'completed'];
    expect(
      seen.map((st) => order.indexOf(st)),
      seen.join(' '),
    ).to.deep.equal([...seen.map((st) => order.indexOf(st))].sort());
    expect(seen.slice(-2)).to.deep.equal(['in_progress', 'completed']);
    expect(out).to.match(/transcript \([\d.]+ s of call time\)\n {2}Callee: /);
    expect(out).to.match(/summary\n {2}Objective: Ask whether the bakery is open on Sunday/);
    expect(out).to.match(/extracted\n {2}open_sunday +(true|false|null)\n {2}closing_time +(null|"[^"\n]+")\n {2}rye_loaves +(\d+(\.\d+)?|null)\n/);
    // The embedded service is gone once the demo ends: the recording is saved, not linked.
    const saved = /recording {2}saved to (\S+\.wav) \(\d+ KiB\)\n/.exec(out);
    expect(saved, out).to.not.equal(null);
    expect(readFileSync(saved![1]).subarray(0, 4).toString()).to.equal('RIFF');
    rmSync(saved![1]);
  });
});
