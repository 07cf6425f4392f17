import { expect } from 'chai';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { signatureHeader } from '../../server/src/webhooks/signature.js';
import { freePort } from '../support/free-port.js';

// The examples, run as a developer runs them, against the real service (`server/src/main.ts`: engine, sandbox
// carrier and webhook dispatcher, with the sandbox's timings scaled down) on loopback.
const KEY = 'svc_ak_examples_test_key_0123456789';
const SECRET = 'whsec_examples_test_secret_0123456789abcdef';
const run = promisify(execFile);

/** Spawns `node --import tsx <script>` and resolves once `ready` appears in its output. */
function start(script: string, env: Record<string, string>, ready: string): Promise<{ child: ChildProcess; out: () => string; err: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const check = () => (out + err).includes(ready) && resolve({ child, out: () => out, err: () => err });
    child.stdout!.on('data', (c: Buffer) => ((out += c.toString()), check()));
    child.stderr!.on('data', (c: Buffer) => ((err += c.toString()), check()));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}:\n${out}\n${err}`)));
  });
}

/** SIGTERM, and SIGKILL if the process has not exited 12 s later (a service past its 10 s shutdown grace). */
async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 12_000);
  await exited;
  clearTimeout(timer);
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('examples against a live service', function () {
  this.timeout(90_000);
  const dir = mkdtempSync(join(tmpdir(), 'svc-examples-'));
  let baseUrl: string;
  let hookUrl: string;
  let service: Awaited<ReturnType<typeof start>>;
  let receiver: Awaited<ReturnType<typeof start>>;
  const clientEnv = () => ({ SVC_API_KEY: KEY, SVC_BASE_URL: baseUrl });
  const received = () =>
    receiver
      .out()
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));

  before(async () => {
    const [port, hookPort] = [await freePort(), await freePort()];
    baseUrl = `http://127.0.0.1:${port}`;
    hookUrl = `http://127.0.0.1:${hookPort}/hooks/svc`;
    service = await start(
      'server/src/main.ts',
      {
        SVC_DATA_DIR: dir,
        PORT: String(port),
        HOST: '127.0.0.1',
        SVC_PUBLIC_BASE_URL: baseUrl,
        SVC_DEV_API_KEY: KEY,
        SVC_DEV_WEBHOOK_SECRET: SECRET,
        SVC_WEBHOOK_ALLOW_PRIVATE: '1',
        SVC_SANDBOX_TIME_SCALE: '0.01',
        SVC_ENGINE_POLL_MS: '20',
        // The dialing watchdog scales with the sandbox's time (120 s × 0.01 = 1.2 s); on a busy CI machine a dial
        // step can take that long, so give it 30 s of wall time. Likewise a long lease, so that a slow step
        // (synthesising the recording) never outlives it on a loaded machine.
        SVC_ENGINE_WATCHDOG_SEC: '3000',
        SVC_ENGINE_LEASE_MS: '600000',
      },
      'svc listening',
    );
    // The dev account is seeded just after the port opens.
    await until('the dev key', async () => ((await fetch(`${baseUrl}/v1/agent/calls`, { headers: { authorization: `Bearer ${KEY}` } })).ok ? true : undefined));
    receiver = await start('examples/webhook-receiver.ts', { SVC_WEBHOOK_SECRET: SECRET, PORT: String(hookPort) }, 'listening on');
  });
  afterEach(function () {
    // A failure here is usually the service's: show the end of its log.
    if (this.currentTest?.state === 'failed') console.error(`service log:\n${(service.out() + service.err()).split('\n').slice(-40).join('\n')}`);
  });
  after(async () => {
    await Promise.all([stop(service?.child), stop(receiver?.child)]);
    rmSync(dir, { recursive: true, force: true });
  });

  let callId: string;
  it('place-and-wait places a sandbox call, waits for it and prints the completed record with its extracted fields', async () => {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'examples/place-and-wait.ts'], {
      env: { PATH: process.env.PATH, ...clientEnv(), SVC_WEBHOOK_URL: hookUrl },
      timeout: 80_000,
    });
    const call = JSON.parse(stdout);
    callId = call.id;
    expect(call, stdout).to.include({ status: 'completed', to: '+14155550123', error: null });
    expect(Object.keys(call.extracted).sort()).to.deep.equal(['closing_time', 'open_sunday']);
    expect(call.transcript).to.match(/^Callee: /);
    expect(call.durationSec).to.be.above(0);
    expect(stderr).to.include(`placed ${callId}`);
  });

  it("webhook-receiver verified and handled that call's call.in_progress and call.completed, once each", async () => {
    const events = await until('both events', () => {
      const mine = received().filter((e) => e.callId === callId);
      return mine.length >= 2 ? mine : undefined;
    });
    expect(events.map((e) => e.event)).to.deep.equal(['call.in_progress', 'call.completed']);
    expect(events[1].extracted).to.have.keys(['closing_time', 'open_sunday']);
  });

  it('webhook-receiver acknowledges a repeated delivery without handling it twice, and refuses bad signatures', async () => {
    const body = JSON.stringify({ event: 'call.failed', eventId: 'e-dup:call.failed:1', callId: 'e-dup', status: 'failed', summary: null, extracted: null });
    const post = (headers: Record<string, string>, text = body) => fetch(hookUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: text });
    const signed = () => ({ 'x-svc-signature': signatureHeader(body, [SECRET], Math.floor(Date.now() / 1000)) });
    expect((await post(signed())).status).to.equal(204);
    expect((await post(signed())).status).to.equal(204);
    await until('the duplicate notice', () => (receiver.err().includes('duplicate e-dup:call.failed:1') ? true : undefined));
    expect(received().filter((e) => e.callId === 'e-dup')).to.have.length(1);
    const missing = await post({});
    expect([missing.status, await missing.text()]).to.deep.equal([400, 'missing_header']);
    const reserialised = await post(signed(), JSON.stringify(JSON.parse(body), null, 1));
    expect([reserialised.status, await reserialised.text()]).to.deep.equal([400, 'signature_mismatch']);
  });

  it('mcp-client lists the tools over /mcp, places a call and waits for it', async () => {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'examples/mcp-client.ts'], { env: { PATH: process.env.PATH, ...clientEnv() }, timeout: 80_000 });
    expect(stderr).to.include('tools: place_call, get_call, list_calls, wait_for_call');
    expect(JSON.parse(stdout)).to.include({ status: 'completed', to: '+14155550123' });
  });

  /** The shipped mcp-config.json with its placeholders filled in, as a user fills them in. */
  function mcpConfig(base = baseUrl) {
    const text = readFileSync('examples/mcp-config.json', 'utf8')
      .replaceAll('/absolute/path/to/svc', process.cwd())
      .replaceAll('svc_ak_replace_with_your_key', KEY)
      .replaceAll('http://localhost:8080', base);
    return JSON.parse(text).mcpServers;
  }

  /** The stdio entry exactly as an assistant launches it: its command, args and env, from a folder outside the repository. */
  async function stdioFromConfig(base = baseUrl): Promise<{ client: Client; cwd: string }> {
    const { svc } = mcpConfig(base);
    const cwd = mkdtempSync(join(tmpdir(), 'svc-mcp-cwd-'));
    const client = new Client({ name: 'config-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: svc.command, args: svc.args, env: { ...getDefaultEnvironment(), ...svc.env }, cwd, stderr: 'pipe' }));
    return { client, cwd };
  }

  it('mcp-config.json as shipped: the stdio entry (npx svc mcp) and the /mcp entry both list the tools, and stdio places a call', async () => {
    const servers = mcpConfig();
    expect(Object.keys(servers)).to.deep.equal(['svc', 'svc-http']);
    expect(Object.keys(servers.svc.env)).to.deep.equal(['SVC_API_KEY', 'SVC_BASE_URL']);
    const { client: stdio, cwd } = await stdioFromConfig();
    const http = new Client({ name: 'config-test', version: '1.0.0' });
    await http.connect(new StreamableHTTPClientTransport(new URL(servers['svc-http'].url), { requestInit: { headers: servers['svc-http'].headers } }));
    try {
      for (const client of [stdio, http]) {
        expect((await client.listTools()).tools.map((t) => t.name)).to.deep.equal([
          'place_call',
          'get_call',
          'list_calls',
          'wait_for_call',
          'preflight_call',
          'cancel_call',
          'add_do_not_call',
          'create_batch',
          'preflight_batch',
          'get_batch',
          'cancel_batch',
          'list_call_events',
          'redeliver_event',
          'list_batch_events',
          'redeliver_batch_event',
          'list_batch_rows',
          'get_stats',
          'get_settings',
        ]);
      }
      const placed = (await stdio.callTool({ name: 'place_call', arguments: { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' } })) as {
        structuredContent: Record<string, unknown>;
      };
      expect(placed.structuredContent).to.include({ status: 'queued' });
    } finally {
      await stdio.close();
      await http.close();
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('mcp-config.json as shipped, with the service down: listing the tools says which address it could not reach', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const { client, cwd } = await stdioFromConfig(down);
    try {
      const e = await client.listTools().then(
        () => null,
        (err: Error) => err,
      );
      expect(e?.message).to.include(`Cannot reach the svc service at ${down} (ECONNREFUSED). Start it (npm start) or set SVC_BASE_URL to where it runs.`);
    } finally {
      await client.close();
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
