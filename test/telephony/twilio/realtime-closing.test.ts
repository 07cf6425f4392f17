// How a realtime call on the Twilio carrier closes, against the fake Twilio REST API, the fake media peer and the
// fake realtime server on their bad days: a silent line is prompted once and then hung up (noise and the agent's
// own talk never keep it up); the callee's last words as they hang up mid-sentence are committed and transcribed
// before the session closes, and the agent's words they hung up on are waited for too; and the goodbye is heard before the line is hung up, even when the model calls
// end_call before its goodbye's audio. Bounds are small here and counted on the callee's stream or the peer's
// manual playback clock, so nothing depends on how fast the machine is.
import { expect } from 'chai';
import { SILENCE_PROMPT } from '../../../server/src/voice-agent/silence-watch.js';
import type { RealtimeConnection } from '../../../server/src/voice-agent/realtime-session.js';
import type { EngineServer } from '../../support/engine.js';
import { FakeMediaPeer, ManualClock, muLawTone, type MediaPeerOptions } from '../../support/fake-media-peer.js';
import type { FakeRealtime, RealtimeStep } from '../../support/fake-realtime.js';
import { FakeTwilio } from '../../support/fake-twilio.js';
import { forEachStore } from '../../support/stores.js';
import { startRealtimeTwilio, type RealtimeTwilio } from './realtime-twilio.js';

const HELLO = 'Hello, I am an AI assistant calling for a customer.';
const STILL_THERE = 'Hello? Are you still there?';
const GOODBYE = 'Thank you, goodbye.';
const QUESTION = 'Could you tell me whether the shop is open on Sunday?';
const OPEN = 'Yes, we are open on Sunday.';
/** 8 kHz mu-law: 8 bytes a millisecond. */
const ms = (n: number) => n * 8;
const silence = (n: number) => muLawTone(ms(n), 0);

