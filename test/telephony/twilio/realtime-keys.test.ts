// Keys on a Twilio line with the realtime agent, through the media bridge: the model's press_keys plays the keys as
// tones on the stream after what it said, each 100 ms with 100 ms after it and w a 0.5 s pause, as a receiver hears
// them in the media Twilio got; the model is answered only once the mark after them is back, and is not asked to go
// on: what the line says next is what it answers. Keys the callee presses
// (Twilio's dtmf messages) come to the model as one user message per group and as one callee turn.
import { expect } from 'chai';
import { recordLineEvent } from '../../../server/src/telephony/carrier-inbox.js';
import { recordedTurns } from '../../../server/src/voice-agent/recorded-turns.js';
import { decodeDtmf } from '../../../server/src/telephony/dtmf-decoder.js';
import { FRAME_BYTES, type FakeMediaPeer, muLawTone } from '../../support/fake-media-peer.js';
import { forEachStore } from '../../support/stores.js';
import { callSidOf, startBridge, type BridgeHarness } from './media-harness.js';

/** `ms` of the callee's line, silent. */
const silence = (ms: number) => muLawTone(ms * 8, 0);

/** The agent's audio the peer was sent, in order. */
const mediaOf = (peer: FakeMediaPeer) => Buffer.concat(peer.events('media').map((m) => Buffer.from(String((m.media as { payload: string }).payload), 'base64')));

