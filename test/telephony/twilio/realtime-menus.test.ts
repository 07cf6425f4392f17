// A phone menu with the realtime agent on the Twilio carrier, against the fake Twilio and the fake realtime model, on
// both stores. The fake model calls press_keys; the keys go out as tones on the stream, and the test's side of the
// line is the sandbox's key menu (conversation/sandbox-menus.ts) fed what a DTMF receiver hears in the media Twilio
// got: a wrong key has the menu say so and repeat, the right ones put the call through to a person. The model is
// never asked to speak over the menu: its keys and its keep_listening are answered without a response.create, and
// it answers the menu's next prompt, or the person, when they have spoken.
import { expect } from 'chai';
import { CONNECTING, menuPrompt, KEY_MENU, SandboxMenu } from '../../../server/src/conversation/sandbox-menus.js';
import { decodeDtmf } from '../../../server/src/telephony/dtmf-decoder.js';
import type { EngineServer } from '../../support/engine.js';
import { FakeMediaPeer, muLawTone } from '../../support/fake-media-peer.js';
import type { FakeRealtime, RealtimeStep } from '../../support/fake-realtime.js';
import { FakeTwilio } from '../../support/fake-twilio.js';
import { forEachStore } from '../../support/stores.js';
import { startRealtimeTwilio, type RealtimeTwilio } from './realtime-twilio.js';

const PERSON = 'Deliveries, this is Dana speaking.';
const ANSWER = 'Hi Dana, I am an AI assistant calling about an order.';
const ms = (n: number) => n * 8;
const silence = (n: number) => muLawTone(ms(n), 0);
const NOT_VALID = `Sorry, that is not a valid choice. ${menuPrompt(KEY_MENU, 'keys')}`;
const DELIVERIES = menuPrompt(KEY_MENU.options[1]!.next!, 'keys');

forEachStore('a phone menu with the realtime agent', (kind) => {
  let twilio: FakeTwilio;
  let h: RealtimeTwilio | undefined;
  let realtime: FakeRealtime;
  let srv: EngineServer;
  let peer: FakeMediaPeer | null = null;

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

  const conn = () => realtime.connections[0]!;
  /** The agent's audio Twilio got, from byte `from`. */
  const media = (p: FakeMediaPeer, from = 0) => Buffer.concat(p.events('media').map((m) => Buffer.from(String((m.media as { payload: string }).payload), 'base64'))).subarray(from);
  /** The client events after the latest function output, but the callee's audio. */
  const sinceLastOutput = () => {
    const received = conn().received;
    let at = received.length - 1;
    while (at >= 0 && !(received[at]!.type === 'conversation.item.create' && (received[at]!.item as { type: string }).type === 'function_call_output')) at--;
    return received.slice(at + 1).filter((e) => e.type !== 'input_audio_buffer.append');
  };

  it('presses keys the menu hears as tones, never talks over it, is put through after a wrong key and two right ones, and answers the person', async () => {
    // Each prompt is a callee turn once the line has spoken for its length (200 ms of the stream here).
    const script: RealtimeStep[] = [
      { callee: 'Thank you for calling Northwind.', afterBytes: ms(200) },
      { call: 'keep_listening' },
      { callee: menuPrompt(KEY_MENU, 'keys').replace('Thank you for calling Northwind. ', ''), afterBytes: ms(200) },
      { call: 'press_keys', arguments: { digits: '9' } },
      { callee: NOT_VALID, afterBytes: ms(200) },
      { call: 'press_keys', arguments: { digits: '2' } },
      { callee: DELIVERIES, afterBytes: ms(200) },
      { call: 'press_keys', arguments: { digits: '1' } },
      { callee: CONNECTING, afterBytes: ms(200) },
      { call: 'keep_listening' },
      { callee: PERSON, afterBytes: ms(200) },
      { agent: ANSWER, audioBytes: 1600 },
      { endCall: true },
    ];
    h = await startRealtimeTwilio(kind, twilio, script, { bounds: { greetAfterMs: 60_000 } });
    ({ srv, realtime } = h);
    const { id, sid, url, token } = await h.placeCall({ to: '+14155550125', objective: 'Ask when my delivery will arrive.' });
    await h.answer(sid, id);
    peer = await FakeMediaPeer.connect(url);
    peer.start({ callSid: sid, token });
    srv.clock.advance(60_000);
    const menu = new SandboxMenu('keys');
    const answered = (n: number) => realtime.until(() => realtime.connections[0]?.toolOutputs.length === n);

    // The greeting, then the menu's first sentence: the model keeps listening, asked nothing more.
    peer.speak(silence(200));
    await answered(1);
    expect(conn().toolOutputs[0]!.output).to.equal('{"listening":true}');
    expect(sinceLastOutput()).to.deep.equal([]);

    // The options; the model presses a wrong key; the menu hears it in the media and says so, then the options again.
    let heard = 0;
    const keysHeard = async (n: number) => {
      await answered(n);
      const keys = decodeDtmf(media(peer!, heard)).filter((k) => k.key !== '?');
      heard = peer!.mediaBytes;
      expect(sinceLastOutput(), 'nothing asked of the model after its keys').to.deep.equal([]);
      return keys.map((k) => k.key);
    };
    peer.speak(silence(200));
    expect(await keysHeard(2)).to.deep.equal(['9']);
    expect(conn().toolOutputs[1]!.output).to.equal('{"sent":"9"}');
    expect(menu.pressed('9').say).to.equal(NOT_VALID);
    peer.speak(silence(200));
    expect(await keysHeard(3)).to.deep.equal(['2']);
    expect(menu.pressed('2').say).to.equal(DELIVERIES);
    peer.speak(silence(200));
    expect(await keysHeard(4)).to.deep.equal(['1']);
    expect(menu.pressed('1')).to.deep.equal({ say: CONNECTING, connected: true });
    // Put through: the model keeps listening until the person speaks, then answers them and says goodbye.
    peer.speak(silence(200));
    await answered(5);
    expect(sinceLastOutput()).to.deep.equal([]);
    expect(peer.mediaBytes).to.equal(heard);
    peer.speak(silence(200));
    await twilio.hungUp(sid);

    // svc asked for no response at all: the server's own turn detection answered each turn of the menu, with a
    // tool alone, and the person's.
    expect(conn().received.filter((e) => e.type === 'response.create')).to.have.length(0);
    await srv.drive(id);
    const record = (await h.tenant.api.get(`/v1/agent/calls/${id}`)).body;
    expect(record.transcript.split('\n')).to.deep.equal([
      'Callee: Thank you for calling Northwind.',
      `Callee: ${menuPrompt(KEY_MENU, 'keys').replace('Thank you for calling Northwind. ', '')}`,
      'Agent: [pressed 9]',
      `Callee: ${NOT_VALID}`,
      'Agent: [pressed 2]',
      `Callee: ${DELIVERIES}`,
      'Agent: [pressed 1]',
      `Callee: ${CONNECTING}`,
      `Callee: ${PERSON}`,
      `Agent: ${ANSWER}`,
    ]);
    expect(record).to.include({ status: 'completed', holdSec: 0, endReason: 'hung_up' });
  });
});
