// Twilio's side of a transfer as values: the TwiML each step gives Twilio (escaped, in the call's language), and how
// the person's call went, read from its callbacks in the order the inbox keeps them.
import { expect } from 'chai';
import { coldTransferTwiml, conferenceTwiml, consultOutcome, consultTwiml, dialEndedTwiml, keyAnswerTwiml } from '../../../server/src/telephony/twilio/handover.js';
import type { TwilioLineEvent } from '../../../server/src/telephony/twilio/line-events.js';

const XML = '<?xml version="1.0" encoding="UTF-8"?>';
const status = (event: TwilioLineEvent['event']): TwilioLineEvent => ({ source: 'status', event });

describe("Twilio's side of a transfer", () => {
  it("dials a cold transfer's number from the call's caller id, its end going to the action", () => {
    expect(coldTransferTwiml('+14155550142', '+14155550100', 'https://svc.example/twilio/handover/c?a=1&b=2')).to.equal(
      `${XML}<Response><Dial callerId="+14155550100" timeout="20" action="https://svc.example/twilio/handover/c?a=1&amp;b=2" method="POST">+14155550142</Dial></Response>`,
    );
  });

  it("reads the person the briefing and the prompt in the call's language, escaped, and waits 8 s for a key", () => {
    expect(consultTwiml({ to: '+14155550142', briefing: 'Jane <Roe> & "Co" asked.', language: 'fr-FR' }, 'https://svc.example/twilio/handover/c')).to.equal(
      `${XML}<Response><Gather input="dtmf" numDigits="1" timeout="8" action="https://svc.example/twilio/handover/c" method="POST"><Say language="fr-FR">Jane &lt;Roe&gt; &amp; &quot;Co&quot; asked. Appuyez sur 1 pour prendre l&apos;appel.</Say></Gather><Hangup/></Response>`,
    );
  });

  it("joins 1 to the call's conference in silence, and ends the call on any other key", () => {
    const conference = `${XML}<Response><Dial><Conference beep="false" startConferenceOnEnter="true" endConferenceOnExit="true" waitUrl="">svc-c1</Conference></Dial></Response>`;
    expect(conferenceTwiml('c1')).to.equal(conference);
    expect(keyAnswerTwiml('1', 'c1')).to.equal(conference);
    for (const key of ['2', '#', '*', '0']) expect(keyAnswerTwiml(key, 'c1'), key).to.equal(`${XML}<Response><Hangup/></Response>`);
  });

  it("ends a cold transfer's call quietly once the two have talked, and with a word in the call's language when nobody took it", () => {
    expect(dialEndedTwiml('completed', 'de-DE')).to.equal(`${XML}<Response><Hangup/></Response>`);
    expect(dialEndedTwiml('answered', 'de-DE')).to.equal(`${XML}<Response><Hangup/></Response>`);
    for (const s of ['no-answer', 'busy', 'failed', 'canceled']) {
      expect(dialEndedTwiml(s, 'de-DE'), s).to.equal(`${XML}<Response><Say language="de-DE">Es tut mir leid, niemand konnte Ihren Anruf annehmen. Auf Wiederhören.</Say><Hangup/></Response>`);
    }
  });

  it("tells how the person's call went: the key takes it, an end before it does not, nothing yet is undecided", () => {
    const answered = status({ kind: 'answered', at: 1 });
    expect(consultOutcome([])).to.equal(null);
    expect(consultOutcome([answered])).to.equal(null);
    expect(consultOutcome([answered, { source: 'handover', event: { kind: 'answered', at: 2 } }])).to.equal('accepted');
    expect(consultOutcome([answered, status({ kind: 'hung_up', at: 2 })])).to.equal('declined');
    expect(consultOutcome([status({ kind: 'ended', at: 2, outcome: 'declined' })])).to.equal('declined');
    expect(consultOutcome([status({ kind: 'ended', at: 2, outcome: 'no_answer' })])).to.equal('no_answer');
    expect(consultOutcome([status({ kind: 'ended', at: 2, outcome: 'failed', error: 'carrier_unreachable' })])).to.equal('failed');
    // The key pressed, then the person hung up: they took it (whether they are still there is asked apart).
    expect(consultOutcome([answered, { source: 'handover', event: { kind: 'answered', at: 2 } }, status({ kind: 'hung_up', at: 3 })])).to.equal('accepted');
  });
});
