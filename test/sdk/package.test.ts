import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { signatureHeader } from '../../server/src/webhooks/signature.js';

// Packs sdk/ as npm would publish it (prepack builds dist/), unpacks the tarball and uses the built code.
describe('the @svc/sdk package', function () {
  this.timeout(120_000);
  let unpacked: string;
  let files: string[];
  before(() => {
    const dest = mkdtempSync(join(tmpdir(), 'svc-sdk-pack-'));
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dest], { cwd: 'sdk', encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const [info] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
    files = info.files.map((f) => f.path);
    execFileSync('tar', ['-xzf', join(dest, info.filename), '-C', dest]);
    unpacked = join(dest, 'package');
  });

  it('ships the built JavaScript, its declarations, the README and package.json, and no sources', () => {
    expect(files).to.include.members(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/svc-client.js', 'dist/verify-webhook.d.ts', 'dist/generated/types.gen.d.ts']);
    expect(files.filter((f) => !f.startsWith('dist/') && f !== 'package.json' && f !== 'README.md')).to.deep.equal([]);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).to.deep.equal([]);
  });

  it('declares an ES module whose export map gives the types and the code', () => {
    const pkg = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
    expect(pkg).to.include({ name: '@svc/sdk', version: '1.0.0', type: 'module' });
    expect(pkg.exports['.']).to.deep.equal({ types: './dist/index.d.ts', import: './dist/index.js' });
    expect(pkg.dependencies ?? {}).to.deep.equal({});
  });

  it('runs from the tarball: the client, the errors and the verifier are exported and work', async () => {
    const sdk = await import(pathToFileURL(join(unpacked, 'dist', 'index.js')).href);
    expect(Object.keys(sdk).sort()).to.deep.equal([
      'DEFAULT_BASE_URL', 'DEFAULT_TOLERANCE_SEC', 'SIGNATURE_HEADER', 'SvcApiError', 'SvcClient', 'SvcNetworkError', 'SvcTimeoutError',
      'TERMINAL_STATUSES', 'WebhookVerificationError', 'isTerminal', 'verifyWebhook',
    ]);
    const body = '{"event":"call.failed","eventId":"e1"}';
    expect(sdk.verifyWebhook(body, signatureHeader(body, ['whsec_x'], 1_800_000_000), 'whsec_x', { now: 1_800_000_000_000 })).to.deep.equal({ event: 'call.failed', eventId: 'e1' });
    expect(new sdk.SvcClient({ apiKey: 'svc_ak_x' })).to.be.instanceOf(sdk.SvcClient);
  });
});
