import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../server/src/config.js';
import { parseRetryAfter } from '../../server/src/jobs/backoff.js';
import { DEFAULT_RETRY_SCHEDULE_SEC, nextRetryDelayMs, parseRetrySchedule } from '../../server/src/settings/retry-schedule.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('webhook retry schedule', () => {
  it('defaults to at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect(DEFAULT_RETRY_SCHEDULE_SEC).to.deep.equal([0, 5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(loadConfig({}).webhookRetrySchedule).to.deep.equal([0, 5, 300, 1800, 7200, 18000, 36000, 36000]);
  });

  it('gives the next step after n failed attempts, and null once all attempts are used', () => {
    const mid = () => 0.5;
    expect([1, 2, 7].map((n) => nextRetryDelayMs(DEFAULT_RETRY_SCHEDULE_SEC, n, mid))).to.deep.equal([5000, 300_000, 36_000_000]);
    expect(nextRetryDelayMs(DEFAULT_RETRY_SCHEDULE_SEC, 8, mid)).to.equal(null);
  });

  it('spreads each step over ±20% with the injected randomness', () => {
    expect(nextRetryDelayMs(DEFAULT_RETRY_SCHEDULE_SEC, 2, () => 0)).to.equal(240_000);
    expect(nextRetryDelayMs(DEFAULT_RETRY_SCHEDULE_SEC, 2, () => 0.75)).to.equal(330_000);
    expect(nextRetryDelayMs(DEFAULT_RETRY_SCHEDULE_SEC, 2, () => 0.9999999)).to.equal(360_000);
    expect(nextRetryDelayMs([0, 0], 1, () => 0.9)).to.equal(0);
  });

  it('reads SVC_WEBHOOK_RETRY_SCHEDULE as comma-separated seconds', () => {
    expect(loadConfig({ SVC_WEBHOOK_RETRY_SCHEDULE: '0, 1,60' }).webhookRetrySchedule).to.deep.equal([0, 1, 60]);
    expect(parseRetrySchedule('0')).to.deep.equal([0]);
  });

  for (const [raw, message] of [
    ['5,10', 'SVC_WEBHOOK_RETRY_SCHEDULE must start with 0 (the first attempt is at once), got "5,10"'],
    ['0,5m', 'SVC_WEBHOOK_RETRY_SCHEDULE must be comma-separated whole seconds, like "0,5,300", got "0,5m"'],
    ['0,,5', 'SVC_WEBHOOK_RETRY_SCHEDULE must be comma-separated whole seconds, like "0,5,300", got "0,,5"'],
    ['0,-5', 'SVC_WEBHOOK_RETRY_SCHEDULE must be comma-separated whole seconds, like "0,5,300", got "0,-5"'],
    [Array(51).fill('0').join(','), 'SVC_WEBHOOK_RETRY_SCHEDULE allows at most 50 attempts, got 51'],
  ]) {
    it(`rejects SVC_WEBHOOK_RETRY_SCHEDULE="${raw.slice(0, 12)}" with a ConfigError`, () => {
      expect(() => loadConfig({ SVC_WEBHOOK_RETRY_SCHEDULE: raw })).to.throw(ConfigError, message);
    });
  }
});

describe('Retry-After', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('120', NOW)).to.equal(120_000);
    expect(parseRetryAfter(' 0 ', NOW)).to.equal(0);
  });
  it('reads an HTTP date, a past one as 0', () => {
    expect(parseRetryAfter(new Date(NOW + 90_000).toUTCString(), NOW)).to.equal(90_000);
    expect(parseRetryAfter(new Date(NOW - 90_000).toUTCString(), NOW)).to.equal(0);
  });
  it('caps a wait at 24 hours', () => {
    expect(parseRetryAfter('999999', NOW)).to.equal(24 * 3600_000);
  });
  it('ignores an absent or unreadable value', () => {
    expect(parseRetryAfter(undefined, NOW)).to.equal(null);
    expect(parseRetryAfter('soon', NOW)).to.equal(null);
    expect(parseRetryAfter('-5', NOW)).to.equal(null);
    expect(parseRetryAfter('1.5', NOW)).to.equal(null);
  });
});

describe('webhook settings', () => {
  it('default to a 15 s timeout and a 24 h rotation overlap, no fixed dev secret', () => {
    expect(loadConfig({})).to.include({ webhookTimeoutMs: 15000, webhookSecretOverlapSec: 86400, devWebhookSecret: null });
  });
  it('read SVC_WEBHOOK_TIMEOUT_MS and SVC_WEBHOOK_SECRET_OVERLAP_SEC', () => {
    expect(loadConfig({ SVC_WEBHOOK_TIMEOUT_MS: '250', SVC_WEBHOOK_SECRET_OVERLAP_SEC: '60' })).to.include({ webhookTimeoutMs: 250, webhookSecretOverlapSec: 60 });
    expect(() => loadConfig({ SVC_WEBHOOK_TIMEOUT_MS: '0' })).to.throw(ConfigError, 'SVC_WEBHOOK_TIMEOUT_MS must be an integer of at least 1, got "0"');
  });
  it('rejects a malformed SVC_DEV_WEBHOOK_SECRET without repeating it', () => {
    const secret = 'whsec_tooShortButSecret';
    const err = (() => {
      try {
        loadConfig({ SVC_DEV_WEBHOOK_SECRET: secret });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err).to.be.instanceOf(ConfigError);
    expect(err!.message).to.equal('SVC_DEV_WEBHOOK_SECRET must look like whsec_<at least 32 letters, digits, _, -, +, / or =>');
    expect(err!.message).not.to.include('tooShortButSecret');
  });
});
