import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { verifyToolRequest, verifyWebhook, WebhookVerificationError, type CallEvent, type ToolRequest, type WebhookVerificationReason } from '../../sdk/src/index.js';
import { signatureHeader } from '../../server/src/webhooks/signature.js';

const stripe = new Stripe('sk_test_unused');
const SECRET = 'whsec_current_secret_0123456789abcdef';
const OLD_SECRET = 'whsec_previous_secret_0123456789abcd';
const T = 1_795_000_000; // the header's timestamp, in seconds
const NOW = T * 1000; // the receiver's clock, in milliseconds

const event: CallEvent = {
  event: 'call.completed',
  eventId: '6f1c2a1e-8a4f-4b8e-9a57-3b1f0c2d4e5f:call.completed:1795000000000',
  timestamp: '2026-11-18T08:26:40.000Z',
  callId: '6f1c2a1e-8a4f-4b8e-9a57-3b1f0c2d4e5f',
  status: 'completed',
  to: '+14155550123',
  objective: 'Ask whether the shop is open on Sunday',
  startedAt: '2026-11-18T08:25:00.000Z',
  endedAt: '2026-11-18T08:26:40.000Z',
  durationSec: 100,
  summary: 'Open on Sunday until five.',
  extracted: { open_sunday: true, closes_at: '17:00' },
  error: null,
  answeredBy: 'human',
  metadata: { order: 'A-17' },
  nextCallId: null,
};
const body = JSON.stringify(event);

/** The reason verifyWebhook throws with; fails the test when it returns or throws anything else. */
function reasonOf(run: () => unknown): { reason: WebhookVerificationReason; message: string } {
  try {
    run();
  } catch (e) {
    expect(e).to.be.instanceOf(WebhookVerificationError);
    const { reason, message } = e as WebhookVerificationError;
    expect(message).to.not.include(SECRET);
    return { reason, message };
  }
  return expect.fail('expected verifyWebhook to throw');
}

