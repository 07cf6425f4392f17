// The LLM analyst's settings: SVC_ANALYST picks it (a model key alone turns it on), its key is required and never
// repeated in an error, and the engine's lease is long enough to hold a call through both analysis attempts.
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../server/src/config.js';

const KEY = 'sk-test-Mn4bV6cX8zL1kJ3hG5fD7sA9';

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('LLM analyst settings', () => {
  it('default to the rule-based analyst, with the OpenAI endpoint and model ready for SVC_ANALYST=openai', () => {
    const c = loadConfig({});
    expect({ analyst: c.analyst, llmBaseUrl: c.llmBaseUrl, llmApiKey: c.llmApiKey, llmModel: c.llmModel, llmTimeoutMs: c.llmTimeoutMs, engineLeaseMs: c.engineLeaseMs }).to.deep.equal({
      analyst: 'rule-based',
      llmBaseUrl: 'https://api.openai.com/v1',
      llmApiKey: null,
      llmModel: 'gpt-4o-mini',
      llmTimeoutMs: 30_000,
      engineLeaseMs: 30_000,
    });
  });

  it('SVC_ANALYST=openai reads the base URL (trailing slash dropped), key, model and timeout', () => {
    const c = loadConfig({ SVC_ANALYST: 'openai', SVC_LLM_BASE_URL: 'http://127.0.0.1:11434/v1/', SVC_LLM_API_KEY: ` ${KEY} `, SVC_LLM_MODEL: 'llama3.1', SVC_LLM_TIMEOUT_MS: '5000' });
    expect({ analyst: c.analyst, llmBaseUrl: c.llmBaseUrl, llmApiKey: c.llmApiKey, llmModel: c.llmModel, llmTimeoutMs: c.llmTimeoutMs }).to.deep.equal({
      analyst: 'openai',
      llmBaseUrl: 'http://127.0.0.1:11434/v1',
      llmApiKey: KEY,
      llmModel: 'llama3.1',
      llmTimeoutMs: 5000,
    });
  });

  it('a model key alone turns the LLM analyst on, with its lease', () => {
    const c = loadConfig({ SVC_LLM_API_KEY: KEY });
    expect({ analyst: c.analyst, llmApiKey: c.llmApiKey, engineLeaseMs: c.engineLeaseMs }).to.deep.equal({ analyst: 'openai', llmApiKey: KEY, engineLeaseMs: 70_000 });
    // A blank key is no key, and a blank SVC_ANALYST is no setting.
    expect(loadConfig({ SVC_LLM_API_KEY: '  ' }).analyst).to.equal('rule-based');
    expect(loadConfig({ SVC_LLM_API_KEY: KEY, SVC_ANALYST: ' ' }).analyst).to.equal('openai');
  });

  it('SVC_ANALYST=rule-based keeps the rule-based analyst and its lease even with a model key', () => {
    const c = loadConfig({ SVC_LLM_API_KEY: KEY, SVC_ANALYST: 'rule-based' });
    expect({ analyst: c.analyst, llmApiKey: c.llmApiKey, engineLeaseMs: c.engineLeaseMs }).to.deep.equal({ analyst: 'rule-based', llmApiKey: KEY, engineLeaseMs: 30_000 });
  });

  it("the realtime agent's key does not turn the LLM analyst on", () => {
    expect(loadConfig({ SVC_REALTIME_API_KEY: 'sk-realtime-0123456789' }).analyst).to.equal('rule-based');
  });

  it('SVC_ANALYST=openai without SVC_LLM_API_KEY is refused', () => {
    expect(configError({ SVC_ANALYST: 'openai' }).message).to.equal('SVC_LLM_API_KEY is required when SVC_ANALYST=openai (for a local model server that checks no key, any value)');
  });

  it('an unknown SVC_ANALYST is refused', () => {
    expect(configError({ SVC_ANALYST: 'gpt' }).message).to.equal('SVC_ANALYST must be rule-based or openai, got "gpt"');
  });

  it('a base URL that is not http(s), or carries credentials, is refused without repeating it', () => {
    for (const url of ['ftp://models.example/v1', 'not a url', `https://user:${KEY}@models.example/v1`]) {
      const err = configError({ SVC_ANALYST: 'openai', SVC_LLM_API_KEY: KEY, SVC_LLM_BASE_URL: url });
      expect(err.message).to.equal('SVC_LLM_BASE_URL must be an http or https URL without credentials, such as https://api.openai.com/v1');
    }
  });

  it('with SVC_ANALYST=openai the lease defaults to both attempts plus 10 s, and never below 30 s', () => {
    expect(loadConfig({ SVC_ANALYST: 'openai', SVC_LLM_API_KEY: KEY }).engineLeaseMs).to.equal(70_000);
    expect(loadConfig({ SVC_ANALYST: 'openai', SVC_LLM_API_KEY: KEY, SVC_LLM_TIMEOUT_MS: '45000' }).engineLeaseMs).to.equal(100_000);
    expect(loadConfig({ SVC_ANALYST: 'openai', SVC_LLM_API_KEY: KEY, SVC_LLM_TIMEOUT_MS: '5000' }).engineLeaseMs).to.equal(30_000);
    expect(loadConfig({ SVC_ANALYST: 'openai', SVC_LLM_API_KEY: KEY, SVC_ENGINE_LEASE_MS: '90000' }).engineLeaseMs).to.equal(90_000);
  });

  it('with SVC_ANALYST=openai a lease too short for both attempts is refused, without the key', () => {
    const err = configError({ SVC_ANALYST: 'openai', SVC_LLM_API_KEY: KEY, SVC_ENGINE_LEASE_MS: '30000' });
    expect(err.message).to.equal('SVC_ENGINE_LEASE_MS must be at least 70000 with SVC_ANALYST=openai (SVC_LLM_TIMEOUT_MS twice, plus 10 s), got 30000');
    expect(err.message).not.to.include(KEY);
  });
});
