// Waiting on hold with the realtime agent on the Twilio carrier, against the fake Twilio (REST and media stream) and
// the fake realtime model, on both stores. Once the model calls wait_on_hold, none of the line's audio reaches the
// model: svc's own voice activity detection hears the hold music, which never wakes it, and a person's words, which
// go up from a second before the detector heard them. A recording heard on hold is waited through again, the hold going
// on from where it began. The wait is the agent's turn `[waiting on hold]` and the record's holdSec; a hold past the
// call's hold.maxWaitSec is hung up, and the call completes with endReason hold_timeout and a summary saying so.
import { expect } from 'chai';
import { HOLD_ANNOUNCEMENT } from '../../../server/src/conversation/sandbox-menus.js';
import { encodeMuLaw } from '../../../server/src/speech/audio.js';
import { holdMusic } from '../../../server/src/tones/hold-music.js';
import type { EngineServer } from '../../support/engine.js';
import { FakeMediaPeer, muLawTone } from '../../support/fake-media-peer.js';
import type { FakeRealtime, RealtimeStep } from '../../support/fake-realtime.js';
import { FakeTwilio } from '../../support/fake-twilio.js';
import { forEachStore } from '../../support/stores.js';
import { speak } from '../../voice-agent/cascaded/line-audio.js';
import { startRealtimeTwilio, type RealtimeTwilio } from './realtime-twilio.js';

const HELLO = 'Hello, thanks for holding, this is Sam.';
const REMINDER = 'Your call is important to us. Please continue to hold.';
const ANSWER = 'Hi Sam, I am an AI assistant calling about your shop.';
/** 8 kHz mu-law: 8 bytes a millisecond. */
const ms = (n: number) => n * 8;
const silence = (n: number) => muLawTone(ms(n), 0);
/** Words as the line carries them, and where the speech in them begins and ends (bytes). */
const spoken = async (text: string) => {
  const u = await speak(text);
  return { audio: encodeMuLaw(u.samples), startByte: ms(u.startMs), endByte: ms(u.endMs) };
};