for (const protocol of ['ga', 'beta'] as const) {
  forEachStore(`keys on a realtime call (${protocol} interface)`, (kind) => {
    let h: BridgeHarness;
    afterEach(() => h?.close());

    async function answered(id: string): Promise<void> {
      const at = h.srv.clock.now() + 4000;
      await recordLineEvent(h.db, { callId: id, ref: callSidOf(id), event: { kind: 'answered', at } }, at);
      h.srv.clock.ms = at;
      await h.srv.engine.tick();
    }

    /** The callee's audio, once the model has had all of it (so the session has handled everything sent before). */
    async function speak(peer: FakeMediaPeer, audio: Buffer): Promise<void> {
      const want = h.realtime.connections[0]!.appendedBytes + audio.length;
      peer.speak(audio);
      await h.realtime.until(() => h.realtime.connections[0]!.appendedBytes === want);
    }

    it('plays the keys as tones after what the model said, answers the model once the line says they played, and waits for what the line says next', async () => {
      h = await startBridge(kind, {
        protocol,
        script: [
          { agent: 'I will choose sales.', audioBytes: 1600 },
          { call: 'press_keys', arguments: { digits: '1w2#' } },
          { callee: 'Sales, how can I help?', afterBytes: 3000 * 8 },
          { agent: 'Thank you.', audioBytes: 800 },
        ],
      });
      const id = await h.placeCall();
      await answered(id);
      const peer = await h.stream(id);
      // The peer holds every mark back: the line has not said the keys played.
      peer.echoMarks = false;
      await peer.until(() => peer.events('mark').some((m) => (m.mark as { name: string }).name === 'svc_keys_1'));
      const media = mediaOf(peer);
      // The model's 200 ms of speech (a 440 Hz tone, no key), then 1, a half-second pause, 2 and #.
      expect(decodeDtmf(media)).to.deep.equal([
        { key: '?', startMs: 0, endMs: 200 },
        { key: '1', startMs: 200, endMs: 300 },
        { key: '2', startMs: 900, endMs: 1000 },
        { key: '#', startMs: 1100, endMs: 1200 },
      ]);
      expect(media.length).to.equal(1300 * 8);
      // Played out on the line's side (1,200 ms of call time pass), but not said to be: the model waits.
      await speak(peer, silence(1200));
      expect(h.realtime.connections[0]!.toolOutputs).to.deep.equal([]);
      // The line says everything sent has played: the model's words, then the keys.
      for (const m of peer.events('mark')) peer.send({ event: 'mark', streamSid: peer.streamSid, mark: m.mark });
      peer.echoMarks = true;
      const conn = h.realtime.connections[0]!;
      await h.realtime.until(() => conn.toolOutputs.length === 1);
      expect(conn.toolOutputs[0]!.output).to.equal('{"sent":"1w2#"}');
      // Answered, and not asked to go on: the model says nothing until the line speaks.
      await speak(peer, silence(100));
      const outputAt = conn.received.findIndex((e) => e.type === 'conversation.item.create' && (e.item as { type: string }).type === 'function_call_output');
      expect(conn.received.slice(outputAt + 1).filter((e) => e.type !== 'input_audio_buffer.append')).to.deep.equal([]);
      expect(peer.mediaBytes).to.equal(1300 * 8);
      await speak(peer, silence(1700));
      await peer.until(() => peer.mediaBytes === 1300 * 8 + 800);
      peer.stop();
      await h.bridge.settled();
      expect(await recordedTurns(h.db, id)).to.deep.equal([
        { speaker: 'agent', text: 'I will choose sales.', startMs: 0, endMs: 200 },
        // Its mark came back at 1,200 ms of call time; the keys last 1,100 ms.
        { speaker: 'agent', text: '[pressed 1 2 #]', startMs: 100, endMs: 1200 },
        // The fake's server VAD dates the turn from the audio it heard since the last one: the whole line so far.
        { speaker: 'callee', text: 'Sales, how can I help?', startMs: 0, endMs: 3000 },
        { speaker: 'agent', text: 'Thank you.', startMs: 3000, endMs: 3100 },
      ]);
    });

    it('tells the model the keys the callee pressed, close together as one note, and answers it; each group is a callee turn', async () => {
      h = await startBridge(kind, {
        protocol,
        script: [{ agent: 'Hello.', audioBytes: 800 }, { pause: true }, { agent: 'You pressed one, two, three.', audioBytes: 800 }, { pause: true }, { agent: 'And the hash key.', audioBytes: 800 }],
      });
      const id = await h.placeCall();
      await answered(id);
      const peer = await h.stream(id);
      await peer.until(() => peer.mediaBytes === 800);
      const conn = h.realtime.connections[0]!;
      await speak(peer, silence(500));
      peer.dtmf('1');
      peer.dtmf('2');
      await speak(peer, silence(1000));
      peer.dtmf('3');
      // 1,480 ms after the last key: still one group in the making, nothing told.
      await speak(peer, silence(1480));
      expect(conn.messages).to.deep.equal([]);
      await speak(peer, silence(20));
      await h.realtime.until(() => conn.messages.length === 1 && conn.sentAudioBytes === 1600);
      expect(conn.messages).to.deep.equal([{ role: 'user', text: '[The callee pressed 1 2 3]' }]);
      // The note went up as a message item, then the model was asked to answer it.
      const sent = conn.received.filter((e) => e.type === 'conversation.item.create' || e.type === 'response.create').map((e) => e.type);
      expect(sent.slice(-2)).to.deep.equal(['conversation.item.create', 'response.create']);
      peer.dtmf('#');
      await speak(peer, silence(1500));
      await h.realtime.until(() => conn.messages.length === 2 && conn.sentAudioBytes === 2400);
      expect(conn.messages[1]).to.deep.equal({ role: 'user', text: '[The callee pressed #]' });
      expect(conn.sent.filter((e) => e.type === 'error')).to.deep.equal([]);
      peer.stop();
      await h.bridge.settled();
      const turns = await recordedTurns(h.db, id);
      expect(turns.filter((t) => t.speaker === 'callee')).to.deep.equal([
        { speaker: 'callee', text: '[pressed 1 2 3]', startMs: 500, endMs: 1500 },
        { speaker: 'callee', text: '[pressed #]', startMs: 3000, endMs: 3000 },
      ]);
    });

    it('answers a note that came while the model was answering once that response is done, never asking for two at once', async () => {
      h = await startBridge(kind, {
        protocol,
        script: [
          { agent: 'Hello.', audioBytes: 800 },
          { pause: true },
          { callee: 'Hi, who is this?', afterBytes: 10 * FRAME_BYTES },
          { agent: 'An assistant calling about your parcel.', audioBytes: 800 },
          { pause: true },
          { agent: 'You pressed four.', audioBytes: 800 },
        ],
        // The model takes a while to answer the callee: the keys come while its response runs.
        realtimeOptions: { firstAudioDelayMs: 400 },
      });
      const id = await h.placeCall();
      await answered(id);
      const peer = await h.stream(id);
      await peer.until(() => peer.mediaBytes === 800);
      const conn = h.realtime.connections[0]!;
      await speak(peer, silence(200));
      await h.realtime.until(() => conn.sent.filter((e) => e.type === 'response.created').length === 2);
      peer.dtmf('4');
      await speak(peer, silence(1500));
      await h.realtime.until(() => conn.sentAudioBytes === 2400);
      expect(conn.messages).to.deep.equal([{ role: 'user', text: '[The callee pressed 4]' }]);
      expect(conn.sent.filter((e) => e.type === 'error')).to.deep.equal([]);
      expect(conn.sent.filter((e) => e.type === 'response.created')).to.have.length(3);
    });

    it('writes the keys the callee pressed just before hanging up as their turn, though no group had closed', async () => {
      h = await startBridge(kind, { protocol, script: [{ agent: 'Hello.', audioBytes: 800 }] });
      const id = await h.placeCall();
      await answered(id);
      const peer = await h.stream(id);
      await peer.until(() => peer.mediaBytes === 800);
      await speak(peer, silence(200));
      peer.dtmf('9');
      peer.stop();
      await h.bridge.settled();
      expect(h.realtime.connections[0]!.messages).to.deep.equal([]);
      expect((await recordedTurns(h.db, id)).filter((t) => t.speaker === 'callee')).to.deep.equal([{ speaker: 'callee', text: '[pressed 9]', startMs: 200, endMs: 200 }]);
    });
  });
}
