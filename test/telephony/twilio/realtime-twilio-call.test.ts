// The realtime agent on the Twilio carrier as main.ts composes them, against a fake Twilio REST API and a fake
// realtime server: the stream connects to the URL and token in the TwiML the carrier sent, the model's end_call
// hangs up through the REST API, Twilio's `completed` callback ends the call, and nothing secret is logged.
import { expect } from 'chai';
import type { EngineServer } from '../../support/engine.js';
import { FakeMediaPeer, FRAME_BYTES, muLawTone } from '../../support/fake-media-peer.js';
import type { FakeRealtime, RealtimeStep } from '../../support/fake-realtime.js';
import { FAKE_AUTH_TOKEN, FakeTwilio } from '../../support/fake-twilio.js';
import { forEachStore } from '../../support/stores.js';
import { REALTIME_TEST_KEY, startRealtimeTwilio, type RealtimeTwilio } from './realtime-twilio.js';

const KEY = REALTIME_TEST_KEY;
const HELLO = 'Hello, I am an AI assistant calling for a customer.';
const QUESTION = 'Could you tell me whether the shop is open on Sunday?';

forEachStore('a realtime call on the Twilio carrier', (kind) => {
  let twilio: FakeTwilio;
  let h: RealtimeTwilio | undefined;
  let srv: EngineServer;
  let realtime: FakeRealtime;
  let peer: FakeMediaPeer | null = null;
  let logs: string[] = [];

  beforeEach(async () => {
    twilio = await FakeTwilio.start();
    twilio.completeOnHangUp = true;
    h = undefined;
  });
  afterEach(async () => {
    peer?.close();
    await h?.close();
    await twilio.close();
  });

  async function setUp(script: RealtimeStep[]) {
    h = await startRealtimeTwilio(kind, twilio, script);
    ({ srv, realtime, logs } = h);
    return h.placeCall();
  }
  const answer = (sid: string, id: string) => h!.answer(sid, id);

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
