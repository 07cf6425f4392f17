// A call through the engine with the realtime agent on a callback carrier: answered, the media stream joins the
// fake realtime model to the fake Twilio peer, the model asks and the callee answers, end_call hangs up, and the
// engine completes the call from the turns the bridge wrote.
import { expect } from 'chai';
import { recordLineEvent } from '../../../server/src/telephony/carrier-inbox.js';
import { FRAME_BYTES, muLawTone } from '../../support/fake-media-peer.js';
import { forEachStore } from '../../support/stores.js';
import { callSidOf, startBridge, type BridgeHarness } from './media-harness.js';

const HELLO = 'Hello, I am an AI assistant calling for a customer.';
const QUESTION = 'Could you tell me whether the shop is open on Sunday?';
const APOLOGY = 'I am sorry, we have a technical problem and have to end this call. Goodbye.';

for (const protocol of ['ga', 'beta'] as const) {
  forEachStore(`a realtime call through the engine (${protocol} interface)`, (kind) => {
    let h: BridgeHarness;
    afterEach(() => h?.close());

    async function answered(id: string): Promise<number> {
      const at = h.srv.clock.now() + 4000;
      await recordLineEvent(h.db, { callId: id, ref: callSidOf(id), event: { kind: 'answered', at } }, at);
      h.srv.clock.ms = at;
      await h.srv.engine.tick();
      expect((await h.srv.row(id)).status).to.equal('in_progress');
      return at;
    }

    it('completes with the transcript, the extracted field and a summary once the model calls end_call', async () => {
      h = await startBridge(kind, {
        protocol,
        script: [
          { agent: HELLO, audioBytes: 1600 },
          { agent: QUESTION, audioBytes: 1600 },
          { callee: 'Yes, we are open on Sunday.', afterBytes: 10 * FRAME_BYTES },
          { agent: 'Thank you, that is all I needed. Goodbye.', audioBytes: 1600 },
          { endCall: true },
        ],
      });
      const id = await h.placeCall();
      const t0 = await answered(id);
      const hungUp = h.nextHangUp();
      const peer = await h.stream(id);
      await peer.until(() => peer.mediaBytes === 3200);
      peer.speak(muLawTone(10 * FRAME_BYTES, 300));
      h.srv.clock.advance(21_000);
      await hungUp;
      const row = await h.srv.drive(id);
      expect(row).to.include({ status: 'completed', started_at: t0, ended_at: t0 + 21_000, duration_sec: 21, billed_minutes: 1, error: null });
      expect(row.transcript).to.equal(`Agent: ${HELLO}\nAgent: ${QUESTION}\nCallee: Yes, we are open on Sunday.\nAgent: Thank you, that is all I needed. Goodbye.`);
      expect(JSON.parse(row.extracted_json!)).to.deep.equal({ open_sunday: true });
      expect(row.summary).to.include('open on Sunday');
      expect(h.hangUps).to.deep.equal([{ callId: id, callSid: callSidOf(id), reason: 'end_call' }]);
    });

    it("tells the model on whose behalf it calls, the number to call back, the callee's time and the recording notice, from the placement", async () => {
      h = await startBridge(kind, { protocol, script: [{ agent: HELLO }] });
      const id = await h.placeCall({ to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.', context: 'A parcel.', onBehalfOf: "Tony's Pizzeria" });
      await answered(id);
      const peer = await h.stream(id);
      await peer.until(() => peer.mediaBytes === 1600);
      const update = h.realtime.connections[0].received.find((e) => e.type === 'session.update')!;
      const lines = String((update.session as { instructions: string }).instructions).split('\n');
      const callerId = (await h.srv.row(id)).caller_id!;
      expect(lines[0]).to.equal("You are an AI assistant making a phone call on behalf of Tony's Pizzeria. You are speaking with the person who answered.");
      expect(lines).to.include.members([
        'This call is recorded: say so in your introduction.',
        `If the person asks for a number to call back, give ${callerId}, the number you are calling from, digit by digit.`,
      ]);
      expect(lines.find((l) => l.startsWith('Where the person is, it is now '))).to.match(/^Where the person is, it is now \w+, \d{1,2} \w+ \d{4}, \d\d:\d\d \(America\/Los_Angeles\)\.$/);
    });

    it('ends the call failed, agent_unavailable, with the transcript so far and a summary that says so, when the socket drops and its replacement drops too', async () => {
      h = await startBridge(kind, {
        protocol,
        script: [{ agent: QUESTION }, { callee: 'Hang on, let me check.', afterBytes: 4 * FRAME_BYTES }, { drop: true, afterBytes: FRAME_BYTES }],
        realtimeOptions: { connections: [{}, { script: [{ drop: true, afterBytes: FRAME_BYTES }] }] },
      });
      const id = await h.placeCall();
      const t0 = await answered(id);
      const hungUp = h.nextHangUp();
      const peer = await h.stream(id);
      await peer.until(() => peer.mediaBytes === 1600);
      peer.speak(muLawTone(5 * FRAME_BYTES, 300));
      await h.realtime.until(() => h.realtime.connections.length === 2 && h.realtime.connections[1]!.received.some((e) => e.type === 'response.create'));
      h.srv.clock.advance(15_000);
      peer.speak(muLawTone(FRAME_BYTES, 300));
      await hungUp;
      const row = await h.srv.drive(id);
      expect(row).to.include({ status: 'failed', error: 'agent_unavailable', ended_at: t0 + 15_000, duration_sec: 15, extracted_json: null });
      expect(row.transcript).to.equal(`Agent: ${QUESTION}\nCallee: Hang on, let me check.\nAgent: ${APOLOGY}`);
      expect(row.summary).to.equal(
        "Objective: Ask whether the shop is open on Sunday. The call failed: the AI agent's speech model could not be reached or stopped answering, so the callee heard a short apology and the call was hung up. No fields were extracted; the transcript holds what was said before.",
      );
      expect(h.hangUps.map((c) => c.reason)).to.deep.equal(['agent_lost']);
    });
  });
}