describe('verifyWebhook', () => {
  describe('accepts', () => {
    it('a header made by the server’s dispatcher signer, returning the typed event', () => {
      const verified = verifyWebhook(body, signatureHeader(body, [SECRET], T), SECRET, { now: NOW });
      expect(verified).to.deep.equal(event);
      if (verified.event === 'call.completed') expect(verified.extracted).to.deep.equal({ open_sunday: true, closes_at: '17:00' });
    });

    it('a header made by the stripe package', () => {
      const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET, timestamp: T });
      expect(verifyWebhook(body, header, SECRET, { now: NOW })).to.deep.equal(event);
    });

    it('the body as a Buffer, or as a Uint8Array view into a larger buffer', () => {
      const header = signatureHeader(body, [SECRET], T);
      expect(verifyWebhook(Buffer.from(body), header, SECRET, { now: NOW }).eventId).to.equal(event.eventId);
      const padded = Buffer.from(`xx${body}yy`);
      const view = new Uint8Array(padded.buffer, padded.byteOffset + 2, padded.length - 4);
      expect(verifyWebhook(view, header, SECRET, { now: NOW }).eventId).to.equal(event.eventId);
    });

    it('a non-ASCII body, verified on its UTF-8 bytes', () => {
      const text = JSON.stringify({ ...event, summary: 'Öffnet am Sonntag — bis 17 Uhr ✓' });
      expect(verifyWebhook(Buffer.from(text, 'utf8'), signatureHeader(text, [SECRET], T), SECRET, { now: NOW }).summary).to.equal('Öffnet am Sonntag — bis 17 Uhr ✓');
    });

    it('during a rotation, a header with a v1 per secret, by either secret alone', () => {
      const header = signatureHeader(body, [SECRET, OLD_SECRET], T);
      expect(verifyWebhook(body, header, SECRET, { now: NOW }).event).to.equal('call.completed');
      expect(verifyWebhook(body, header, OLD_SECRET, { now: NOW }).event).to.equal('call.completed');
    });

    it('a list of secrets, when any of them signed', () => {
      const header = signatureHeader(body, [OLD_SECRET], T);
      expect(verifyWebhook(body, header, [SECRET, OLD_SECRET], { now: NOW }).event).to.equal('call.completed');
    });

    it('a timestamp exactly toleranceSec old or ahead', () => {
      const header = signatureHeader(body, [SECRET], T);
      expect(verifyWebhook(body, header, SECRET, { now: NOW + 300_000 }).event).to.equal('call.completed');
      expect(verifyWebhook(body, header, SECRET, { now: NOW - 300_000 }).event).to.equal('call.completed');
      expect(verifyWebhook(body, header, SECRET, { now: new Date(NOW + 999) }).event).to.equal('call.completed');
    });

    it('unknown schemes beside v1, and the header as an array of values', () => {
      const v1 = signatureHeader(body, [SECRET], T).split(',')[1];
      expect(verifyWebhook(body, `t=${T}, v0=deadbeef, ${v1}`, SECRET, { now: NOW }).event).to.equal('call.completed');
      expect(verifyWebhook(body, [`t=${T}`, v1], SECRET, { now: NOW }).event).to.equal('call.completed');
    });
  });

  describe('rejects', () => {
    const header = signatureHeader(body, [SECRET], T);

    it('a parsed object in place of the raw body with body_not_raw, saying what to pass', () => {
      const { reason, message } = reasonOf(() => verifyWebhook(JSON.parse(body), header, SECRET, { now: NOW }));
      expect(reason).to.equal('body_not_raw');
      expect(message).to.include('pass the raw request body, not the parsed JSON');
      expect(reasonOf(() => verifyWebhook(undefined as never, header, SECRET)).reason).to.equal('body_not_raw');
    });

    it('a missing or empty header with missing_header', () => {
      expect(reasonOf(() => verifyWebhook(body, undefined, SECRET, { now: NOW })).reason).to.equal('missing_header');
      expect(reasonOf(() => verifyWebhook(body, ' ', SECRET, { now: NOW })).reason).to.equal('missing_header');
    });

    for (const [what, value] of [
      ['no timestamp', `v1=${'a'.repeat(64)}`],
      ['a timestamp that is not digits', `t=12e3,v1=${'a'.repeat(64)}`],
      ['two timestamps', `t=${T},t=${T + 1},v1=${'a'.repeat(64)}`],
      ['an item without =', `t=${T},v1`],
      ['free text', 'sha256=whatever'],
    ]) {
      it(`a header with ${what} with malformed_header`, () => {
        expect(reasonOf(() => verifyWebhook(body, value, SECRET, { now: NOW })).reason).to.equal('malformed_header');
      });
    }

    it('a header with a timestamp but no v1 with no_signature', () => {
      expect(reasonOf(() => verifyWebhook(body, `t=${T}`, SECRET, { now: NOW })).reason).to.equal('no_signature');
      expect(reasonOf(() => verifyWebhook(body, `t=${T},v0=${'a'.repeat(64)}`, SECRET, { now: NOW })).reason).to.equal('no_signature');
    });

    it('the wrong secret with signature_mismatch', () => {
      expect(reasonOf(() => verifyWebhook(body, header, 'whsec_someone_else', { now: NOW })).reason).to.equal('signature_mismatch');
    });

    it('re-serialised JSON with signature_mismatch, telling the user to pass the raw body', () => {
      const { reason, message } = reasonOf(() => verifyWebhook(JSON.stringify(JSON.parse(body), null, 2), header, SECRET, { now: NOW }));
      expect(reason).to.equal('signature_mismatch');
      expect(message).to.include('the raw request body');
    });

    it('a body changed by one byte, a shortened signature and a signature over another timestamp with signature_mismatch', () => {
      const v1 = header.split('v1=')[1];
      expect(reasonOf(() => verifyWebhook(body.replace('true', 'fals'), header, SECRET, { now: NOW })).reason).to.equal('signature_mismatch');
      expect(reasonOf(() => verifyWebhook(body, `t=${T},v1=${v1.slice(0, 63)}`, SECRET, { now: NOW })).reason).to.equal('signature_mismatch');
      expect(reasonOf(() => verifyWebhook(body, `t=${T + 1},v1=${v1}`, SECRET, { now: NOW })).reason).to.equal('signature_mismatch');
    });

    it('a timestamp more than toleranceSec old with timestamp_too_old', () => {
      const { reason, message } = reasonOf(() => verifyWebhook(body, header, SECRET, { now: NOW + 301_000 }));
      expect(reason).to.equal('timestamp_too_old');
      expect(message).to.equal("The signature is 301 s old, more than the 300 s tolerance: a replayed request, or this server's clock is wrong.");
    });

    it('a timestamp more than toleranceSec ahead with timestamp_in_future', () => {
      expect(reasonOf(() => verifyWebhook(body, header, SECRET, { now: NOW - 301_000 })).reason).to.equal('timestamp_in_future');
    });

    it('honours a custom toleranceSec', () => {
      expect(reasonOf(() => verifyWebhook(body, header, SECRET, { now: NOW + 11_000, toleranceSec: 10 })).reason).to.equal('timestamp_too_old');
      expect(verifyWebhook(body, header, SECRET, { now: NOW + 10_000, toleranceSec: 10 }).event).to.equal('call.completed');
    });

    it('checks the signature before the timestamp: a forged old request is a signature_mismatch', () => {
      expect(reasonOf(() => verifyWebhook(body, header, 'whsec_someone_else', { now: NOW + 3_600_000 })).reason).to.equal('signature_mismatch');
    });

    it('a correctly signed body that is not a JSON event object with invalid_json', () => {
      for (const text of ['not json', '[1,2]', '"call.completed"', '{"eventId":"x"}']) {
        expect(reasonOf(() => verifyWebhook(text, signatureHeader(text, [SECRET], T), SECRET, { now: NOW })).reason).to.equal('invalid_json');
      }
      const badUtf8 = Buffer.from([0x7b, 0xff, 0x7d]);
      const v1 = createHmac('sha256', SECRET)
        .update(Buffer.concat([Buffer.from(`${T}.`), badUtf8]))
        .digest('hex');
      expect(reasonOf(() => verifyWebhook(badUtf8, `t=${T},v1=${v1}`, SECRET, { now: NOW })).reason).to.equal('invalid_json');
    });

    const signers = {
      'the dispatcher signer': (payload: string, secret: string, t: number) => signatureHeader(payload, [secret], t),
      'the stripe package': (payload: string, secret: string, t: number) => stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: t }),
    };
    for (const [who, sign] of Object.entries(signers)) {
      it(`a header from ${who} with the reason that fits: stale, early, wrong secret, other body`, () => {
        const reason = (run: () => unknown) => reasonOf(run).reason;
        expect(reason(() => verifyWebhook(body, sign(body, SECRET, T - 301), SECRET, { now: NOW }))).to.equal('timestamp_too_old');
        expect(reason(() => verifyWebhook(body, sign(body, SECRET, T + 301), SECRET, { now: NOW }))).to.equal('timestamp_in_future');
        expect(reason(() => verifyWebhook(body, sign(body, OLD_SECRET, T), SECRET, { now: NOW }))).to.equal('signature_mismatch');
        expect(reason(() => verifyWebhook(`${body} `, sign(body, SECRET, T), SECRET, { now: NOW }))).to.equal('signature_mismatch');
        expect(verifyWebhook(body, sign(body, SECRET, T - 300), SECRET, { now: NOW }).eventId).to.equal(event.eventId);
      });
    }

    it('a call without a secret with a TypeError, as a programming error', () => {
      expect(() => verifyWebhook(body, header, '', { now: NOW })).to.throw(TypeError, 'verifyWebhook needs the webhook signing secret');
      expect(() => verifyWebhook(body, header, [], { now: NOW })).to.throw(TypeError);
    });
  });
});

