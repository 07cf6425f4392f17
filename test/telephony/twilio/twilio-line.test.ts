// Twilio's media stream as a live line: inbound messages become the listener's calls (key presses included),
// the line's calls become the stream's outbound messages, digits go out as their tones in 20 ms frames, and a
// transfer stops the call's recording and replaces its TwiML with a <Dial> from the call's caller id over REST.
import { expect } from 'chai';
import { pino } from 'pino';
import type { Kysely } from 'kysely';
import { dtmfTones } from '../../../server/src/tones/dtmf-tones.js';
import type { LineEnd, LineListener } from '../../../server/src/telephony/live-line.js';
import { parseTwilioMessage } from '../../../server/src/telephony/twilio/media-messages.js';
import { TwilioCarrier } from '../../../server/src/telephony/twilio/twilio-carrier.js';
import { deliver, TwilioLine } from '../../../server/src/telephony/twilio/twilio-line.js';
import { TwilioRest } from '../../../server/src/telephony/twilio/twilio-rest.js';
import type { Database } from '../../../server/src/store/schema.js';
import { FAKE_AUTH_TOKEN, FakeTwilio } from '../../support/fake-twilio.js';

const STREAM = 'MZ0123456789abcdef0123456789abcdef';

function recordingListener() {
  const heard: string[] = [];
  const listener: LineListener = {
    heard: (payload, ts) => void heard.push(`heard ${payload} at ${ts}`),
    marked: (name) => void heard.push(`marked ${name}`),
    dtmf: (digit) => void heard.push(`dtmf ${digit}`),
    ended: () => (heard.push('ended'), Promise.resolve<LineEnd>('line_ended')),
  };
  return { heard, listener };
}

function recordingLine() {
  const sent: Array<Record<string, unknown>> = [];
  const calls: string[] = [];
  const line = new TwilioLine({
    streamSid: STREAM,
    send: (data) => void sent.push(JSON.parse(data) as Record<string, unknown>),
    hangUp: async (reason) => void calls.push(`hangUp ${reason}`),
    transfer: async (to) => void calls.push(`transfer ${to}`),
    consult: () => ({ outcome: Promise.resolve('failed'), stillThere: async () => false, join: async () => undefined, release: async () => undefined }),
  });
  return { sent, calls, line };
}

