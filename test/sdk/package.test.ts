import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { signatureHeader } from '../../server/src/webhooks/signature.js';
import { checkoutLock } from '../support/checkout-lock.js';
import { startServer } from '../support/server.js';

// Packs sdk/ as npm would publish it (prepack builds dist/), unpacks the tarball and uses the built code.
describe('the @svc/sdk package', function () {
  this.timeout(120_000);
  let unpacked: string;
  let files: string[];
  before(async function () {
    // prepack empties and rebuilds sdk/dist, which the production build test writes too: under the checkout's lock
    // on it, which that test may hold for the length of its file (hence this hook's own timeout).
    this.timeout(300_000);
    const dest = mkdtempSync(join(tmpdir(), 'svc-sdk-pack-'));
    const unlock = await checkoutLock('sdk-dist');
    let out: string;
    try {
      out = execFileSync('npm', ['pack', '--json', '--pack-destination', dest], { cwd: 'sdk', encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } finally {
      unlock();
    }
    const [info] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
    files = info.files.map((f) => f.path);
    execFileSync('tar', ['-xzf', join(dest, info.filename), '-C', dest]);
    unpacked = join(dest, 'package');
    // Stands in for `npm install`: the package's one dependency resolves from this repository's node_modules.
    symlinkSync(resolve('node_modules'), join(dest, 'node_modules'));
  });

  it('ships the built JavaScript, its declarations, the README and package.json, and no sources', () => {
    expect(files).to.include.members([
      'package.json',
      'README.md',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/svc-client.js',
      'dist/verify-webhook.d.ts',
      'dist/generated/types.gen.d.ts',
      'dist/mcp/svc-mcp.js',
      'dist/mcp/tool-server.d.ts',
    ]);
    expect(files.filter((f) => !f.startsWith('dist/') && f !== 'package.json' && f !== 'README.md')).to.deep.equal([]);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).to.deep.equal([]);
  });

  it('declares an ES module whose export map gives the types and the code', () => {
    const pkg = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
    expect(pkg).to.include({ name: '@svc/sdk', version: '1.0.0', type: 'module' });
    expect(pkg.exports['.']).to.deep.equal({ types: './dist/index.d.ts', import: './dist/index.js' });
    expect(pkg.exports['./mcp']).to.deep.equal({ types: './dist/mcp/tool-server.d.ts', import: './dist/mcp/tool-server.js' });
    expect(pkg.bin).to.deep.equal({ 'svc-mcp': './dist/mcp/svc-mcp.js' });
    expect(readFileSync(join(unpacked, 'dist/mcp/svc-mcp.js'), 'utf8')).to.match(/^#!\/usr\/bin\/env node\n/);
    // The main entry needs only eventsource-parser (the live streams); only the tool server needs the MCP SDK.
    expect(pkg.dependencies).to.deep.equal({ '@modelcontextprotocol/sdk': '^1.32.2', 'eventsource-parser': '3.1.1' });
    expect(readFileSync(join(unpacked, 'dist/index.js'), 'utf8')).to.not.include('modelcontextprotocol');
  });

  it('runs from the tarball: the client, the errors and the verifier are exported and work', async () => {
    const sdk = await import(pathToFileURL(join(unpacked, 'dist', 'index.js')).href);
    expect(Object.keys(sdk).sort()).to.deep.equal([
      'DEFAULT_BASE_URL',
      'DEFAULT_TOLERANCE_SEC',
      'SIGNATURE_HEADER',
      'SvcApiError',
      'SvcClient',
      'SvcNetworkError',
      'SvcTimeoutError',
      'TERMINAL_STATUSES',
      'WebhookVerificationError',
      'isTerminal',
      'verifyToolRequest',
      'verifyWebhook',
    ]);
    const body = '{"event":"call.failed","eventId":"e1"}';
    expect(sdk.verifyWebhook(body, signatureHeader(body, ['whsec_x'], 1_800_000_000), 'whsec_x', { now: 1_800_000_000_000 })).to.deep.equal({ event: 'call.failed', eventId: 'e1' });
    expect(new sdk.SvcClient({ apiKey: 'svc_ak_x' })).to.be.instanceOf(sdk.SvcClient);
  });

  it('runs its svc-mcp bin from the tarball: the tools are listed from a live service', async () => {
    const srv = await startServer('sqlite');
    const client = new Client({ name: 'pack-test', version: '1.0.0' });
    try {
      const { key } = await srv.tenant();
      const bin = join(unpacked, 'dist/mcp/svc-mcp.js');
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin], env: { ...getDefaultEnvironment(), SVC_API_KEY: key, SVC_BASE_URL: srv.baseUrl } }));
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
      ]);
    } finally {
      await client.close();
      await srv.close();
    }
  });
});
