import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import Stripe from 'stripe';
import { sign, signatureHeader } from '../../server/src/webhooks/signature.js';

const stripe = new Stripe('sk_test_x');
const body = '{"event":"call.completed","eventId":"c1:call.completed:1700000000000"}';
const secret = 'whsec_test_secret_one';
const other = 'whsec_test_secret_two';

describe('webhook signature', () => {
  it('is t=<seconds>,v1=<lowercase hex HMAC-SHA256 of "<t>.<body>">', () => {
    const expected = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
    expect(signatureHeader(body, [secret], 1700000000)).to.equal(`t=1700000000,v1=${expected}`);
    expect(sign(body, secret, 1700000000)).to.equal(expected);
    expect(expected).to.match(/^[0-9a-f]{64}$/);
  });

  it('carries one v1 per secret, newest first', () => {
    const h = signatureHeader(body, [secret, other], 1700000000);
    expect(h).to.equal(`t=1700000000,v1=${sign(body, secret, 1700000000)},v1=${sign(body, other, 1700000000)}`);
  });

  it('floors a fractional timestamp to whole seconds', () => {
    expect(signatureHeader(body, [secret], 1700000000.9)).to.equal(signatureHeader(body, [secret], 1700000000));
  });

  it('verifies with the official stripe package, with each secret of a rotation', () => {
    const now = Math.floor(Date.now() / 1000);
    const h = signatureHeader(body, [secret, other], now);
    expect(stripe.webhooks.constructEvent(body, h, secret)).to.deep.equal(JSON.parse(body));
    expect(stripe.webhooks.constructEvent(body, h, other)).to.deep.equal(JSON.parse(body));
  });

  it('is rejected by stripe for another secret or a changed body', () => {
    const now = Math.floor(Date.now() / 1000);
    const h = signatureHeader(body, [secret], now);
    expect(() => stripe.webhooks.constructEvent(body, h, other)).to.throw(/No signatures found matching/);
    expect(() => stripe.webhooks.constructEvent(`${body} `, h, secret)).to.throw(/No signatures found matching/);
  });

  it('refuses to sign with no secret', () => {
    expect(() => signatureHeader(body, [], 1)).to.throw('signatureHeader needs at least one secret');
  });
});
