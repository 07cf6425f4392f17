// svc doctor against the project's fakes: each check passing, and each failing the way the real service fails
// (Twilio's 401 and unknown numbers, a suspended account, an address that is not https or not svc's, a realtime
// key refused after the handshake, a recogniser refusing its stream, a chat server refusing the key or lacking the
// model, an ElevenLabs voice that does not exist). The https checks run the real command as a process, trusting a
// certificate made for the test, as a tunnel's would be trusted.
import { expect } from 'chai';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAKE_ACCOUNT_SID, FAKE_AUTH_TOKEN, FakeTwilio } from '../support/fake-twilio.js';
import { FakeRealtime } from '../support/fake-realtime.js';
import { FAKE_DEEPGRAM_KEY, FakeDeepgram } from '../support/fake-deepgram.js';
import { startFakeChatCompletions, type FakeChatCompletions } from '../support/fake-chat-completions.js';
import { startFakeElevenLabs, type FakeElevenLabs } from '../support/fake-elevenlabs.js';
import { forEachStore } from '../support/stores.js';
import { freePort } from '../support/free-port.js';
import { cliHarness, type CliHarness } from './cli-harness.js';

const REALTIME_KEY = 'sk-doctor-realtime-5f1e2d3c4b5a69788796a5b4';
const CHAT_KEY = 'sk-doctor-chat-0a1b2c3d4e5f60718293a4b5';
const VOICE_KEY = 'xi-doctor-voice-9f8e7d6c5b4a3928';

interface Check {
  name: string;
  status: string;
  detail: string;
  fix?: string;
}
const byName = (checks: Check[], name: string): Check => {
  const found = checks.find((c) => c.name === name);
  expect(found, `a check named ${name} in ${JSON.stringify(checks.map((c) => c.name))}`).to.not.equal(undefined);
  return found!;
};

