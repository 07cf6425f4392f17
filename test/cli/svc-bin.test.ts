// The svc command as a user runs it: a separate process through bin/svc.js, against a temporary data folder.
import { expect } from 'chai';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashApiKey } from '../../server/src/accounts/secrets.js';
import { createAccount } from '../../server/src/accounts/accounts-repo.js';
import { migrate } from '../../server/src/store/store.js';
import { openStore } from '../../server/src/store/open-store.js';
import { freePort } from '../support/free-port.js';

const BIN = new URL('../../bin/svc.js', import.meta.url).pathname;

function svc(env: Record<string, string>, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...env } }, (error, out, err) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, out, err });
    });
  });
}

describe('the svc command (bin/svc.js)', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-bin-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a key in the data folder with exit 0 and the key on stdout only; refuses with exit 1 and 2', async () => {
    const env = { SVC_DATA_DIR: dir };
    const store = openStore({ sqlitePath: join(dir, 'svc.db') });
    await migrate(store);
    const accountId = await createAccount(store.db, { name: 'acme', planMinutes: 10 }, Date.now());
    const key = await svc(env, 'keys', 'create', '--account', 'acme', '--json');
    expect(key).to.include({ code: 0, err: '' });
    const { key: apiKey, webhookSecret } = JSON.parse(key.out);
    const [refused, misused] = await Promise.all([svc(env, 'keys', 'create', '--account', 'ghost'), svc(env, 'numbers', 'add', '--account', 'acme', '555')]);
    expect(refused).to.deep.equal({ code: 1, out: '', err: 'svc: no account with id or name "ghost" (npx svc accounts list shows them)\n' });
    expect(misused).to.deep.equal({
      code: 2,
      out: '',
      err: 'svc: the number must start with + and the country code (E.164), such as +14155550123; "555" has no +\nRun "npx svc numbers add --help" for usage.\n',
    });

    try {
      const row = await store.db.selectFrom('api_keys').select(['account_id', 'key_hash', 'webhook_secret']).executeTakeFirstOrThrow();
      expect(row).to.deep.equal({ account_id: accountId, key_hash: hashApiKey(apiKey), webhook_secret: webhookSecret });
    } finally {
      await store.close();
    }
  });

  it('serves the API with the chosen role until SIGTERM', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'serve', '--role', 'api'], {
      env: { PATH: process.env.PATH, SVC_DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('"msg":"svc listening')) resolve();
        });
        child.on('exit', () => reject(new Error(`svc serve exited early:\n${out}`)));
      });
      expect(out).to.include('"role":"api"');
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).to.equal(200);
      expect(health.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
      expect(await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()).to.deep.equal({ status: 'ready' });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).to.equal(0);
  });
});
