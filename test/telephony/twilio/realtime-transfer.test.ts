// Transfers on a realtime call over the Twilio carrier, as main.ts composes them, against a fake Twilio and a fake
// realtime model that calls transfer_call: the tool is offered (and the instructions say when) only on a call placed
// with a transfer. Cold: once the agent's words have played, Twilio sees the recording stopped and the call updated
// to <Dial> the number from the call's caller id, and the call completes where the agent left it, transferred; a
// Dial nobody takes has Twilio tell the callee so. Warm: Twilio sees the person's call with the briefing, the person
// takes it with their key and waits in the call's conference, the model is told and says it is connecting, and the
// call is moved into the conference; a person who does not answer, or declines, is told the model, which goes on;
// a callee who hangs up meanwhile has the person's call hung up. A handover Twilio refuses (the call ended under
// it) is hung up instead, not recorded as a transfer.
import { expect } from 'chai';
import { makeDueNow } from '../../../server/src/store/calls/call-due.js';
import type { EngineServer } from '../../support/engine.js';
import { FakeMediaPeer } from '../../support/fake-media-peer.js';
import type { FakeRealtime, RealtimeStep } from '../../support/fake-realtime.js';
import { FakeTwilio } from '../../support/fake-twilio.js';
import { forEachStore } from '../../support/stores.js';
import { until } from '../../support/until.js';
import { startRealtimeTwilio, type RealtimeTwilio } from './realtime-twilio.js';

const PERSON = '+14155550142';
const CALLER_ID = '+14155550100';
const BRIEFING = 'Jane Roe is on the line about her Sunday delivery; the shop is open on Sunday.';
const XML = '<?xml version="1.0" encoding="UTF-8"?>';