forEachStore('svc doctor', (kind) => {
  let h: CliHarness;
  let twilio: FakeTwilio;
  let realtime: FakeRealtime;
  beforeEach(async () => {
    h = await cliHarness(kind);
    twilio = await FakeTwilio.start();
    realtime = await FakeRealtime.start({ script: [], apiKey: REALTIME_KEY });
  });
  afterEach(async () => {
    await Promise.all([h.close(), twilio.close(), realtime.close()]);
  });

  /** The environment of a Twilio deployment pointed at the fakes, the public address plain http unless told. */
  const twilioEnv = (over: Record<string, string> = {}) =>
    Object.assign(h.env, {
      SVC_CARRIER: 'twilio',
      TWILIO_ACCOUNT_SID: FAKE_ACCOUNT_SID,
      TWILIO_AUTH_TOKEN: FAKE_AUTH_TOKEN,
      SVC_TWILIO_API_BASE_URL: twilio.baseUrl,
      SVC_PUBLIC_BASE_URL: 'http://127.0.0.1:9',
      SVC_AGENT: 'realtime',
      SVC_REALTIME_URL: realtime.url,
      SVC_REALTIME_API_KEY: REALTIME_KEY,
      ...over,
    });

  it('passes the sandbox defaults with exit 0: nothing to reach', async () => {
    const r = await h.run('doctor', '--json');
    expect(r.code, r.err).to.equal(0);
    expect(r.json).to.deep.equal({
      ready: true,
      checks: [
        { name: 'carrier', status: 'ok', detail: 'The sandbox carrier: simulated calls, no account needed.' },
        { name: 'agent', status: 'ok', detail: 'The scripted sandbox agent: no model or voice needed.' },
      ],
    });
    const text = await h.run('doctor');
    expect(text.out).to.equal(
      'ok    carrier: The sandbox carrier: simulated calls, no account needed.\nok    agent: The scripted sandbox agent: no model or voice needed.\n\nReady: nothing stands in the way of a first call.\n',
    );
  });

  it('checks Twilio, each caller number and the realtime session; an http public address fails with the tunnel to start', async () => {
    await h.account('acme');
    await h.run('numbers', 'add', '--account', 'acme', '+14155550177');
    twilio.verifiedCallerIds.add('+14155550177');
    twilioEnv();
    const r = await h.run('doctor', '--json');
    expect(r.code, r.err).to.equal(1);
    const checks: Check[] = r.json.checks;
    expect(r.json.ready).to.equal(false);
    expect(checks.map((c) => [c.name, c.status])).to.deep.equal([
      ['carrier', 'ok'],
      ['caller id +14155550100', 'ok'],
      ['caller id +14155550177', 'ok'],
      ['public address', 'fail'],
      ['realtime model', 'ok'],
    ]);
    expect(byName(checks, 'carrier').detail).to.equal(`Twilio accepted the credentials for ${FAKE_ACCOUNT_SID} (Full, active).`);
    expect(byName(checks, 'caller id +14155550100').detail).to.equal('+14155550100 is a number of this Twilio account.');
    expect(byName(checks, 'caller id +14155550177').detail).to.equal('+14155550177 is a verified caller id of this Twilio account.');
    expect(byName(checks, 'public address')).to.deep.equal({
      name: 'public address',
      status: 'fail',
      detail: "SVC_PUBLIC_BASE_URL is http://127.0.0.1:9: Twilio streams a call's audio only over wss, so it must be an https address.",
      fix: 'Start svc (npx svc serve), then a tunnel to its port, e.g. cloudflared tunnel --url http://localhost:8080, and set SVC_PUBLIC_BASE_URL to the https address it prints.',
    });
    expect(byName(checks, 'realtime model').detail).to.equal(`gpt-realtime at ${new URL(realtime.url).host} accepted the key and a session in G.711 mu-law both ways.`);
    // The session was configured as a call's is, then closed; nothing was said.
    expect(realtime.connections).to.have.length(1);
    expect(realtime.connections[0].received.map((e) => e.type)).to.deep.equal(['session.update']);
    await realtime.until(() => realtime.connections[0].closed);
    expect(twilio.requests.every((q) => q.authorized && q.line.startsWith('GET '))).to.equal(true);
    expect(twilio.calls).to.have.length(0);
    const text = await h.run('doctor');
    expect(text.code).to.equal(1);
    expect(text.out).to.match(/\nFAIL {2}public address: SVC_PUBLIC_BASE_URL is http:\/\/127\.0\.0\.1:9: .*\n {6}fix: Start svc \(npx svc serve\), then a tunnel/);
    expect(text.out).to.match(/\n\n1 check failed: fix it before placing a call\.\n$/);
  });

  it("fails Twilio's refusal of the credentials with where to find them, and skips the numbers it cannot look up", async () => {
    twilioEnv({ TWILIO_AUTH_TOKEN: 'f'.repeat(32) });
    const r = await h.run('doctor', '--json');
    expect(r.code).to.equal(1);
    expect(r.json.checks[0]).to.deep.equal({
      name: 'carrier',
      status: 'fail',
      detail: `Twilio refused the credentials for ${FAKE_ACCOUNT_SID} (HTTP 401, error 20003: Authenticate).`,
      fix: "Set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN to the Account SID and Auth Token on the Twilio Console's dashboard (an API key's SID will not do).",
    });
    expect(r.json.checks.map((c: Check) => c.name)).to.deep.equal(['carrier', 'public address', 'realtime model']);
    expect(r.out + r.err).to.not.include('f'.repeat(32));
  });

  it('fails a suspended account, warns of a trial one, and fails a caller number the account neither owns nor verified', async () => {
    twilioEnv();
    twilio.account = { status: 'suspended', type: 'Full' };
    const suspended = await h.run('doctor', '--json');
    expect(byName(suspended.json.checks, 'carrier')).to.deep.equal({
      name: 'carrier',
      status: 'fail',
      detail: `Twilio account ${FAKE_ACCOUNT_SID} is suspended.`,
      fix: 'Reactivate the account in the Twilio Console (Admin → Account).',
    });
    twilio.account = { status: 'active', type: 'Trial' };
    await h.account('acme');
    await h.run('numbers', 'add', '--account', 'acme', '+14155550188');
    const trial = await h.run('doctor', '--json');
    expect(byName(trial.json.checks, 'carrier').status).to.equal('warn');
    expect(byName(trial.json.checks, 'carrier').fix).to.equal('A trial account calls only verified numbers and plays a notice before each call; upgrade it to call anyone.');
    expect(byName(trial.json.checks, 'caller id +14155550188')).to.deep.equal({
      name: 'caller id +14155550188',
      status: 'fail',
      detail: '+14155550188 is neither a number of this Twilio account nor a verified caller id: Twilio refuses calls from it (error 21210).',
      fix: 'Buy it (Phone Numbers → Buy a number) or verify it (Phone Numbers → Verified Caller IDs) in the Twilio Console, or add one you own with npx svc numbers add.',
    });
  });

  it('fails a realtime key the model refuses after the handshake, without printing the key', async () => {
    const wrong = 'sk-wrong-realtime-key-0123456789abcdef';
    twilioEnv({ SVC_REALTIME_API_KEY: wrong });
    const r = await h.run('doctor', '--json');
    const check = byName(r.json.checks, 'realtime model');
    expect(check.status).to.equal('fail');
    expect(check.detail).to.match(/^The realtime model refused the session: invalid_api_key \(Incorrect API key provided: /);
    expect(check.fix).to.equal('Set SVC_REALTIME_API_KEY to a key of a project with access to the realtime model (platform.openai.com → API keys).');
    expect(r.out + r.err).to.not.include(wrong);
  });

  it('fails a Twilio API that cannot be reached, saying which address', async () => {
    const closed = await freePort();
    twilioEnv({ SVC_TWILIO_API_BASE_URL: `http://127.0.0.1:${closed}` });
    const r = await h.run('doctor', '--json');
    expect(r.json.checks[0]).to.deep.equal({
      name: 'carrier',
      status: 'fail',
      detail: `Twilio's API at http://127.0.0.1:${closed} could not be reached (ECONNREFUSED).`,
      fix: 'Check the network, and SVC_TWILIO_API_BASE_URL if it is set.',
    });
  });

  describe('the cascaded agent', () => {
    let deepgram: FakeDeepgram;
    let chat: FakeChatCompletions;
    let voice: FakeElevenLabs;
    beforeEach(async () => {
      deepgram = await FakeDeepgram.start();
      chat = await startFakeChatCompletions({ apiKey: CHAT_KEY, models: ['llama-3.1-8b-instruct'] });
      voice = await startFakeElevenLabs({ apiKey: VOICE_KEY, voices: { vEryGoodVoice01: 'Aria' } });
    });
    afterEach(async () => {
      await Promise.all([deepgram.close(), chat.close(), voice.close()]);
    });
    const cascadedEnv = (over: Record<string, string> = {}) =>
      twilioEnv({
        SVC_AGENT: 'cascaded',
        SVC_STT: 'deepgram',
        SVC_STT_URL: deepgram.url,
        SVC_STT_API_KEY: FAKE_DEEPGRAM_KEY,
        SVC_AGENT_LLM_BASE_URL: chat.baseUrl,
        SVC_AGENT_LLM_API_KEY: CHAT_KEY,
        SVC_AGENT_LLM_MODEL: 'llama-3.1-8b-instruct',
        SVC_TTS: 'elevenlabs',
        SVC_TTS_URL: voice.baseUrl,
        SVC_TTS_API_KEY: VOICE_KEY,
        SVC_TTS_VOICE: 'vEryGoodVoice01',
        ...over,
      });

    it('opens and closes a recogniser stream, reads the chat server’s models and the voice’s record', async () => {
      cascadedEnv();
      const r = await h.run('doctor', '--json');
      const checks: Check[] = r.json.checks;
      expect(byName(checks, 'recogniser (deepgram)')).to.deep.equal({ name: 'recogniser (deepgram)', status: 'ok', detail: 'deepgram accepted the key and opened a stream for 8 kHz mu-law.' });
      expect(byName(checks, 'chat model')).to.deep.equal({ name: 'chat model', status: 'ok', detail: `${new URL(chat.baseUrl).host} accepted the key and offers llama-3.1-8b-instruct.` });
      expect(byName(checks, 'voice (elevenlabs)')).to.deep.equal({ name: 'voice (elevenlabs)', status: 'ok', detail: 'ElevenLabs accepted the key and has the voice vEryGoodVoice01 (Aria).' });
      await deepgram.until(() => deepgram.connections.length === 1 && deepgram.connections[0].closeCode !== null);
      expect(chat.requests).to.have.length(0);
    });

    it('fails each provider the way it refuses: the recogniser’s key, the chat key, a model not offered, a voice not found', async () => {
      const keys = { stt: 'dg-wrong-key-aaaaaaaaaaaaaaaa', llm: 'sk-wrong-chat-bbbbbbbbbbbbbbbb', tts: 'xi-wrong-cccccccccccccccc' };
      cascadedEnv({ SVC_STT_API_KEY: keys.stt, SVC_AGENT_LLM_API_KEY: keys.llm, SVC_TTS_API_KEY: keys.tts });
      const refused = await h.run('doctor', '--json');
      const checks: Check[] = refused.json.checks;
      expect(byName(checks, 'recogniser (deepgram)').status).to.equal('fail');
      expect(byName(checks, 'recogniser (deepgram)').detail).to.match(/^deepgram refused the stream: HTTP 401/);
      expect(byName(checks, 'recogniser (deepgram)').fix).to.equal('Set SVC_STT_API_KEY to a valid key for the recogniser (and SVC_STT_MODEL to a model it offers).');
      expect(byName(checks, 'chat model')).to.deep.equal({
        name: 'chat model',
        status: 'fail',
        detail: `${new URL(chat.baseUrl).host} refused the key (HTTP 401).`,
        fix: `Set SVC_AGENT_LLM_API_KEY to a valid key for ${new URL(chat.baseUrl).host}.`,
      });
      expect(byName(checks, 'voice (elevenlabs)')).to.deep.equal({
        name: 'voice (elevenlabs)',
        status: 'fail',
        detail: 'ElevenLabs refused the key (HTTP 401).',
        fix: 'Set SVC_TTS_API_KEY to a valid ElevenLabs key (elevenlabs.io → API keys).',
      });
      for (const key of Object.values(keys)) expect(refused.out + refused.err).to.not.include(key);

      cascadedEnv({ SVC_AGENT_LLM_MODEL: 'gpt-5', SVC_TTS_VOICE: 'nobody' });
      const wrong = await h.run('doctor', '--json');
      expect(byName(wrong.json.checks, 'chat model')).to.deep.equal({
        name: 'chat model',
        status: 'warn',
        detail: `${new URL(chat.baseUrl).host} accepted the key but does not list the model gpt-5.`,
        fix: 'Set SVC_AGENT_LLM_MODEL to one it lists (llama-3.1-8b-instruct).',
      });
      expect(byName(wrong.json.checks, 'voice (elevenlabs)')).to.deep.equal({
        name: 'voice (elevenlabs)',
        status: 'fail',
        detail: 'ElevenLabs has no voice nobody for this key (HTTP 400).',
        fix: 'Set SVC_TTS_VOICE to a voice id from elevenlabs.io → Voices.',
      });
    });
  });
});

describe('svc doctor as a process, over https', function () {
  this.timeout(60_000);
  const BIN = new URL('../../bin/svc.js', import.meta.url).pathname;
  let dir: string;
  let https: HttpsServer;
  let twilio: FakeTwilio;
  let realtime: FakeRealtime;
  let answer = { status: 200, body: '{"status":"ok"}' };
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-doctor-'));
    // A certificate for 127.0.0.1, as a tunnel presents one for its host.
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    https = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (req, res) => {
      if (req.url !== '/healthz') return void res.writeHead(404).end();
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
    await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', () => resolve()));
    twilio = await FakeTwilio.start();
    realtime = await FakeRealtime.start({ script: [], apiKey: REALTIME_KEY });
  });
  after(async () => {
    https.closeAllConnections();
    await new Promise<void>((resolve) => https.close(() => resolve()));
    await Promise.all([twilio.close(), realtime.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  function doctor(extra: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
    const env = {
      PATH: process.env.PATH ?? '',
      SVC_DATA_DIR: dir,
      SVC_CARRIER: 'twilio',
      TWILIO_ACCOUNT_SID: FAKE_ACCOUNT_SID,
      TWILIO_AUTH_TOKEN: FAKE_AUTH_TOKEN,
      SVC_TWILIO_API_BASE_URL: twilio.baseUrl,
      SVC_PUBLIC_BASE_URL: `https://127.0.0.1:${(https.address() as AddressInfo).port}`,
      SVC_AGENT: 'realtime',
      SVC_REALTIME_URL: realtime.url,
      SVC_REALTIME_API_KEY: REALTIME_KEY,
      ...extra,
    };
    return new Promise((resolve) => {
      execFile(process.execPath, [BIN, 'doctor'], { env }, (error, out, err) => resolve({ code: error ? Number(error.code) : 0, out, err }));
    });
  }

  it('is ready when the public address answers svc’s health over https with a trusted certificate', async () => {
    answer = { status: 200, body: '{"status":"ok"}' };
    const r = await doctor({ NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') });
    expect(r.code, r.out + r.err).to.equal(0);
    const base = `https://127.0.0.1:${(https.address() as AddressInfo).port}`;
    expect(r.out).to.include(`ok    public address: ${base} answers svc's health check over https.\n`);
    expect(r.out).to.match(/\nReady: nothing stands in the way of a first call\.\n$/);
  });

  it('fails an address whose certificate is not trusted, and one that answers but is not svc', async () => {
    const untrusted = await doctor({});
    expect(untrusted.code).to.equal(1);
    expect(untrusted.out).to.match(/FAIL {2}public address: https:\/\/127\.0\.0\.1:\d+ does not present a certificate Twilio would trust \(DEPTH_ZERO_SELF_SIGNED_CERT\)\./);
    answer = { status: 502, body: 'Bad Gateway' };
    const notSvc = await doctor({ NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') });
    expect(notSvc.code).to.equal(1);
    expect(notSvc.out).to.match(/FAIL {2}public address: https:\/\/127\.0\.0\.1:\d+\/healthz answered HTTP 502: the address does not reach svc\.\n {6}fix: Point the tunnel at svc's port/);
  });
});