describe('verifyToolRequest', () => {
  const request: ToolRequest = { event: 'tool.call', callId: event.callId, tool: 'check_stock', arguments: { sku: 'blue-1' }, metadata: { order: 'A-17' } };
  const raw = JSON.stringify(request);

  it('accepts a tool request signed as webhooks are, returning it typed; verifyWebhook accepts the same bytes', () => {
    const header = signatureHeader(raw, [SECRET, OLD_SECRET], T);
    expect(verifyToolRequest(raw, header, SECRET, { now: NOW })).to.deep.equal(request);
    expect(verifyToolRequest(Buffer.from(raw), header, [OLD_SECRET], { now: NOW })).to.deep.equal(request);
    expect(verifyWebhook(raw, header, SECRET, { now: NOW })).to.deep.equal(request);
  });

  it('refuses what is not a tool request, and checks the signature and the time as verifyWebhook does', () => {
    const reason = (run: () => unknown) => reasonOf(run).reason;
    expect(reasonOf(() => verifyToolRequest(body, signatureHeader(body, [SECRET], T), SECRET, { now: NOW }))).to.deep.equal({
      reason: 'invalid_json',
      message: 'The signed body is not a JSON tool request (its `event` is not "tool.call").',
    });
    expect(reason(() => verifyToolRequest(raw, signatureHeader(raw, [OLD_SECRET], T), SECRET, { now: NOW }))).to.equal('signature_mismatch');
    expect(reason(() => verifyToolRequest(raw, signatureHeader(raw, [SECRET], T - 301), SECRET, { now: NOW }))).to.equal('timestamp_too_old');
    expect(reason(() => verifyToolRequest(JSON.parse(raw), signatureHeader(raw, [SECRET], T), SECRET, { now: NOW }))).to.equal('body_not_raw');
  });
});