forEachStore('transfers on a realtime call', (kind) => {
  let twilio: FakeTwilio;
  let h: RealtimeTwilio | undefined;
  let srv: EngineServer;
  let realtime: FakeRealtime;
  let peer: FakeMediaPeer | null = null;

  beforeEach(async () => {
    twilio = await FakeTwilio.start();
    twilio.completeOnHangUp = true;
    h = undefined;
  });
  afterEach(async () => {
    peer?.close();
    peer = null;
    await h?.close();
    await twilio.close();
  });

  /** Places the call with `placed`, answers it and connects its stream; the model follows `script`. */
  async function call(script: RealtimeStep[], placed: Record<string, unknown>) {
    h = await startRealtimeTwilio(kind, twilio, script);
    ({ srv, realtime } = h);
    const { id, sid, url, token } = await h.placeCall(placed);
    await h.answer(sid, id);
    twilio.call(sid).status = 'in-progress';
    peer = await FakeMediaPeer.connect(url);
    peer.start({ callSid: sid, token });
    return { id, sid };
  }

  /**
   * The engine's next step, once the agent's side has recorded the handover, at the engine's own clock 30 s on (the
   * record made the call due on the wall's).
   */
  async function stepAfter(id: string) {
    await until('the handover recorded', async () => (await srv.row(id)).transferred_to !== null);
    srv.clock.advance(30_000);
    await makeDueNow(srv.deps.store.db, id, srv.clock.now());
    await srv.engine.tick();
    const res = await h!.tenant.api.get(`/v1/agent/calls/${id}`);
    expect(res.status).to.equal(200);
    return res.body;
  }

  const offered = () => (realtime.connections[0]!.session.tools as Array<{ name: string }>).map((t) => t.name);
  const instructions = () => String(realtime.connections[0]!.session.instructions);
  /** The person's call: every call the fake was asked to make after the first. */
  const legs = () => twilio.calls.slice(1);

  it("hands a cold transfer over once the agent's words have played: the recording stopped, a <Dial> from the call's caller id, the call completed and transferred", async () => {
    const { id, sid } = await call([{ agent: 'Of course, I am transferring you now.' }, { call: 'transfer_call' }], { transfer: { to: PERSON, when: 'the callee wants a manager' } });
    await until('the handover', () => twilio.call(sid).updates.length === 1);
    expect(peer!.mediaBytes).to.equal(1600);
    expect(offered()).to.deep.equal(['end_call', 'record_opt_out', 'voicemail_detected', 'press_keys', 'wait_on_hold', 'keep_listening', 'transfer_call']);
    expect(instructions()).to.include(
      'Transfer the call to a person when the callee wants a manager: tell them in one short sentence that you are transferring them now, then call the transfer_call function; you leave the call once your words have played.',
    );
    expect(twilio.call(sid).recordingStopped).to.equal(true);
    expect(twilio.call(sid).updates).to.deep.equal([
      {
        Twiml: `${XML}<Response><Dial callerId="${CALLER_ID}" timeout="20" action="${srv.deps.config.publicBaseUrl}/twilio/handover/${id}" method="POST">${PERSON}</Dial></Response>`,
        TimeLimit: '14400',
      },
    ]);
    // Handed over, not hung up: no Status=completed from the service.
    await h!.srv.engine.tick();
    expect(twilio.call(sid).updates.some((u) => u.Status === 'completed')).to.equal(false);
    const record = await stepAfter(id);
    expect(record).to.deep.include({ status: 'completed', transferredTo: PERSON, transferredAt: record.endedAt, durationSec: 30 });
    expect(record.transcript).to.equal('Agent: Of course, I am transferring you now.\nAgent: [transferred the call]');
    expect(twilio.call(sid).updates.some((u) => u.Status === 'completed')).to.equal(false);
    const event = await srv.deps.store.db.selectFrom('webhook_events').select('body').where('call_id', '=', id).where('event', '=', 'call.completed').executeTakeFirstOrThrow();
    expect(JSON.parse(event.body)).to.deep.include({ transferredTo: PERSON, transferredAt: record.endedAt });
    // Nobody takes it: Twilio asks the Dial's action, and says so to the callee in the call's language.
    const ended = await twilio.dialEnded(sid, 'no-answer');
    expect(ended).to.deep.equal({ status: 200, body: `${XML}<Response><Say language="en-US">I&apos;m sorry, nobody could take your call. Goodbye.</Say><Hangup/></Response>` });
    // Another tenant's key sees nothing of it.
    const bob = await srv.tenant();
    expect((await bob.api.get(`/v1/agent/calls/${id}`)).status).to.equal(404);
  });

  it('offers no transfer_call on a call placed without a transfer, and tells the model it cannot transfer', async () => {
    await call([{ agent: 'Hello.' }, { call: 'transfer_call' }, { agent: 'Not offered, never called.' }], {});
    await peer!.until(() => peer!.mediaBytes === 1600);
    expect(offered()).to.deep.equal(['end_call', 'record_opt_out', 'voicemail_detected', 'press_keys', 'wait_on_hold', 'keep_listening']);
    expect(instructions()).to.include('If the person asks to speak to a person, say politely that you cannot transfer this call, and offer to help them yourself or to pass on a message.');
    expect(realtime.connections[0]!.functionCalls).to.deep.equal([]);
    expect(legs()).to.deep.equal([]);
  });

  it('calls the person of a warm transfer with the briefing, tells the model once they take the call, and joins the two in the conference', async () => {
    const { id, sid } = await call(
      [
        { agent: 'Please hold while I reach someone.' },
        { call: 'transfer_call', arguments: { briefing: BRIEFING } },
        { agent: 'I have them on the line now; connecting you.' },
        { call: 'transfer_call' },
      ],
      { transfer: { to: PERSON, mode: 'warm' } },
    );
    await until('the call to the person', () => legs().length === 1);
    const leg = legs()[0]!;
    const base = srv.deps.config.publicBaseUrl;
    expect(leg.params).to.deep.equal({
      To: [PERSON],
      From: [CALLER_ID],
      Twiml: [
        `${XML}<Response><Gather input="dtmf" numDigits="1" timeout="8" action="${base}/twilio/handover/${id}" method="POST"><Say language="en-US">${BRIEFING} Press 1 to take the call.</Say></Gather><Hangup/></Response>`,
      ],
      Timeout: ['20'],
      StatusCallback: [`${base}/twilio/leg/${id}`],
      StatusCallbackMethod: ['POST'],
      StatusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
    });
    expect(instructions()).to.include('call the transfer_call function with a briefing in American English (en-US) for the person who answers');
    expect((await twilio.statuses(leg.sid, ['initiated', 'ringing', 'in-progress'])).map((r) => r.status)).to.deep.equal([204, 204, 204]);
    // Ringing and answered: the model is not told yet, and the callee's call is untouched.
    await new Promise((r) => setTimeout(r, 400));
    expect(realtime.connections[0]!.toolOutputs).to.deep.equal([]);
    const key = await twilio.gather(leg.sid, '1');
    expect(key).to.deep.equal({
      status: 200,
      body: `${XML}<Response><Dial><Conference beep="false" startConferenceOnEnter="true" endConferenceOnExit="true" waitUrl="">svc-${id}</Conference></Dial></Response>`,
    });
    await until('the model told', () => realtime.connections[0]!.toolOutputs.length === 1);
    expect(JSON.parse(realtime.connections[0]!.toolOutputs[0]!.output)).to.deep.equal({
      status: 'accepted',
      note: 'The person took the call and is waiting. Tell the callee in one short sentence that you are connecting them now, then call transfer_call again.',
    });
    await until('the callee joined', () => twilio.call(sid).updates.length === 1);
    expect(peer!.mediaBytes).to.equal(3200);
    expect(twilio.call(sid).recordingStopped).to.equal(true);
    expect(twilio.call(sid).updates).to.deep.equal([{ Twiml: key.body, TimeLimit: '14400' }]);
    // The person's call goes on: the service hangs up neither.
    expect(leg.updates).to.deep.equal([]);
    const record = await stepAfter(id);
    expect(record).to.deep.include({ status: 'completed', transferredTo: PERSON, transferredAt: record.endedAt });
    expect(record.transcript.split('\n')).to.deep.equal([
      'Agent: Please hold while I reach someone.',
      `Agent: [calling the transfer number: "${BRIEFING}"]`,
      'Agent: [the person took the call]',
      'Agent: I have them on the line now; connecting you.',
      'Agent: [transferred the call]',
    ]);
  });

  for (const [what, outcome, drive] of [
    ['does not answer', 'no_answer', (sid: string) => twilio.statuses(sid, ['initiated', 'ringing', 'no-answer'])],
    ['is busy', 'declined', (sid: string) => twilio.statuses(sid, ['initiated', 'busy'])],
    ['answers and presses another key', 'declined', async (sid: string) => [await twilio.status(sid, 'in-progress'), await twilio.gather(sid, '2'), await twilio.status(sid, 'completed')]],
  ] as const) {
    it(`tells the model when the person of a warm transfer ${what}, and the call goes on, not transferred`, async () => {
      const { id, sid } = await call(
        [
          { agent: 'Please hold while I reach someone.' },
          { call: 'transfer_call', arguments: { briefing: BRIEFING } },
          { agent: 'I am sorry, nobody is available right now. Goodbye.' },
          { endCall: true },
        ],
        { transfer: { to: PERSON, mode: 'warm' } },
      );
      await until('the call to the person', () => legs().length === 1);
      // The call has lasted 30 s on the engine's clock, advanced while the model waits on the transfer: once it is
      // told, it says goodbye and hangs up, and the call's end may come before this test's next step.
      srv.clock.advance(30_000);
      const results = await drive(legs()[0]!.sid);
      if (outcome === 'declined' && results.length === 3) expect(results[1]).to.deep.equal({ status: 200, body: `${XML}<Response><Hangup/></Response>` });
      await until('the model told', () => realtime.connections[0]!.toolOutputs.length === 1);
      expect(JSON.parse(realtime.connections[0]!.toolOutputs[0]!.output)).to.deep.equal({
        status: outcome,
        note: 'Nobody took the call. Tell the callee politely that nobody is available right now; then carry on with the objective, or say goodbye and call end_call. Do not try to transfer again.',
      });
      await twilio.hungUp(sid);
      const row = await srv.drive(id);
      expect([row.status, row.transferred_to, row.transferred_at]).to.deep.equal(['completed', null, null]);
      expect(row.transcript!.split('\n')).to.deep.equal([
        'Agent: Please hold while I reach someone.',
        `Agent: [calling the transfer number: "${BRIEFING}"]`,
        `Agent: ${outcome === 'no_answer' ? '[nobody answered the transfer number]' : '[the person did not take the call]'}`,
        'Agent: I am sorry, nobody is available right now. Goodbye.',
      ]);
    });
  }

  it('hangs up the person of a warm transfer when the callee hangs up while they are being called', async () => {
    const { id, sid } = await call([{ agent: 'Please hold while I reach someone.' }, { call: 'transfer_call', arguments: { briefing: BRIEFING } }], { transfer: { to: PERSON, mode: 'warm' } });
    await until('the call to the person', () => legs().length === 1);
    const leg = legs()[0]!;
    await twilio.statuses(leg.sid, ['initiated', 'ringing']);
    peer!.stop();
    expect((await twilio.status(sid, 'completed')).status).to.equal(204);
    await until("the person's call hung up", () => leg.updates.some((u) => u.Status === 'completed'));
    const row = await srv.drive(id);
    expect([row.status, row.transferred_to]).to.deep.equal(['completed', null]);
  });

  it('hangs up, and records no transfer, when Twilio refuses the handover because the call ended under it', async () => {
    const { id, sid } = await call([{ agent: 'Of course, I am transferring you now.' }, { call: 'transfer_call' }], { transfer: { to: PERSON } });
    // The callee has hung up as the agent speaks: Twilio will take no new TwiML for the call, nor stop its recording.
    twilio.call(sid).status = 'completed';
    await twilio.hungUp(sid);
    expect(twilio.call(sid).updates).to.deep.equal([{ Status: 'completed' }]);
    expect(twilio.call(sid).recordingStopped).to.equal(false);
    const logs = h!.logs.join('\n');
    expect(logs).to.include('could not stop the recording at the handover');
    expect(logs).to.include('the line could not be handed over; hanging up');
    srv.clock.advance(30_000);
    expect((await twilio.status(sid, 'completed')).status).to.equal(204);
    const row = await srv.drive(id);
    expect([row.status, row.transferred_to, row.transcript]).to.deep.equal(['completed', null, 'Agent: Of course, I am transferring you now.']);
  });
});
