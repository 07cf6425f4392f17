// A realtime call on Twilio across real service processes, as behind a load balancer: two api processes and a
// worker (server/src/main.ts each), sharing only the store. Twilio's callbacks reach api A (the public address
// names it); the media stream lands on api B. The ringing callback makes A warm the call's realtime session and
// claim the call; B relays the stream to A, whose warm session serves it: one socket to the model, opened before
// the answer. The worker dials, hears the verdict and the end, and completes the call with the turns A wrote.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addNumber, createAccount, createKey } from '../../server/src/accounts/accounts-repo.js';
import { openStore } from '../../server/src/store/open-store.js';
import { migrate, type Store } from '../../server/src/store/store.js';
import { FakeMediaPeer, FRAME_BYTES, muLawTone } from '../support/fake-media-peer.js';
import { FakeRealtime } from '../support/fake-realtime.js';
import { FakeTwilio } from '../support/fake-twilio.js';
import { freePort } from '../support/free-port.js';
import { until } from '../support/until.js';
import { emptySchema, requirePostgres, type EmptySchema } from './support/pg-schema.js';
import { startService, type ServiceProcess } from './support/service-process.js';

const HELLO = 'Hello, this is an AI assistant calling for Acme. Is the shop open on Sunday?';

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`a realtime call on Twilio across api and worker processes [${kind}]`, function () {
    this.timeout(120_000);
    let schema: EmptySchema | undefined;
    let dataDir: string;
    let store: Store;
    let fake: FakeTwilio;
    let realtime: FakeRealtime;
    let peer: FakeMediaPeer | undefined;
    let processes: ServiceProcess[] = [];

    before(async function () {
      if (kind === 'postgres') {
        await requirePostgres(this);
        schema = await emptySchema();
      }
      dataDir = mkdtempSync(join(tmpdir(), 'svc-realtime-scale-'));
      store = schema ? openStore({ postgresUrl: schema.url, poolSize: 2 }) : openStore({ sqlitePath: join(dataDir, 'svc.db') });
      await migrate(store);
    });
    after(async () => {
      peer?.close();
      await Promise.all(processes.map((p) => p.kill()));
      await realtime?.close();
      await fake?.close();
      await store?.close();
      await schema?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('warms the session where the ringing callback lands, and serves the stream that lands elsewhere with it', async () => {
      fake = await FakeTwilio.start();
      fake.completeOnHangUp = true;
      realtime = await FakeRealtime.start({ script: [{ callee: 'Hello?', afterBytes: 4 * FRAME_BYTES }, { agent: HELLO }, { endCall: true }] });
      const portA = await freePort();
      const env: Record<string, string> = {
        ...fake.env(),
        SVC_REALTIME_URL: realtime.url,
        SVC_REALTIME_API_KEY: 'sk-realtime-test-key-0123456789',
        SVC_PUBLIC_BASE_URL: `http://127.0.0.1:${portA}`,
        SVC_DATA_DIR: dataDir,
        ...(schema ? { DATABASE_URL: schema.url } : {}),
        SVC_ENGINE_POLL_MS: '50',
      };
      const now = Date.now();
      const accountId = await createAccount(store.db, { name: 'acme', planMinutes: 1000, defaultCallerId: '+14155550100' }, now);
      await addNumber(store.db, accountId, '+14155550100', now);
      const { key } = await createKey(store.db, { accountId, name: 'acme', rateLimit: 100 }, now);
      processes = await Promise.all([startService('api', env, { port: portA }), startService('api', env), startService('worker', env)]);
      const [a, b] = processes;

      const placed = await fetch(`${b.url}/v1/agent/calls`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' }),
      });
      expect(placed.status).to.equal(202);
      const { callId } = (await placed.json()) as { callId: string };
      await until('the worker dialling', () => fake.calls.length === 1, 20_000);
      const sid = fake.calls[0]!.sid;

      // The phone rings: the callback reaches A, which warms and claims the call's session.
      expect((await fake.status(sid, 'ringing')).status).to.equal(204);
      await until('a warm session', () => realtime.connections[0]?.sent.some((e) => e.type === 'session.updated') ?? false, 20_000);
      const claimed = await store.db.selectFrom('calls').select('agent_host').where('id', '=', callId).executeTakeFirstOrThrow();
      expect(claimed.agent_host).to.equal(a.url);

      // Answered by a person; Twilio runs the TwiML, and the stream reaches B.
      expect((await fake.status(sid, 'in-progress')).status).to.equal(204);
      expect((await fake.amd(sid, 'human')).status).to.equal(204);
      const twiml = fake.calls[0]!.params.Twiml![0]!;
      const streamUrl = /<Stream url="([^"]+)">/.exec(twiml)![1]!;
      const token = /<Parameter name="token" value="([^"]+)"\/>/.exec(twiml)![1]!;
      expect(streamUrl).to.equal(`ws://127.0.0.1:${portA}/twilio/media/${callId}`);
      // Marks come back once the audio has played in real time, as Twilio's do.
      peer = await FakeMediaPeer.connect(streamUrl.replace(`:${portA}/`, `:${new URL(b.url).port}/`), { playback: 'real-time' });
      peer.start({ callSid: sid, token });
      peer.speak(muLawTone(4 * FRAME_BYTES, 300));
      await peer.until(() => peer!.mediaBytes === 1600);

      // end_call: A hangs up over REST after the goodbye's mark, Twilio reports completed to A, the worker completes.
      await fake.hungUp(sid);
      let call: Record<string, unknown> = {};
      await until(
        'the call completed',
        async () => {
          const res = await fetch(`${b.url}/v1/agent/calls/${callId}`, { headers: { authorization: `Bearer ${key}` } });
          call = (await res.json()) as Record<string, unknown>;
          return call.status === 'completed';
        },
        30_000,
        100,
      );
      if (process.env.DUMP) console.log(a.output(), '-----B', b.output(), '-----W', processes[2]!.output());
      expect(call).to.include({ status: 'completed', answeredBy: 'human', transcript: `Callee: Hello?\nAgent: ${HELLO}` });
      expect(realtime.connections, 'one socket to the model: the one warmed while the phone rang').to.have.length(1);
      expect(a.output()).to.include('warming the realtime session while the phone rings');
      expect(b.output()).to.include('media stream relayed to the process holding the warm session');
      expect(b.output()).to.not.include('warming the realtime session');
    });
  });
}