describe('the Twilio line', () => {
  it('reads a dtmf message as Twilio sends it on a bidirectional stream, and drops one that carries no key', () => {
    const dtmf = (dtmf: unknown) => parseTwilioMessage(JSON.stringify({ event: 'dtmf', streamSid: STREAM, sequenceNumber: '5', dtmf }));
    expect(dtmf({ track: 'inbound_track', digit: '7' })).to.deep.equal({ event: 'dtmf', digit: '7' });
    expect(dtmf({ track: 'inbound_track', digit: '#' })).to.deep.equal({ event: 'dtmf', digit: '#' });
    expect(dtmf({ track: 'inbound_track', digit: '77' })).to.equal(null);
    expect(dtmf({ track: 'inbound_track' })).to.equal(null);
    expect(dtmf('7')).to.equal(null);
  });

  it('reads a media message as Twilio writes it exactly as the same message in any other form', () => {
    const payload = Buffer.alloc(160, 0x7e).toString('base64');
    const asSent = (timestamp: string, p = payload) =>
      `{"event":"media","sequenceNumber":"4","media":{"track":"inbound","chunk":"3","timestamp":"${timestamp}","payload":"${p}"},"streamSid":"${STREAM}"}`;
    const reordered = (text: string) => {
      const m = JSON.parse(text) as { media: Record<string, string> };
      return JSON.stringify({ streamSid: STREAM, media: { payload: m.media.payload, timestamp: m.media.timestamp, track: 'inbound' }, event: 'media' });
    };
    for (const text of [asSent('60'), asSent('0'), asSent('007'), asSent('1e999'), asSent('9'.repeat(400)), asSent('60', ''), asSent('60', 'fw=='), asSent('60', 'a\\/b')]) {
      expect(parseTwilioMessage(text), text).to.deep.equal(parseTwilioMessage(reordered(text)));
    }
    expect(parseTwilioMessage(asSent('60'))).to.deep.equal({ event: 'media', payload, timestampMs: 60 });
    expect(parseTwilioMessage(asSent('007'))).to.deep.equal({ event: 'media', payload, timestampMs: 7 });
    expect(parseTwilioMessage(asSent('60', 'a\\/b'))).to.deep.equal({ event: 'media', payload: 'a/b', timestampMs: 60 });
    expect(parseTwilioMessage(asSent('60').replace('"inbound"', '"outbound"'))).to.equal(null);
    expect(parseTwilioMessage(asSent('60').slice(0, -1))).to.equal(null);
  });

  it("hands the stream's media, marks, key presses and stop to the listener, in order", () => {
    const { heard, listener } = recordingListener();
    const messages = [
      { event: 'media', streamSid: STREAM, media: { track: 'inbound', chunk: '1', timestamp: '20', payload: 'AAAA' } },
      { event: 'mark', streamSid: STREAM, mark: { name: 'a1' } },
      { event: 'dtmf', streamSid: STREAM, dtmf: { track: 'inbound_track', digit: '3' } },
      { event: 'stop', streamSid: STREAM, stop: { accountSid: 'AC1', callSid: 'CA1' } },
    ];
    for (const m of messages) deliver(parseTwilioMessage(JSON.stringify(m))!, listener);
    expect(heard).to.deep.equal(['heard AAAA at 20', 'marked a1', 'dtmf 3', 'ended']);
  });

  it("sends the agent's audio, marks and clears as the stream's outbound messages", () => {
    const { sent, line } = recordingLine();
    line.play('//8=');
    line.mark('a1');
    line.clear();
    expect(sent).to.deep.equal([
      { event: 'media', streamSid: STREAM, media: { payload: '//8=' } },
      { event: 'mark', streamSid: STREAM, mark: { name: 'a1' } },
      { event: 'clear', streamSid: STREAM },
    ]);
  });

  it("plays digits as their tones, in 20 ms frames of the stream's audio", () => {
    const { sent, line } = recordingLine();
    line.sendDigits('19');
    expect(sent).to.have.length(20);
    expect(sent.every((m) => m.event === 'media' && m.streamSid === STREAM)).to.equal(true);
    const frames = sent.map((m) => Buffer.from((m.media as { payload: string }).payload, 'base64'));
    expect(frames.every((f) => f.length === 160)).to.equal(true);
    expect(Buffer.concat(frames).equals(dtmfTones('19'))).to.equal(true);
  });

  it('hangs up and transfers through what the bridge gave it', async () => {
    const { calls, line } = recordingLine();
    await line.hangUp('end_call');
    await line.transfer('+14155550199');
    expect(calls).to.deep.equal(['hangUp end_call', 'transfer +14155550199']);
  });

  describe('transfer on the carrier', () => {
    let fake: FakeTwilio;
    let carrier: TwilioCarrier;
    let sid: string;
    const logger = pino({ level: 'silent' });
    const call = () => ({ callId: '0198a1b2-0000-7000-8000-000000000001', callSid: sid, callerId: '+14155550100' });
    beforeEach(async () => {
      fake = await FakeTwilio.start();
      const rest = new TwilioRest({ accountSid: fake.accountSid, authToken: FAKE_AUTH_TOKEN, baseUrl: fake.baseUrl });
      // A cold transfer reads and writes nothing of the store.
      carrier = new TwilioCarrier({} as Kysely<Database>, { rest, publicBaseUrl: 'https://svc.example', mediaSecret: 's', timeLimitSec: 660, hangUp: async () => {} });
      sid = (await rest.createCall({ To: '+14155550123', From: '+14155550100', Twiml: '<Response/>', Record: 'true' })).sid;
      // Answered: Twilio's status is the fake's to keep (no callback to send here).
      fake.call(sid).status = 'in-progress';
    });
    afterEach(() => fake.close());

    it("stops the recording, then replaces the live call with a <Dial> to the number from the call's caller id, its end coming to the handover route, with Twilio's own time limit", async () => {
      await carrier.transfer(call(), '+14155550199', logger);
      expect(fake.call(sid).recordingStopped).to.equal(true);
      expect(fake.requests.slice(-2).map((r) => r.line)).to.deep.equal([
        `POST /2010-04-01/Accounts/${fake.accountSid}/Calls/${sid}/Recordings/Twilio.CURRENT.json`,
        `POST /2010-04-01/Accounts/${fake.accountSid}/Calls/${sid}.json`,
      ]);
      expect(fake.call(sid).updates).to.deep.equal([
        {
          Twiml:
            '<?xml version="1.0" encoding="UTF-8"?><Response><Dial callerId="+14155550100" timeout="20" action="https://svc.example/twilio/handover/0198a1b2-0000-7000-8000-000000000001" method="POST">+14155550199</Dial></Response>',
          TimeLimit: '14400',
        },
      ]);
    });

    it('refuses a number that is not E.164, asking Twilio nothing', async () => {
      const before = fake.requests.length;
      let error: unknown;
      await carrier.transfer(call(), 'sip:someone@example.com', logger).catch((err: unknown) => (error = err));
      expect(error).to.be.instanceOf(RangeError);
      expect(fake.requests.length).to.equal(before);
    });

    it("fails with Twilio's error when the call has ended meanwhile (no new TwiML for a call that is over)", async () => {
      fake.call(sid).status = 'completed';
      let error: Error | undefined;
      await carrier.transfer(call(), '+14155550199', logger).catch((err: Error) => (error = err));
      expect(error?.message).to.equal('Twilio answered 400 (code 21220): Call is not in-progress. Cannot redirect.');
      expect(fake.call(sid).updates).to.deep.equal([]);
    });

    it("still hands over a call whose recording Twilio will not stop, and fails with Twilio's error when the call is gone", async () => {
      const unrecorded = (
        await new TwilioRest({ accountSid: fake.accountSid, authToken: FAKE_AUTH_TOKEN, baseUrl: fake.baseUrl }).createCall({ To: '+14155550123', From: '+14155550100', Twiml: '<Response/>' })
      ).sid;
      await carrier.transfer({ ...call(), callSid: unrecorded }, '+14155550199', logger);
      expect(fake.call(unrecorded).updates).to.have.length(1);
      fake.failNextUpdate = { status: 404, code: 20404, message: 'The requested resource was not found' };
      let error: Error | undefined;
      await carrier.transfer(call(), '+14155550199', logger).catch((err: Error) => (error = err));
      expect(error?.message).to.equal('Twilio answered 404 (code 20404): The requested resource was not found');
    });
  });
});