forEachStore('waiting on hold with the realtime agent', (kind) => {
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

  async function call(script: RealtimeStep[], placed: Record<string, unknown> = {}) {
    h = await startRealtimeTwilio(kind, twilio, script, { bounds: {} });
    ({ srv, realtime, logs } = h);
    const { id, sid, url, token } = await h.placeCall(placed);
    await h.answer(sid, id);
    peer = await FakeMediaPeer.connect(url);
    peer.start({ callSid: sid, token });
    // The line is up for a while before it ends, on the engine's clock: its turns fall within the call.
    srv.clock.advance(120_000);
    return { id, sid, peer };
  }
  const conn = () => realtime.connections[0]!;
  /** The callee's audio the model was sent from the `from`-th client event on. */
  const sentUp = (from: number) =>
    Buffer.concat(
      conn()
        .received.slice(from)
        .filter((e) => e.type === 'input_audio_buffer.append')
        .map((e) => Buffer.from(String(e.audio), 'base64')),
    );
  const turnsOf = async (id: string) => (await h!.tenant.api.get(`/v1/agent/calls/${id}`)).body;

  it('sends the model none of the hold music, then the person’s words from just before they began, and answers them', async function () {
    // Seconds of hold music stream in real time; the suite's other files beside this one stretch them further.
    this.timeout(180_000);
    const { id, sid, peer } = await call(
      [{ callee: HOLD_ANNOUNCEMENT, afterBytes: ms(200) }, { call: 'wait_on_hold' }, { callee: HELLO, afterBytes: ms(3000) }, { agent: ANSWER, audioBytes: 1600 }, { endCall: true }],
      { hold: { maxWaitSec: 120 } },
    );
    peer.speak(silence(200));
    await realtime.until(() => realtime.connections[0]?.toolOutputs.length === 1);
    expect(conn().toolOutputs[0]!.output).to.equal('{"waiting":true}');
    const held = conn().received.length;
    // What the server had of the line is dropped, and the model is not asked to answer.
    expect(
      conn()
        .received.slice(-2)
        .map((e) => e.type),
    ).to.deep.equal(['input_audio_buffer.clear', 'conversation.item.create']);
    const hello = await spoken(HELLO);
    const music = holdMusic(0, ms(20_000));
    const line = Buffer.concat([music, hello.audio, silence(3000)]);
    peer.speak(line);
    await twilio.hungUp(sid);
    const up = sentUp(held);
    const firstUp = line.indexOf(up.subarray(0, ms(1000)));
    const speechAt = music.length + hello.startByte;
    // The first 19 s of music never went up; the person's words went up whole, from at most 1 s before them.
    expect(firstUp).to.be.within(speechAt - ms(1000), speechAt);
    expect(up.equals(line.subarray(firstUp, firstUp + up.length))).to.equal(true);
    expect(firstUp + up.length).to.be.at.least(music.length + hello.endByte);
    expect(
      conn()
        .received.slice(held)
        .filter((e) => e.type === 'response.create'),
    ).to.deep.equal([]);

    const row = await srv.drive(id);
    expect(row).to.include({ status: 'completed', end_reason: 'hung_up' });
    const record = await turnsOf(id);
    expect(record.transcript).to.equal(`Callee: ${HOLD_ANNOUNCEMENT}\nAgent: [waiting on hold]\nCallee: ${HELLO}\nAgent: ${ANSWER}`);
    const wait = record.turns[1];
    // From the model's wait_on_hold, 200 ms in, to the person's first word (the detector's start, within a frame or two).
    expect(wait.startSec).to.equal(0.2);
    expect(wait.endSec * 1000 - (200 + speechAt / 8)).to.be.within(-60, 60);
    expect(record.holdSec).to.equal(Math.round((wait.endSec - wait.startSec) * 1000) / 1000);
    // The person's turn is on the line's clock, not on the model's (which missed the music): after the wait.
    expect(record.turns[2].startSec).to.be.at.least(wait.endSec - 1);
  });

  it('waits through a recording heard on hold, the hold going on from when it began', async function () {
    this.timeout(180_000);
    const { id, sid, peer } = await call([
      { callee: HOLD_ANNOUNCEMENT, afterBytes: ms(200) },
      { call: 'wait_on_hold' },
      { callee: REMINDER, afterBytes: ms(3500) },
      { call: 'wait_on_hold' },
      // Counted from the reminder's turn: the line's audio sent up after it until the model waits again, and then
      // the person's words; heard in the silence after them.
      { callee: HELLO, afterBytes: ms(12_000) },
      { agent: ANSWER, audioBytes: 1600 },
      { endCall: true },
    ]);
    peer.speak(silence(200));
    await realtime.until(() => realtime.connections[0]?.toolOutputs.length === 1);
    const reminder = await spoken(REMINDER);
    peer.speak(Buffer.concat([holdMusic(0, ms(10_000)), reminder.audio, silence(3500)]));
    await realtime.until(() => realtime.connections[0]?.toolOutputs.length === 2);
    const heldAgain = conn().received.length;
    const hello = await spoken(HELLO);
    const music = holdMusic(0, ms(10_000));
    const line = Buffer.concat([music, hello.audio, silence(12_000)]);
    peer.speak(line);
    await twilio.hungUp(sid);
    const up = sentUp(heldAgain);
    expect(up.length).to.be.greaterThan(ms(1000));
    expect(line.indexOf(up.subarray(0, ms(1000)))).to.be.within(music.length + hello.startByte - ms(1000), music.length + hello.startByte);

    await srv.drive(id);
    const record = await turnsOf(id);
    expect(record.transcript).to.equal(`Callee: ${HOLD_ANNOUNCEMENT}\nAgent: [waiting on hold]\nCallee: ${REMINDER}\nCallee: ${HELLO}\nAgent: ${ANSWER}`);
    const wait = record.turns[1];
    expect(wait.startSec).to.equal(0.2);
    // One wait, through the reminder, to the person.
    expect(wait.endSec).to.be.greaterThan(record.turns[3].startSec - 1.1);
    expect(record.holdSec).to.be.greaterThan(20);
    expect(record.endReason).to.equal('hung_up');
  });

  it('hangs up once the hold outlasts hold.maxWaitSec: completed, hold_timeout, the summary saying so, nothing sent up meanwhile', async () => {
    const { id, sid, peer } = await call([{ callee: HOLD_ANNOUNCEMENT, afterBytes: ms(200) }, { call: 'wait_on_hold' }, { agent: 'Never said.' }], { hold: { maxWaitSec: 5 } });
    peer.speak(silence(200));
    await realtime.until(() => realtime.connections[0]?.toolOutputs.length === 1);
    peer.speak(holdMusic(0, ms(6000)));
    await twilio.hungUp(sid);
    expect(twilio.call(sid).updates).to.deep.equal([{ Status: 'completed' }]);
    expect(conn().appendedBytes).to.equal(ms(200));
    const ended = logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'media stream ended');
    expect(ended?.reason).to.equal('hold_timeout');

    const row = await srv.drive(id);
    expect(row).to.include({ status: 'completed', end_reason: 'hold_timeout', error: null });
    expect(row.hold_timed_out_at).to.be.a('number');
    const record = await turnsOf(id);
    expect(record).to.deep.include({ status: 'completed', endReason: 'hold_timeout', holdSec: 5, hold: { maxWaitSec: 5 } });
    expect(record.turns.map((t: { text: string }) => t.text)).to.deep.equal([HOLD_ANNOUNCEMENT, '[waiting on hold]']);
    expect(record.turns[1]).to.deep.include({ startSec: 0.2, endSec: 5.2 });
    expect(record.summary).to.equal(
      'Objective: Ask whether the shop is open on Sunday. The call was ended after waiting on hold for longer than its hold limit (hold.maxWaitSec); the agent asked 0 of 1 questions and got 0 answers. Not asked before the call ended: whether the shop is open on Sunday.',
    );
  });
});
