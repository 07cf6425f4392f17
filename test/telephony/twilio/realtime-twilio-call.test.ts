// The realtime agent on the Twilio carrier as main.ts composes them, against a fake Twilio REST API and a fake
// realtime server: the stream connects to the URL and token in the TwiML the carrier sent, the model's end_call
// hangs up through the REST API, Twilio's `completed` callback ends the call, and nothing secret is logged.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { configuredTelephony } from '../../../server/src/telephony/configured-telephony.js';
import type { Attachment } from '../../../server/src/telephony/telephony.js';
import { startEngineServer, type EngineServer } from '../../support/engine.js';
import { FakeMediaPeer, FRAME_BYTES, muLawTone } from '../../support/fake-media-peer.js';
import { FakeRealtime, type RealtimeStep } from '../../support/fake-realtime.js';
import { FAKE_AUTH_TOKEN, FakeTwilio } from '../../support/fake-twilio.js';
import { forEachStore } from '../../support/stores.js';

const KEY = 'sk-realtime-key-never-logged-0123';
const HELLO = 'Hello, I am an AI assistant calling for a customer.';
const QUESTION = 'Could you tell me whether the shop is open on Sunday?';

forEachStore('a realtime call on the Twilio carrier', (kind) => {
  let twilio: FakeTwilio;
  let realtime: FakeRealtime;
  let srv: EngineServer;
  let bridge: Attachment;
  let dataDir: string;
  let peer: FakeMediaPeer | null = null;
  const logs: string[] = [];

  beforeEach(async () => {
    twilio = await FakeTwilio.start();
    twilio.completeOnHangUp = true;
    dataDir = await mkdtemp(join(tmpdir(), 'svc-realtime-'));
    logs.length = 0;
  });
  afterEach(async () => {
    peer?.close();
    await bridge?.close();
    await srv?.close();
    await realtime?.close();
    await twilio.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function setUp(script: RealtimeStep[]) {
    realtime = await FakeRealtime.start({ script });
    const env = { ...twilio.env(), SVC_DATA_DIR: dataDir, SVC_AGENT: 'realtime', SVC_REALTIME_URL: realtime.url, SVC_REALTIME_API_KEY: KEY };
    srv = await startEngineServer(kind, env, { carrier: (deps) => configuredTelephony(deps).carrier });
    const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(line) });
    bridge = configuredTelephony({ ...srv.deps, logger: logger, agent: srv.agent }).attach!(srv.httpServer)!;
    const alice = await srv.tenant();
    const res = await alice.api.post('/v1/agent/calls', {
      body: { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.', fields: [{ name: 'open_sunday', type: 'boolean', description: 'whether the shop is open on Sunday' }] },
    });
    expect(res.status).to.equal(202);
    await srv.engine.tick();
    const id = res.body.callId as string;
    const sid = (await srv.row(id)).carrier_ref!;
    // Where Twilio would connect the stream, and with what, read from the TwiML the carrier sent.
    const twiml = twilio.call(sid).params.Twiml[0];
    const [, url, token] = /<Stream url="([^"]+)"><Parameter name="token" value="([^"]+)"\/>/.exec(twiml)!;
    return { id, sid, url, token };
  }

  async function answer(sid: string, id: string): Promise<void> {
    srv.clock.advance(4000);
    expect((await twilio.status(sid, 'in-progress')).status).to.equal(204);
    expect((await twilio.amd(sid, 'human')).status).to.equal(204);
    await srv.engine.tick();
    expect((await srv.row(id)).status).to.equal('in_progress');
  }

  it('hangs up through the REST API when the model calls end_call, and completes with the transcript and the extracted field', async () => {
    const { id, sid, url, token } = await setUp([
      { agent: HELLO },
      { agent: QUESTION },
      { callee: 'Yes, we are open on Sunday.', afterBytes: 10 * FRAME_BYTES },
      { agent: 'Thank you, goodbye.' },
      { endCall: true },
    ]);
    await answer(sid, id);
    peer = await FakeMediaPeer.connect(url);
    peer.start({ callSid: sid, token });
    await peer.until(() => peer!.mediaBytes === 3200);
    peer.speak(muLawTone(10 * FRAME_BYTES, 300));
    srv.clock.advance(30_000);
    await twilio.hungUp(sid);
    expect(twilio.call(sid).updates).to.deep.equal([{ Status: 'completed' }]);
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'completed', error: null });
    expect(row.transcript).to.equal(`Agent: ${HELLO}\nAgent: ${QUESTION}\nCallee: Yes, we are open on Sunday.\nAgent: Thank you, goodbye.`);
    expect(JSON.parse(row.extracted_json!)).to.deep.equal({ open_sunday: true });
    const seen = logs.join('\n');
    expect(seen).to.include('media stream started');
    for (const secret of [KEY, FAKE_AUTH_TOKEN, token]) expect(seen).not.to.include(secret);
  });

  it('records the opt-out the model reports with record_opt_out, answers the tool, and lists the number as the call ends', async () => {
    // Words no phrase list holds: the opt-out rests on the model's tool call alone.
    const ask = "Honestly, I'd rather you never rang this shop again.";
    const sorry = "I'm sorry to have bothered you. You won't be called again. Goodbye.";
    const { id, sid, url, token } = await setUp([{ agent: HELLO }, { callee: ask, afterBytes: 10 * FRAME_BYTES }, { optOut: true }, { agent: sorry }, { endCall: true }]);
    await answer(sid, id);
    peer = await FakeMediaPeer.connect(url);
    peer.start({ callSid: sid, token });
    await peer.until(() => peer!.mediaBytes === 1600);
    peer.speak(muLawTone(10 * FRAME_BYTES, 300));
    // The model goes on only once the tool call is answered: its apology reaches the line.
    await peer.until(() => peer!.mediaBytes === 3200);
    expect(realtime.connections[0].toolOutputs).to.deep.equal([{ callId: realtime.connections[0].toolOutputs[0]?.callId, output: '{"recorded":true}' }]);
    expect((await srv.row(id)).opt_out).to.equal(1);
    srv.clock.advance(30_000);
    await twilio.hungUp(sid);
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'completed', opt_out: 1 });
    expect(row.transcript).to.equal(`Agent: ${HELLO}\nCallee: ${ask}\nAgent: ${sorry}`);
    const entry = await srv.deps.store.db.selectFrom('do_not_call').selectAll().where('e164', '=', '+14155550123').executeTakeFirstOrThrow();
    expect(entry).to.deep.include({ reason: 'callee_request', source: 'call', call_id: id });
  });

  it('refuses a stream with a forged token before the model is connected or the line touched', async () => {
    const { id, sid, url } = await setUp([{ agent: HELLO }]);
    await answer(sid, id);
    peer = await FakeMediaPeer.connect(url);
    peer.start({ callSid: sid, token: 'forged-token' });
    await peer.until(() => peer!.closedWith !== null);
    expect(peer.closedWith).to.deep.equal({ code: 1008, reason: 'invalid stream' });
    expect(realtime.connections).to.have.length(0);
    expect(twilio.call(sid).updates).to.deep.equal([]);
  });
});
