import { expect } from 'chai';
import { checkWebhookUrl } from '../../server/src/placement/webhook-url.js';
import { ACCEPTED_WEBHOOK_URLS, REJECTED_WEBHOOK_URLS } from './webhook-url-cases.js';

const strict = { allowPrivate: false };
const relaxed = { allowPrivate: true };

describe('checkWebhookUrl', () => {
  for (const [url, what, message] of REJECTED_WEBHOOK_URLS) {
    it(`rejects ${what} (${url})`, () => {
      expect(checkWebhookUrl(url, strict)).to.equal(message);
    });
  }

  for (const [url, what] of ACCEPTED_WEBHOOK_URLS) {
    it(`accepts ${what} (${url})`, () => {
      expect(checkWebhookUrl(url, strict)).to.equal(null);
    });
  }

  describe('with allowPrivate (SVC_WEBHOOK_ALLOW_PRIVATE)', () => {
    for (const url of ['http://127.0.0.1:9999/h', 'https://localhost/h', 'https://intranet/h', 'http://[::1]:8080/h']) {
      it(`accepts ${url}`, () => {
        expect(checkWebhookUrl(url, relaxed)).to.equal(null);
      });
    }

    it('still rejects credentials', () => {
      expect(checkWebhookUrl('http://user:pw@127.0.0.1:9999/h', relaxed)).to.equal('webhookUrl must not contain credentials.');
    });

    it('still rejects a scheme other than http and https', () => {
      expect(checkWebhookUrl('ftp://127.0.0.1/h', relaxed)).to.equal('webhookUrl must use https.');
    });
  });
});
