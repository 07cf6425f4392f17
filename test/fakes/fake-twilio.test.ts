// The fake Twilio decides machine detection from the callee's greeting with Twilio's documented thresholds (the
// parameters the client sent on Create Call, Twilio's defaults otherwise), and numbers its status callbacks per
// call with SequenceNumber, delivering them out of order when asked. Driven over HTTP: a Create Call request as
// any client sends it, and a small server that receives the callbacks.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks.js';
import { amdSettings, decideAmd, FAKE_AUTH_TOKEN, FakeTwilio, type AmdSettings, type GreetingPart } from '../support/fake-twilio.js';

const DEFAULTS: AmdSettings = { mode: 'Enable', timeoutMs: 30_000, speechThresholdMs: 2400, speechEndThresholdMs: 1200, silenceTimeoutMs: 5000 };
const MESSAGE_END: AmdSettings = { ...DEFAULTS, mode: 'DetectMessageEnd' };

describe('fake Twilio', () => {
  describe('machine detection from the greeting', () => {
    const cases: Array<[string, AmdSettings, GreetingPart[], string, number]> = [
      ['a person saying "Hello?"', DEFAULTS, [{ silence: 400 }, { speech: 600 }], 'human', 2200],
      ['a business greeting of 3 s (a person: the false machine)', DEFAULTS, [{ speech: 3000 }], 'machine_start', 2400],
      ['speech joined across pauses shorter than the end threshold', DEFAULTS, [{ speech: 1000 }, { silence: 800 }, { speech: 1000 }], 'machine_start', 2400],
      ['two short phrases a long pause apart', DEFAULTS, [{ speech: 1000 }, { silence: 1200 }, { speech: 3000 }], 'human', 2200],
      ['nobody speaking', DEFAULTS, [], 'unknown', 5000],
      ['speech only after the silence timeout', DEFAULTS, [{ silence: 6000 }, { speech: 500 }], 'unknown', 5000],
      ['a person, with DetectMessageEnd: at once', MESSAGE_END, [{ speech: 700 }], 'human', 1900],
      ['a voicemail greeting ending in a beep', MESSAGE_END, [{ speech: 6000 }, { silence: 300 }, { beep: true }], 'machine_end_beep', 6300],
      ['a voicemail greeting ending in silence', MESSAGE_END, [{ speech: 6000 }], 'machine_end_silence', 7200],
      ['a greeting running past the timeout', MESSAGE_END, [{ speech: 40_000 }], 'machine_end_other', 30_000],
      ['a 3 s greeting with a higher speech threshold', { ...DEFAULTS, speechThresholdMs: 3500 }, [{ speech: 3000 }], 'human', 4200],
      ['a short silence timeout', { ...DEFAULTS, silenceTimeoutMs: 2000 }, [{ silence: 2500 }, { speech: 600 }], 'unknown', 2000],
      ['a long detection with a short timeout', { ...MESSAGE_END, timeoutMs: 5000 }, [{ speech: 6000 }, { beep: true }], 'machine_end_other', 5000],
    ];
    for (const [what, settings, greeting, answeredBy, atMs] of cases) {
      it(`${what}: ${answeredBy} at ${atMs} ms`, () => {
        expect(decideAmd(settings, greeting)).to.deep.equal({ answeredBy, atMs });
      });
    }

    it("reads the AMD parameters of the Create Call request, with Twilio's defaults for the rest", () => {
      expect(amdSettings({ To: ['+1'] })).to.equal(null);
      expect(amdSettings({ MachineDetection: ['Enable'] })).to.deep.equal(DEFAULTS);
      expect(
        amdSettings({
          MachineDetection: ['DetectMessageEnd'],
          MachineDetectionTimeout: ['45'],
          MachineDetectionSpeechThreshold: ['3000'],
          MachineDetectionSpeechEndThreshold: ['800'],
          MachineDetectionSilenceTimeout: ['3000'],
        }),
      ).to.deep.equal({ mode: 'DetectMessageEnd', timeoutMs: 45_000, speechThresholdMs: 3000, speechEndThresholdMs: 800, silenceTimeoutMs: 3000 });
    });
  });

  describe('callbacks', () => {
    let fake: FakeTwilio;
    let receiver: Server;
    let base: string;
    const got: Array<{ path: string; params: Record<string, string>; signature: string | undefined }> = [];

    beforeEach(async () => {
      fake = await FakeTwilio.start();
      got.length = 0;
      receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          got.push({ path: req.url ?? '', params: Object.fromEntries(new URLSearchParams(body)), signature: req.headers['x-twilio-signature'] as string | undefined });
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
      base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    });
    afterEach(async () => {
      await fake.close();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    });

    async function createCall(extra: Record<string, string> = {}): Promise<string> {
      const res = await fetch(`${fake.baseUrl}/2010-04-01/Accounts/${fake.accountSid}/Calls.json`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${fake.accountSid}:${FAKE_AUTH_TOKEN}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          To: '+14155550123',
          From: '+14155550100',
          Twiml: '<Response/>',
          StatusCallback: `${base}/status`,
          AsyncAmd: 'true',
          AsyncAmdStatusCallback: `${base}/amd`,
          ...extra,
        }).toString(),
      });
      expect(res.status).to.equal(201);
      return ((await res.json()) as { sid: string }).sid;
    }

    it('takes SendDigits of the keys Twilio presses, and refuses any other, or more than 32, with 400 21206 and no call', async () => {
      await createCall({ SendDigits: '0123456789ABCD*#wW' });
      await createCall({ SendDigits: '1'.repeat(32) });
      expect(fake.calls.map((c) => c.params.SendDigits)).to.deep.equal([['0123456789ABCD*#wW'], ['1'.repeat(32)]]);
      for (const digits of ['12x', '1,2', 'a', '1'.repeat(33), '']) {
        const res = await fetch(`${fake.baseUrl}/2010-04-01/Accounts/${fake.accountSid}/Calls.json`, {
          method: 'POST',
          headers: { authorization: `Basic ${Buffer.from(`${fake.accountSid}:${FAKE_AUTH_TOKEN}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ To: '+14155550123', From: '+14155550100', Twiml: '<Response/>', SendDigits: digits }).toString(),
        });
        expect(res.status, digits).to.equal(400);
        expect(await res.json()).to.deep.equal({ code: 21206, message: 'Invalid SendDigits', more_info: 'https://www.twilio.com/docs/errors/21206', status: 400 });
      }
      expect(fake.calls).to.have.length(2);
    });

    it("sends the verdict the call's own AMD settings give the greeting, signed, with its MachineDetectionDuration", async () => {
      const sid = await createCall({ MachineDetection: 'Enable' });
      const verdict = await fake.amdFromGreeting(sid, [{ speech: 3000 }]);
      expect(verdict).to.deep.include({ answeredBy: 'machine_start', atMs: 2400 });
      expect(verdict!.callback.status).to.equal(204);
      expect(got).to.have.length(1);
      expect(got[0].path).to.equal('/amd');
      expect(got[0].params).to.deep.equal({ AccountSid: fake.accountSid, CallSid: sid, AnsweredBy: 'machine_start', MachineDetectionDuration: '2400' });
      expect(got[0].signature).to.equal(getExpectedTwilioSignature(FAKE_AUTH_TOKEN, `${base}/amd`, got[0].params));

      // The same greeting, on a call whose client raised the speech threshold, is a person.
      const tuned = await createCall({ MachineDetection: 'Enable', MachineDetectionSpeechThreshold: '3500' });
      expect(await fake.amdFromGreeting(tuned, [{ speech: 3000 }])).to.deep.include({ answeredBy: 'human', atMs: 4200 });
      const message = await createCall({ MachineDetection: 'DetectMessageEnd' });
      expect(await fake.amdFromGreeting(message, [{ speech: 5000 }, { beep: true }])).to.deep.include({ answeredBy: 'machine_end_beep', atMs: 5000 });
    });

    it('sends no verdict for a call created without MachineDetection', async () => {
      const sid = await createCall();
      expect(await fake.amdFromGreeting(sid, [{ speech: 3000 }])).to.equal(null);
      expect(got).to.deep.equal([]);
    });

    it('numbers status callbacks per call from 0 in the order Twilio sent them, and delivers them in the order asked', async () => {
      const sid = await createCall();
      const results = await fake.statuses(sid, ['initiated', 'ringing', 'in-progress', 'completed'], [0, 1, 3, 2]);
      expect(results.map((r) => r.status)).to.deep.equal([204, 204, 204, 204]);
      expect(got.map((g) => [g.params.CallStatus, g.params.SequenceNumber])).to.deep.equal([
        ['initiated', '0'],
        ['ringing', '1'],
        ['completed', '3'],
        ['in-progress', '2'],
      ]);
      expect(got[2].params).to.include({ CallDuration: '42' });
      expect(got.every((g) => g.signature === getExpectedTwilioSignature(FAKE_AUTH_TOKEN, `${base}/status`, g.params))).to.equal(true);
      // The call stands as Twilio last reported it, whatever the delivery order.
      expect(fake.call(sid).status).to.equal('completed');
      // Another call counts from 0 again; status() goes on from where the call's sequence is.
      const other = await createCall();
      await fake.status(other, 'ringing');
      await fake.status(sid, 'completed');
      expect(got.slice(4).map((g) => [g.params.CallSid, g.params.SequenceNumber])).to.deep.equal([
        [other, '0'],
        [sid, '4'],
      ]);
    });
  });
});
