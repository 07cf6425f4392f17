// The banner of a development start, whole: the addresses of the service, its API reference and its console, the
// dev key as a ready `export` line and the sample call that uses it, how long that call takes at the configured
// pace, and, for a process that runs no worker, that one must run (and how) before any call is placed.
import { expect } from 'chai';
import { loadConfig } from '../server/src/config.js';
import { devBanner } from '../server/src/dev-banner.js';

const KEY = 'svc_ak_banner_test_key_0123456789';
const SECRET = 'whsec_banner_test_secret';
const config = (env: Record<string, string> = {}) => loadConfig({ SVC_DATA_DIR: '/srv/svc-data', ...env });
const CALL = [
  '  curl -sS -X POST http://localhost:8080/v1/agent/calls \\',
  '    -H "Authorization: Bearer $SVC_API_KEY" -H "Content-Type: application/json" \\',
  `    -d '{"to":"+14155550123","objective":"Ask whether the shop is open on Sunday","fields":[{"name":"open_sunday","type":"boolean"}]}'`,
  '  then read it:  curl -sS http://localhost:8080/v1/agent/calls/<callId> -H "Authorization: Bearer $SVC_API_KEY"',
];

describe('the start banner', () => {
  it('prints the service, the reference and the console, the key as an export line, and a sandbox call with its time', () => {
    expect(devBanner({ config: config(), apiKey: KEY, webhookSecret: SECRET, program: 'npx svc' }).split('\n')).to.deep.equal([
      '',
      '  svc is running at http://localhost:8080  (store: sqlite in /srv/svc-data, carrier: sandbox)',
      '  API reference:      http://localhost:8080/docs',
      '  console:            http://localhost:8080/console  (sign in with the key below)',
      `  dev API key:        ${KEY}`,
      '  (the key is shown in full only now; it is stored hashed)',
      `  webhook secret:     ${SECRET}`,
      '',
      "  Place a sandbox call (it ends about 31 s after it is placed: the sandbox talks at a person's pace; SVC_SANDBOX_TIME_SCALE=0.1 runs the sandbox ten times faster):",
      `  export SVC_API_KEY=${KEY}`,
      ...CALL,
      '',
      '',
    ]);
  });

  it('says on a later start how to get a key again, with the command as it is run here', () => {
    const lines = devBanner({ config: config(), apiKey: null, webhookSecret: SECRET, program: 'node dist/server/src/cli/main.js' }).split('\n');
    expect(lines.slice(4, 7)).to.deep.equal([
      '  dev API key:        printed on the first start only (it is stored hashed). To get one again, either',
      '                      make a new key:  node dist/server/src/cli/main.js keys create --account dev   (with the same SVC_DATA_DIR)',
      '                      or fix one:      start with SVC_DEV_API_KEY=svc_ak_<16+ letters or digits>',
    ]);
    expect(lines).to.include('  export SVC_API_KEY=<your key>');
  });

  it('tells a process of role api that a worker must run on the same store, and how to start one', () => {
    const lines = devBanner({ config: config({ SVC_ROLE: 'api', DATABASE_URL: 'postgres://svc:pw@db/svc' }), apiKey: KEY, webhookSecret: SECRET, program: 'npx svc' }).split('\n');
    expect(lines.slice(8, 11)).to.deep.equal([
      '  This process serves the API only (role api): the calls it takes stay queued until a worker runs on the',
      '  same store. Start one in another terminal, with the same DATABASE_URL: npx svc serve --role worker',
      '',
    ]);
    expect(lines.join('\n')).to.not.include('pw@');
  });

  it('gives the time at the configured pace, and no estimate where a live agent sets it', () => {
    expect(devBanner({ config: config({ SVC_SANDBOX_TIME_SCALE: '0.1' }), apiKey: KEY, webhookSecret: SECRET, program: 'npx svc' })).to.include(
      "  Place a sandbox call (it ends about 3 s after it is placed: the sandbox talks at a person's pace):\n",
    );
    expect(devBanner({ config: config({ SVC_AGENT: 'cascaded', SVC_CASCADED_STT: 'pocketsphinx' }), apiKey: KEY, webhookSecret: SECRET, program: 'npx svc' })).to.include('  Place a sandbox call:\n');
  });
});
