// The whole chain of a real call, every provider a local fake of its wire protocol: placeCall → the engine dials
// the fake Twilio REST API → signed status and machine-detection callbacks → Twilio's media stream (a fake peer
// connecting where the TwiML says, with the token it carries) joined to the realtime agent on a fake realtime
// server → the model asks, the callee answers, end_call → the bridge hangs up through the REST API → Twilio's
// completed callback → the engine completes the call with transcript, summary and extracted values → the
// recording callback → the recording served; both webhooks delivered, signed, to a receiver.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import Stripe from 'stripe';
import { configuredTelephony } from '../../../server/src/telephony/configured-telephony.js';
import { createJobRunner } from '../../../server/src/jobs/job-runner.js';
import { encodeWav } from '../../../server/src/recording/encode-wav.js';
import type { Attachment } from '../../../server/src/telephony/telephony.js';
import { createWebhookDispatcher } from '../../../server/src/webhooks/dispatcher.js';
import { startEngineServer, type EngineServer } from '../../support/engine.js';
import { FakeMediaPeer, FRAME_BYTES, muLawTone } from '../../support/fake-media-peer.js';
import { FakeRealtime } from '../../support/fake-realtime.js';
import { FakeTwilio } from '../../support/fake-twilio.js';
import { forEachStore } from '../../support/stores.js';
import { startReceiver, type Receiver } from '../../webhooks/support/receiver.js';

const stripe = new Stripe('sk_test_placeholder');
const HELLO = 'Hello, I am an AI assistant calling for a customer.';
const QUESTION = 'Could you tell me whether the shop is open on Sunday?';
const GOODBYE = 'Thank you, that is all I needed. Goodbye.';
const WAV = encodeWav(
  Int16Array.from({ length: 16_000 }, (_, i) => Math.round(6000 * Math.sin(i / 7))),
  8000,
);

