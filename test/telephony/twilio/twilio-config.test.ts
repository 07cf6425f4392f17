// The Twilio carrier's settings: SVC_CARRIER picks it, the account SID, auth token and a public address are
// required with it, the auth token is never repeated in an error, and it is refused with the scripted agent,
// which cannot talk on a real line.
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../server/src/config.js';

const SID = `AC${'a1b2c3d4'.repeat(4)}`;
const TOKEN = 'tw-secret-9f8e7d6c5b4a39281706';
const TWILIO = {
  SVC_CARRIER: 'twilio',
  TWILIO_ACCOUNT_SID: SID,
  TWILIO_AUTH_TOKEN: TOKEN,
  SVC_PUBLIC_BASE_URL: 'https://svc.example.com',
  SVC_AGENT: 'realtime',
  SVC_REALTIME_API_KEY: 'sk-realtime-test-0123456789',
};

function configError(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    expect((err as Error).message).to.not.include(TOKEN);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('Twilio carrier settings', () => {
  it('default to the sandbox carrier, with the Twilio API root ready for SVC_CARRIER=twilio', () => {
    const c = loadConfig({});
    expect({ carrier: c.carrier, sid: c.twilioAccountSid, token: c.twilioAuthToken, api: c.twilioApiBaseUrl }).to.deep.equal({
      carrier: 'sandbox',
      sid: null,
      token: null,
      api: 'https://api.twilio.com',
    });
  });

  it('SVC_CARRIER=twilio reads the SID, the token and the API root (trailing slash dropped)', () => {
    const c = loadConfig({ ...TWILIO, SVC_TWILIO_API_BASE_URL: 'http://127.0.0.1:3999/', NODE_ENV: 'production' });
    expect({ carrier: c.carrier, sid: c.twilioAccountSid, token: c.twilioAuthToken, api: c.twilioApiBaseUrl }).to.deep.equal({
      carrier: 'twilio',
      sid: SID,
      token: TOKEN,
      api: 'http://127.0.0.1:3999',
    });
  });

  it('rejects an unknown carrier', () => {
    expect(configError({ SVC_CARRIER: 'vonage' })).to.equal('SVC_CARRIER must be sandbox or twilio, got "vonage"');
  });

  it('requires a well-formed account SID and the auth token with SVC_CARRIER=twilio', () => {
    expect(configError({ ...TWILIO, TWILIO_ACCOUNT_SID: '' })).to.equal('TWILIO_ACCOUNT_SID must be your account SID (AC followed by 32 hex digits) when SVC_CARRIER=twilio');
    expect(configError({ ...TWILIO, TWILIO_ACCOUNT_SID: TOKEN })).to.equal('TWILIO_ACCOUNT_SID must be your account SID (AC followed by 32 hex digits) when SVC_CARRIER=twilio');
    expect(configError({ ...TWILIO, TWILIO_AUTH_TOKEN: ' ' })).to.equal('TWILIO_AUTH_TOKEN is required when SVC_CARRIER=twilio');
  });

  it('requires a public base URL Twilio can reach, https in production', () => {
    expect(configError({ ...TWILIO, SVC_PUBLIC_BASE_URL: '' })).to.equal('SVC_PUBLIC_BASE_URL is required when SVC_CARRIER=twilio: the address Twilio sends callbacks and the media stream to');
    expect(configError({ ...TWILIO, SVC_PUBLIC_BASE_URL: 'http://svc.example.com', NODE_ENV: 'production' })).to.equal(
      'SVC_PUBLIC_BASE_URL must be https:// in production with SVC_CARRIER=twilio (Twilio streams media only over wss)',
    );
    expect(loadConfig({ ...TWILIO, SVC_PUBLIC_BASE_URL: 'http://127.0.0.1:8080' }).publicBaseUrl).to.equal('http://127.0.0.1:8080');
  });

  it('rejects an API root with credentials, a path or another scheme, without repeating it', () => {
    for (const url of [`https://${SID}:${TOKEN}@api.twilio.com`, 'https://api.twilio.com/2010-04-01', 'ftp://api.twilio.com', 'api.twilio.com']) {
      expect(configError({ ...TWILIO, SVC_TWILIO_API_BASE_URL: url }), url).to.equal(
        'SVC_TWILIO_API_BASE_URL must be an http or https origin without credentials or path, such as https://api.twilio.com',
      );
    }
  });

  it('refuses the Twilio carrier with the scripted agent, asking for SVC_AGENT=realtime', () => {
    for (const agent of [{}, { SVC_AGENT: 'scripted' }]) {
      expect(configError({ ...TWILIO, SVC_AGENT: undefined, ...agent })).to.equal('SVC_CARRIER=twilio needs a live agent: set SVC_AGENT=realtime or cascaded');
    }
  });
});