forEachStore('a realtime call on the Twilio carrier closes', (kind) => {
  let twilio: FakeTwilio;
  let h: RealtimeTwilio | undefined;
  let realtime: FakeRealtime;
  let srv: EngineServer;
  let peer: FakeMediaPeer | null = null;
  let logs: string[] = [];

  beforeEach(async () => {
    twilio = await FakeTwilio.start();
    twilio.completeOnHangUp = true;
    h = undefined;
    peer = null;
  });
  afterEach(async () => {
    peer?.close();
    await h?.close();
    await twilio.close();
  });

  /**
   * Places and answers a call whose realtime agent has these bounds, and connects its stream. With `apart`, the
   * engine reads the turns through an agent of its own, as a worker process beside the api process holding the line.
   */
  async function call(script: RealtimeStep[], bounds: Partial<RealtimeConnection>, playback: MediaPeerOptions = {}, apart = false) {
    h = await startRealtimeTwilio(kind, twilio, script, { bounds, apart });
    ({ srv, realtime, logs } = h);
    const { id, sid, url, token } = await h.placeCall();
    await h.answer(sid, id);
    peer = await FakeMediaPeer.connect(url, playback);
    peer.start({ callSid: sid, token });
    // The line is up for a while before it ends, on the engine's clock: its turns fall within the call.
    srv.clock.advance(30_000);
    return { id, sid, peer };
  }

  const systemItems = () => realtime.connections[0].received.filter((e) => e.type === 'conversation.item.create' && (e.item as { role?: string }).role === 'system').map((e) => e.item);
  /** Waits until the fake has taken every byte of the callee's audio sent so far. */
  const heardAll = (p: FakeMediaPeer, bytes: number) => realtime.until(() => realtime.connections[0]?.appendedBytes === bytes).then(() => p);

  describe('a silent line', () => {
    const bounds = { silence: { promptMs: 1000, hangUpMs: 1000 } };

    it('is prompted once after promptMs, hung up hangUpMs later, and completes with the prompt in the transcript', async () => {
      // Server VAD fires on noise half-way through the first silence: speech started, no words.
      const { id, sid, peer } = await call([{ agent: HELLO }, { noise: true, afterBytes: ms(500), ends: 'nothing' }, { agent: STILL_THERE }], bounds);
      await peer.until(() => peer.echoed.length === 2);
      peer.speak(silence(980));
      await heardAll(peer, ms(980));
      expect(systemItems()).to.deep.equal([]);
      peer.speak(silence(20));
      // The prompt: a system message, then a response; the model asks.
      await peer.until(() => peer.mediaBytes === 3200);
      expect(systemItems()).to.deep.equal([{ type: 'message', role: 'system', content: [{ type: 'input_text', text: SILENCE_PROMPT }] }]);
      // The greeting's response, and the prompt's.
      expect(realtime.connections[0].received.filter((e) => e.type === 'response.create')).to.have.length(2);
      await peer.until(() => peer.echoed.length === 4);
      peer.speak(silence(980));
      await heardAll(peer, ms(1980));
      expect(twilio.call(sid).updates).to.deep.equal([]);
      peer.speak(silence(20));
      await twilio.hungUp(sid);
      expect(twilio.call(sid).updates).to.deep.equal([{ Status: 'completed' }]);
      expect(systemItems()).to.have.length(1);
      const row = await srv.drive(id);
      expect(row).to.include({ status: 'completed', error: null });
      expect(row.transcript).to.equal(`Agent: ${HELLO}\nAgent: ${STILL_THERE}`);
      const ended = logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'media stream ended');
      expect(ended?.reason).to.equal('silence');
    });

    it('counts noise transcribed empty as silence, and never the time the agent is talking', async () => {
      const clock = new ManualClock();
      // The prompt's answer is long (1.5 s) and plays only as the playback clock moves.
      const { sid, peer } = await call([{ agent: HELLO }, { noise: true, afterBytes: ms(300), ends: 'empty-transcript' }, { agent: STILL_THERE, audioBytes: ms(1500) }], bounds, {
        playback: 'real-time',
        clock,
      });
      await peer.until(() => peer.events('mark').length === 2);
      clock.advance(200); // the greeting plays
      peer.speak(silence(980));
      await heardAll(peer, ms(980));
      expect(realtime.connections[0].sent.filter((e) => e.type === 'conversation.item.input_audio_transcription.completed').map((e) => e.transcript)).to.deep.equal(['']);
      expect(systemItems()).to.deep.equal([]);
      peer.speak(silence(20));
      await peer.until(() => peer.mediaBytes === 1600 + ms(1500));
      expect(systemItems()).to.have.length(1);
      // 1.5 s of the callee's stream while the prompt is still playing: not silence.
      peer.speak(silence(1500));
      await heardAll(peer, ms(2500));
      expect(twilio.call(sid).updates).to.deep.equal([]);
      clock.advance(1500); // the prompt plays
      await peer.until(() => peer.echoed.length === 2 + 15);
      peer.speak(silence(980));
      await heardAll(peer, ms(3480));
      expect(twilio.call(sid).updates).to.deep.equal([]);
      peer.speak(silence(20));
      await twilio.hungUp(sid);
      expect(twilio.call(sid).updates).to.deep.equal([{ Status: 'completed' }]);
    });

    it('starts counting again when the callee says something', async () => {
      const { sid, peer } = await call([{ agent: HELLO }, { callee: 'Sorry, who is this?', afterBytes: ms(800) }, { agent: HELLO }], bounds);
      await peer.until(() => peer.echoed.length === 2);
      peer.speak(silence(800));
      await peer.until(() => peer.echoed.length === 4);
      // 800 ms before the words and 900 ms after: never 1000 ms without them.
      peer.speak(silence(900));
      await heardAll(peer, ms(1700));
      expect(systemItems()).to.deep.equal([]);
      peer.speak(silence(100));
      await realtime.until(() => systemItems().length === 1);
      expect(twilio.call(sid).updates).to.deep.equal([]);
    });
  });

  describe("the callee's last words", () => {
    it('are committed when the callee hangs up mid-turn, transcribed late, and in the turns, the transcript and the analysis', async () => {
      const { id, sid, peer } = await call([{ agent: HELLO }, { agent: QUESTION }, { callee: OPEN, afterBytes: ms(300), midTurn: true, transcriptDelayMs: 150 }], { lastWordsMs: 10_000 });
      await peer.until(() => peer.mediaBytes === 3200);
      peer.speak(muLawTone(ms(300), 300));
      await realtime.until(() => realtime.connections[0].sent.some((e) => e.type === 'input_audio_buffer.speech_started'));
      // Twilio stops the stream as the callee hangs up, before server VAD has ended the turn.
      peer.stop();
      await realtime.until(() => realtime.connections[0].received.some((e) => e.type === 'input_audio_buffer.commit'));
      expect(realtime.connections[0].closed).to.equal(false);
      // Twilio's completed callback comes at once; the engine reads the turns once the session has them.
      expect((await twilio.status(sid, 'completed')).status).to.equal(204);
      const row = await srv.drive(id);
      expect(row).to.include({ status: 'completed' });
      expect(row.transcript).to.equal(`Agent: ${HELLO}\nAgent: ${QUESTION}\nCallee: ${OPEN}`);
      expect(JSON.parse(row.turns_json!).map((t: { speaker: string; text: string }) => [t.speaker, t.text])).to.deep.equal([
        ['agent', HELLO],
        ['agent', QUESTION],
        ['callee', OPEN],
      ]);
      expect(JSON.parse(row.extracted_json!)).to.deep.equal({ open_sunday: true });
      await realtime.until(() => realtime.connections[0].closed);
      expect(twilio.call(sid).updates).to.deep.equal([]);
    });

    it('are in when the engine runs in another process than the line: it waits for the line to record itself closed', async () => {
      const { id, sid, peer } = await call([{ agent: HELLO }, { callee: OPEN, afterBytes: ms(300), midTurn: true, transcriptDelayMs: 300 }], { lastWordsMs: 10_000 }, {}, true);
      await peer.until(() => peer.mediaBytes === 1600);
      peer.speak(muLawTone(ms(300), 300));
      await realtime.until(() => realtime.connections[0].sent.some((e) => e.type === 'input_audio_buffer.speech_started'));
      peer.stop();
      await realtime.until(() => realtime.connections[0].received.some((e) => e.type === 'input_audio_buffer.commit'));
      expect((await twilio.status(sid, 'completed')).status).to.equal(204);
      const row = await srv.drive(id);
      expect(row.transcript).to.equal(`Agent: ${HELLO}\nCallee: ${OPEN}`);
      expect(row.line_opened_at).to.be.a('number');
      expect(row.line_closed_at).to.be.at.least(row.line_opened_at!);
    });

    it("are committed when the model reports the callee's speech only after the line ended", async () => {
      const { id, sid, peer } = await call([{ agent: HELLO }, { callee: OPEN, afterBytes: ms(300), midTurn: true, transcriptDelayMs: 100 }], { lastWordsMs: 10_000 });
      await peer.until(() => peer.mediaBytes === 1600);
      // The callee starts to speak and hangs up at once: Twilio's stop reaches svc before the model's speech_started.
      peer.speak(muLawTone(ms(300), 300));
      peer.stop();
      await realtime.until(() => realtime.connections[0].closed);
      expect(realtime.connections[0].received.filter((e) => e.type === 'input_audio_buffer.commit')).to.have.length(1);
      expect((await twilio.status(sid, 'completed')).status).to.equal(204);
      const row = await srv.drive(id);
      expect(row.transcript).to.equal(`Agent: ${HELLO}\nCallee: ${OPEN}`);
    });

    it('are waited for only as long as lastWordsMs: a transcript later than that is not waited for', async () => {
      const { id, sid, peer } = await call([{ agent: HELLO }, { callee: OPEN, afterBytes: ms(300), midTurn: true, transcriptDelayMs: 60_000 }], { lastWordsMs: 50 });
      await peer.until(() => peer.mediaBytes === 1600);
      peer.speak(muLawTone(ms(300), 300));
      await realtime.until(() => realtime.connections[0].sent.some((e) => e.type === 'input_audio_buffer.speech_started'));
      peer.stop();
      await realtime.until(() => realtime.connections[0].closed);
      expect(realtime.connections[0].received.filter((e) => e.type === 'input_audio_buffer.commit')).to.have.length(1);
      expect((await twilio.status(sid, 'completed')).status).to.equal(204);
      const row = await srv.drive(id);
      expect(row.transcript).to.equal(`Agent: ${HELLO}`);
    });

    it('commit nothing when the callee was not speaking as they hung up', async () => {
      const { peer } = await call([{ agent: HELLO }], { lastWordsMs: 10_000 });
      await peer.until(() => peer.mediaBytes === 1600);
      peer.speak(silence(300));
      await heardAll(peer, ms(300));
      peer.stop();
      await realtime.until(() => realtime.connections[0].closed);
      expect(realtime.connections[0].received.filter((e) => e.type === 'input_audio_buffer.commit')).to.deep.equal([]);
    });
  });

  describe("the agent's words the callee hung up on", () => {
    // The model sends a turn's audio faster than it plays and its transcript when it has made the whole turn: a
    // callee who hangs up early in a long turn can be gone before the transcript comes.
    /** A 3 s greeting whose transcript the fake sends `transcriptAfterMs` after its audio; the callee hangs up once its audio is in. */
    async function hangUpOnGreeting(transcriptAfterMs: number, lastWordsMs: number) {
      const { id, sid, peer } = await call([{ agent: HELLO, audioBytes: ms(3000), transcriptAfterMs }], { lastWordsMs });
      await peer.until(() => peer.mediaBytes === ms(3000));
      peer.stop();
      await realtime.until(() => realtime.connections[0].closed);
      const transcriptSent = realtime.connections[0].sent.some((e) => e.type === 'response.output_audio_transcript.done');
      expect((await twilio.status(sid, 'completed')).status).to.equal(204);
      return { transcriptSent, row: await srv.drive(id) };
    }

    it("are in the turns and the transcript when the model's transcript of them comes after the line ended", async () => {
      const { transcriptSent, row } = await hangUpOnGreeting(800, 10_000);
      // The socket stayed open for the transcript, which the fake sends 800 ms after the turn's audio.
      expect(transcriptSent).to.equal(true);
      expect(row.transcript).to.equal(`Agent: ${HELLO}`);
      expect(JSON.parse(row.turns_json!).map((t: { speaker: string; text: string }) => [t.speaker, t.text])).to.deep.equal([['agent', HELLO]]);
    });

    it('are waited for only as long as lastWordsMs', async () => {
      const { transcriptSent, row } = await hangUpOnGreeting(60_000, 50);
      expect(transcriptSent).to.equal(false);
      expect(row.transcript).to.equal(null);
    });
  });

  describe('the goodbye', () => {
    /** A callee answer, then the model calls end_call before its goodbye's audio, in the same response. */
    const script = (goodbyeBytes: number): RealtimeStep[] => [{ agent: HELLO }, { callee: OPEN, afterBytes: ms(200) }, { endCall: true }, { agent: GOODBYE, audioBytes: goodbyeBytes }];

    it('requested before its audio is still spoken, and the line hung up only once it has played', async () => {
      const clock = new ManualClock();
      const { id, sid, peer } = await call(script(ms(1000)), {}, { playback: 'real-time', clock });
      await peer.until(() => peer.events('mark').length === 2);
      clock.advance(200); // the greeting plays
      peer.speak(muLawTone(ms(200), 300));
      await peer.until(() => peer.events('mark').some((m) => (m.mark as { name: string }).name === 'end_call'));
      expect(peer.mediaBytes).to.equal(1600 + ms(1000));
      // Every byte of the goodbye precedes the goodbye's mark.
      const order = peer.received.filter((m) => m.event === 'media' || m.event === 'mark').map((m) => (m.event === 'mark' ? (m.mark as { name: string }).name : 'media'));
      expect(order.at(-1)).to.equal('end_call');
      let hungUpAt: number | null = null;
      const hungUp = twilio.hungUp(sid).then(() => (hungUpAt = clock.now()));
      clock.advance(999);
      // A hang-up that did not wait for the goodbye to play would come now; nothing else here can be waited on.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(twilio.call(sid).updates).to.deep.equal([]);
      clock.advance(1);
      await hungUp;
      expect(hungUpAt).to.equal(1200);
      expect(peer.playedBytes()).to.equal(1600 + ms(1000));
      expect(peer.clearedBytes).to.equal(0);
      const row = await srv.drive(id);
      expect(row).to.include({ status: 'completed' });
      expect(row.transcript).to.equal(`Agent: ${HELLO}\nCallee: ${OPEN}\nAgent: ${GOODBYE}`);
    });

    it('is bounded: when the goodbye mark never comes back, the line is hung up its length and endGraceMs after it was sent', async () => {
      const clock = new ManualClock();
      const { id, sid, peer } = await call(script(ms(100)), { endGraceMs: 50 }, { playback: 'real-time', clock });
      await peer.until(() => peer.events('mark').length === 2);
      clock.advance(200);
      peer.speak(muLawTone(ms(200), 300));
      await twilio.hungUp(sid);
      expect(peer.echoed.map((m) => m.name)).to.not.include('end_call');
      expect(peer.mediaBytes).to.equal(1600 + ms(100));
      const row = await srv.drive(id);
      expect(row.transcript).to.equal(`Agent: ${HELLO}\nCallee: ${OPEN}\nAgent: ${GOODBYE}`);
    });
  });
});
