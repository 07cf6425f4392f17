// SVC_AGENT=realtime and its settings: validated at start, the key never repeated, the agent composed from them.
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../server/src/config.js';
import { isLive } from '../../../server/src/conversation/agent.js';
import { defaultEngineParts } from '../../../server/src/engine/default-engine.js';
import type { Store } from '../../../server/src/store/store.js';

const KEY = 'sk-realtime-secret-do-not-print';
const TWILIO = { SVC_CARRIER: 'twilio', TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`, TWILIO_AUTH_TOKEN: 'twilio-token', SVC_PUBLIC_BASE_URL: 'https://svc.example.com' };

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('no ConfigError');
}

describe('realtime agent settings', () => {
  it('default to the scripted agent and OpenAI’s realtime endpoint, its GA interface and GA model', () => {
    expect(loadConfig({})).to.include({ agent: 'scripted', realtimeUrl: 'wss://api.openai.com/v1/realtime', realtimeModel: 'gpt-realtime', realtimeProtocol: 'ga', realtimeApiKey: null });
  });

  it('take turn-taking settings, with the tested defaults for a handset, refusing values out of range', () => {
    expect(loadConfig({}).realtimeTurnTaking).to.deep.equal({
      mode: 'server_vad',
      threshold: 0.6,
      prefixPaddingMs: 300,
      silenceDurationMs: 500,
      eagerness: 'low',
      noiseReduction: 'near_field',
      interruptAfterMs: 400,
      greetAfterMs: 1000,
    });
    const env = {
      SVC_REALTIME_TURN_DETECTION: 'semantic_vad',
      SVC_REALTIME_VAD_EAGERNESS: 'medium',
      SVC_REALTIME_NOISE_REDUCTION: 'far_field',
      SVC_REALTIME_INTERRUPT_MIN_MS: '0',
      SVC_REALTIME_VAD_THRESHOLD: '0.8',
      SVC_REALTIME_VAD_SILENCE_MS: '700',
      SVC_REALTIME_VAD_PREFIX_PADDING_MS: '200',
      SVC_REALTIME_GREET_AFTER_MS: '0',
    };
    expect(loadConfig(env).realtimeTurnTaking).to.deep.equal({
      mode: 'semantic_vad',
      threshold: 0.8,
      prefixPaddingMs: 200,
      silenceDurationMs: 700,
      eagerness: 'medium',
      noiseReduction: 'far_field',
      interruptAfterMs: 0,
      greetAfterMs: 0,
    });
    expect(configError({ SVC_REALTIME_TURN_DETECTION: 'vad' })).to.equal('SVC_REALTIME_TURN_DETECTION must be one of server_vad, semantic_vad, got "vad"');
    expect(configError({ SVC_REALTIME_VAD_THRESHOLD: '1.5' })).to.equal('SVC_REALTIME_VAD_THRESHOLD must be a number from 0 to 1, got "1.5"');
    expect(configError({ SVC_REALTIME_GREET_AFTER_MS: '20000' })).to.equal('SVC_REALTIME_GREET_AFTER_MS must be a whole number from 0 to 10000, got "20000"');
    expect(configError({ SVC_REALTIME_INTERRUPT_MIN_MS: '-1' })).to.equal('SVC_REALTIME_INTERRUPT_MIN_MS must be a whole number from 0 to 3000, got "-1"');
  });

  it('take the internal URL, this process on its port by default', () => {
    expect(loadConfig({ PORT: '9090' }).internalUrl).to.equal('http://127.0.0.1:9090');
    expect(loadConfig({ SVC_INTERNAL_URL: 'http://10.0.0.5:8080/' }).internalUrl).to.equal('http://10.0.0.5:8080');
    expect(configError({ SVC_INTERNAL_URL: 'ws://10.0.0.5' })).to.equal(
      'SVC_INTERNAL_URL must be an http or https URL without credentials or query, such as http://10.0.0.5:8080, got "ws://10.0.0.5"',
    );
  });

  it('speak the beta interface when told to, with the beta preview model unless one is named', () => {
    expect(loadConfig({ SVC_REALTIME_PROTOCOL: 'beta' })).to.include({ realtimeProtocol: 'beta', realtimeModel: 'gpt-4o-realtime-preview' });
    expect(loadConfig({ SVC_REALTIME_PROTOCOL: 'beta', SVC_REALTIME_MODEL: 'my-model' })).to.include({ realtimeProtocol: 'beta', realtimeModel: 'my-model' });
    expect(configError({ SVC_REALTIME_PROTOCOL: 'v2' })).to.equal('SVC_REALTIME_PROTOCOL must be ga or beta, got "v2"');
  });

  it('take the URL, the model and the key', () => {
    const config = loadConfig({ ...TWILIO, SVC_AGENT: 'realtime', SVC_REALTIME_URL: 'ws://127.0.0.1:9000/v1/realtime', SVC_REALTIME_MODEL: 'local-model', SVC_REALTIME_API_KEY: KEY });
    expect(config).to.include({ agent: 'realtime', realtimeUrl: 'ws://127.0.0.1:9000/v1/realtime', realtimeModel: 'local-model', realtimeApiKey: KEY });
  });

  it('refuse an unknown agent, a missing key, a sandbox line and a URL that is not ws, without repeating the key', () => {
    expect(configError({ SVC_AGENT: 'gpt' })).to.equal('SVC_AGENT must be scripted, realtime or cascaded, got "gpt"');
    expect(configError({ ...TWILIO, SVC_AGENT: 'realtime' })).to.equal('SVC_REALTIME_API_KEY is required when SVC_AGENT=realtime (for a local server that checks no key, any value)');
    expect(configError({ SVC_AGENT: 'realtime', SVC_REALTIME_API_KEY: KEY })).to.equal('SVC_AGENT=realtime needs a real line: set SVC_CARRIER=twilio');
    for (const url of ['https://api.openai.com/v1/realtime', `wss://user:${KEY}@example.com/rt`, `wss://example.com/rt?key=${KEY}`, 'not a url']) {
      const message = configError({ ...TWILIO, SVC_AGENT: 'realtime', SVC_REALTIME_API_KEY: KEY, SVC_REALTIME_URL: url });
      expect(message).to.equal('SVC_REALTIME_URL must be a ws or wss URL without credentials or query, such as wss://api.openai.com/v1/realtime');
    }
  });

  it('keep the maximum call duration within the model’s 60-minute session, less the ringing', () => {
    const live = { ...TWILIO, SVC_AGENT: 'realtime', SVC_REALTIME_API_KEY: KEY };
    expect(loadConfig(live).maxCallDurationSec).to.equal(600);
    expect(loadConfig({ ...live, SVC_MAX_CALL_DURATION_SEC: '3480' }).maxCallDurationSec).to.equal(3480);
    for (const max of ['3481', '3600', '7200']) {
      expect(configError({ ...live, SVC_MAX_CALL_DURATION_SEC: max })).to.equal(
        `SVC_MAX_CALL_DURATION_SEC must be at most 3480 with SVC_AGENT=realtime (the realtime model ends its session 60 minutes after it opens, up to 120 s before the answer), got ${max}`,
      );
    }
    // The scripted agent has no session to outlive.
    expect(loadConfig({ SVC_MAX_CALL_DURATION_SEC: '7200' }).maxCallDurationSec).to.equal(7200);
  });

  it('make the engine’s agent the live realtime agent', () => {
    const config = loadConfig({ ...TWILIO, SVC_AGENT: 'realtime', SVC_REALTIME_API_KEY: KEY });
    const { agent } = defaultEngineParts(config, { db: {} } as Store);
    expect(agent.name).to.equal('realtime');
    expect(isLive(agent)).to.equal(true);
    expect(isLive(defaultEngineParts(loadConfig({}), { db: {} } as Store).agent)).to.equal(false);
  });
});