forEachStore('a full call on Twilio with the realtime agent', (kind) => {
  let fake: FakeTwilio;
  let realtime: FakeRealtime;
  let srv: EngineServer;
  let bridge: Attachment;
  let rx: Receiver;
  let peer: FakeMediaPeer | undefined;
  let dataDir: string;

  afterEach(async () => {
    peer?.close();
    await bridge?.close();
    await srv?.close();
    await realtime?.close();
    await fake?.close();
    await rx?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  for (const protocol of ['ga', 'beta'] as const) {
    it(`goes placeCall → dialing → in_progress → completed with transcript, summary, extracted, recording and both webhooks (realtime ${protocol})`, async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'svc-full-call-'));
      fake = await FakeTwilio.start();
      fake.completeOnHangUp = true;
      realtime = await FakeRealtime.start({
        script: [
          { agent: HELLO, audioBytes: 1600 },
          { agent: QUESTION, audioBytes: 1600 },
          { callee: 'Yes, we are open on Sunday.', afterBytes: 10 * FRAME_BYTES },
          { agent: GOODBYE, audioBytes: 1600 },
          { endCall: true },
        ],
        protocol,
      });
      rx = await startReceiver();
      const env = {
        ...fake.env(),
        SVC_AGENT: 'realtime',
        SVC_REALTIME_URL: realtime.url,
        SVC_REALTIME_PROTOCOL: protocol,
        SVC_REALTIME_API_KEY: 'sk-realtime-test-key-0123456789',
        SVC_DATA_DIR: dataDir,
      };
      // The carrier, agent, analyst and bridge exactly as configured; only the clock and the ticking are the test's.
      srv = await startEngineServer(kind, env, { carrier: (deps) => configuredTelephony(deps).carrier });
      bridge = configuredTelephony({ ...srv.deps, logger: pino({ level: process.env.SVC_TEST_LOG ?? 'silent' }), agent: srv.agent }).attach!(srv.httpServer)!;
      const dispatcher = createWebhookDispatcher({ store: srv.deps.store, clock: srv.clock, config: srv.deps.config });
      const jobs = createJobRunner({
        store: srv.deps.store,
        clock: srv.clock,
        logger: pino({ level: 'silent' }),
        handlers: configuredTelephony({ ...srv.deps, logger: pino({ level: 'silent' }) }).jobs!,
      });
      const alice = await srv.tenant();
      const secret = (await srv.deps.store.db.selectFrom('api_keys').select('webhook_secret').where('id', '=', alice.keyId).executeTakeFirstOrThrow()).webhook_secret;

      const placed = await alice.api.post('/v1/agent/calls', {
        body: {
          to: '+14155550123',
          objective: 'Ask whether the shop is open on Sunday.',
          fields: [{ name: 'open_sunday', type: 'boolean', description: 'whether the shop is open on Sunday' }],
          webhookUrl: rx.url,
        },
      });
      expect(placed.status).to.equal(202);
      const id: string = placed.body.callId;
      await srv.engine.tick();
      expect((await srv.row(id)).status).to.equal('dialing');
      expect(fake.calls).to.have.length(1);
      const sid = fake.calls[0].sid;
      expect(fake.calls[0].params.From).to.deep.equal([alice.callerId]);

      // The line rings and is picked up by a person.
      const t0 = srv.clock.now();
      for (const status of ['initiated', 'ringing']) expect((await fake.status(sid, status)).status).to.equal(204);
      srv.clock.advance(4000);
      expect((await fake.status(sid, 'in-progress')).status).to.equal(204);
      srv.clock.advance(2000);
      expect((await fake.amd(sid, 'human')).status).to.equal(204);
      await srv.engine.tick();
      await dispatcher.tick();
      expect(await srv.row(id)).to.include({ status: 'in_progress', started_at: t0 + 4000 });

      // Twilio runs the TwiML: it connects the stream where <Stream url> says, with the <Parameter>s it carries.
      const twiml = fake.calls[0].params.Twiml[0];
      const streamUrl = /<Stream url="([^"]+)">/.exec(twiml)![1];
      const token = /<Parameter name="token" value="([^"]+)"\/>/.exec(twiml)![1];
      expect(streamUrl).to.equal(`${srv.baseUrl.replace('http', 'ws')}/twilio/media/${id}`);
      peer = await FakeMediaPeer.connect(streamUrl);
      peer.start({ callSid: sid, token });
      await peer.until(() => peer!.mediaBytes === 3200); // the greeting and the question reached the callee
      peer.speak(muLawTone(10 * FRAME_BYTES, 300));
      srv.clock.advance(15_000);
      // The model says goodbye and calls end_call; the bridge hangs up through the REST API, and Twilio reports
      // the line completed.
      await fake.hungUp(sid);
      expect(fake.call(sid).updates).to.deep.equal([{ Status: 'completed' }]);

      const row = await srv.drive(id, 50, () => dispatcher.tick());
      expect(row).to.include({ status: 'completed', started_at: t0 + 4000, ended_at: t0 + 21_000, duration_sec: 17, error: null });
      expect(row.transcript).to.equal(`Agent: ${HELLO}\nAgent: ${QUESTION}\nCallee: Yes, we are open on Sunday.\nAgent: ${GOODBYE}`);

      // Twilio's recording is ready a little later; a worker's job fetches it.
      expect((await fake.recordingReady(sid, WAV)).status).to.equal(204);
      expect(await jobs.tick()).to.equal(1);
      const call = (await alice.api.get(`/v1/agent/calls/${id}`)).body;
      expect(call).to.deep.include({ status: 'completed', extracted: { open_sunday: true }, recordingUrl: `${srv.baseUrl}/v1/agent/calls/${id}/recording`, durationSec: 17, error: null });
      expect(call.summary).to.include('open on Sunday');
      const recording = await alice.api.get(`/v1/agent/calls/${id}/recording`);
      expect(recording.status).to.equal(200);
      expect(Buffer.compare(recording.body as Buffer, WAV)).to.equal(0);

      await dispatcher.tick();
      await dispatcher.stop();
      const events = rx.received.map((r) => {
        const header = String(r.headers['x-svc-signature']);
        const t = Number(/^t=(\d+)/.exec(header)![1]);
        return stripe.webhooks.constructEvent(r.body, header, secret, 300, undefined, t) as unknown as Record<string, unknown>;
      });
      expect(events.map((e) => e.event)).to.deep.equal(['call.in_progress', 'call.completed']);
      expect(events[0]).to.include({ callId: id, status: 'in_progress', startedAt: call.startedAt, endedAt: null, summary: null, extracted: null });
      expect(events[1]).to.deep.include({
        callId: id,
        status: 'completed',
        startedAt: call.startedAt,
        endedAt: call.endedAt,
        durationSec: 17,
        summary: call.summary,
        extracted: { open_sunday: true },
        error: null,
      });
    });
  }
});
