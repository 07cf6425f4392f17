// SVC_AGENT=cascaded and its settings as loadConfig reads them from the environment: wholly offline on the sandbox
// by default, its providers named and keyed on a real line, the sandbox's own providers refused there, the
// sandbox's time kept near real time for its audio, and no key ever repeated in a refusal.
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../server/src/config.js';
import { isLive } from '../../../server/src/conversation/agent.js';
import { defaultEngineParts } from '../../../server/src/engine/default-engine.js';
import type { Store } from '../../../server/src/store/store.js';
import { joinsLines } from '../../../server/src/telephony/live-line.js';

const TOKEN = 'tw-secret-4c1d9e7a0b3f5e62';
const STT_KEY = 'dg-secret-5a8e2c90d17b';
const LLM_KEY = 'sk-chat-secret-71f04be9';
const ANALYST_KEY = 'sk-analyst-secret-2d6c8a13';
const TTS_KEY = 'sk-voice-secret-e3b95f02';
const SECRETS = [TOKEN, STT_KEY, LLM_KEY, ANALYST_KEY, TTS_KEY];
const TWILIO = { SVC_CARRIER: 'twilio', TWILIO_ACCOUNT_SID: `AC${'a1b2c3d4'.repeat(4)}`, TWILIO_AUTH_TOKEN: TOKEN, SVC_PUBLIC_BASE_URL: 'https://svc.example.com' };
/** A real line's cascaded agent with every provider named and keyed. */
const LIVE = {
  ...TWILIO,
  SVC_AGENT: 'cascaded',
  SVC_STT: 'deepgram',
  SVC_STT_API_KEY: STT_KEY,
  SVC_AGENT_LLM: 'openai',
  SVC_AGENT_LLM_API_KEY: LLM_KEY,
  SVC_TTS: 'openai',
  SVC_TTS_API_KEY: TTS_KEY,
};

function configError(env: Record<string, string | undefined>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    const message = (err as Error).message;
    for (const secret of SECRETS) expect(message).not.to.include(secret);
    return message;
  }
  throw new Error('no ConfigError');
}

describe('cascaded agent settings', () => {
  it('run wholly offline on the sandbox by default: the oracle recogniser, the scripted model and espeak-ng', () => {
    const config = loadConfig({ SVC_AGENT: 'cascaded' });
    expect(config).to.include({ agent: 'cascaded', carrier: 'sandbox' });
    expect(config.cascaded).to.deep.equal({
      stt: 'oracle',
      sttUrl: null,
      sttApiKey: null,
      sttModel: null,
      tts: 'espeak',
      ttsUrl: null,
      ttsApiKey: null,
      ttsVoice: null,
      llm: 'scripted',
      llmBaseUrl: 'https://api.openai.com/v1',
      llmApiKey: null,
      llmModel: 'gpt-4o-mini',
      endpointSilenceMs: 700,
      interruptAfterMs: 300,
    });
    expect(loadConfig({}).cascaded).to.equal(null);
  });

  it('keep the sandbox within five times real time, since its line carries audio at the call’s pace', () => {
    for (const scale of ['0.1', '0.19', '0.001']) {
      expect(configError({ SVC_AGENT: 'cascaded', SVC_SANDBOX_TIME_SCALE: scale })).to.equal(
        `SVC_SANDBOX_TIME_SCALE must be at least 0.2 with SVC_AGENT=cascaded (its sandbox line carries audio at the call's pace), got ${Number(scale)}`,
      );
    }
    expect(loadConfig({ SVC_AGENT: 'cascaded', SVC_SANDBOX_TIME_SCALE: '0.2' }).sandboxTimeScale).to.equal(0.2);
    // The scripted agent's sandbox has no audio to keep pace with, and a real line has no sandbox time.
    expect(loadConfig({ SVC_SANDBOX_TIME_SCALE: '0.001' }).sandboxTimeScale).to.equal(0.001);
    expect(loadConfig({ ...LIVE, SVC_SANDBOX_TIME_SCALE: '0.001' }).agent).to.equal('cascaded');
  });

  it('take a real line’s providers, their addresses (trailing slashes dropped), model, voice and bounds', () => {
    const config = loadConfig({
      ...LIVE,
      SVC_STT_URL: 'wss://stt.example.com/v1/listen/',
      SVC_STT_MODEL: 'nova-3-general',
      SVC_AGENT_LLM_BASE_URL: 'http://127.0.0.1:8000/v1/',
      SVC_AGENT_LLM_MODEL: 'llama-3.1-8b',
      SVC_TTS: 'elevenlabs',
      SVC_TTS_URL: 'wss://tts.example.com/v1',
      SVC_TTS_VOICE: 'JBFqnCBsd6RMkjVDRZzb',
      SVC_AGENT_ENDPOINT_MS: '500',
      SVC_AGENT_INTERRUPT_MIN_MS: '0',
    });
    expect(config).to.include({ agent: 'cascaded', carrier: 'twilio', realtimeApiKey: null });
    expect(config.cascaded).to.deep.equal({
      stt: 'deepgram',
      sttUrl: 'wss://stt.example.com/v1/listen',
      sttApiKey: STT_KEY,
      sttModel: 'nova-3-general',
      tts: 'elevenlabs',
      ttsUrl: 'wss://tts.example.com/v1',
      ttsApiKey: TTS_KEY,
      ttsVoice: 'JBFqnCBsd6RMkjVDRZzb',
      llm: 'openai',
      llmBaseUrl: 'http://127.0.0.1:8000/v1',
      llmApiKey: LLM_KEY,
      llmModel: 'llama-3.1-8b',
      endpointSilenceMs: 500,
      interruptAfterMs: 0,
    });
  });

  it('on a real line default to Deepgram and an OpenAI-compatible model, which fall back to the analyst’s SVC_LLM_* settings', () => {
    const env = { ...TWILIO, SVC_AGENT: 'cascaded', SVC_STT_API_KEY: STT_KEY, SVC_LLM_BASE_URL: 'https://llm.example.com/v1', SVC_LLM_API_KEY: ANALYST_KEY, SVC_LLM_MODEL: 'gpt-4.1-mini' };
    expect(loadConfig(env).cascaded).to.deep.include({ stt: 'deepgram', tts: 'espeak', llm: 'openai', llmBaseUrl: 'https://llm.example.com/v1', llmApiKey: ANALYST_KEY, llmModel: 'gpt-4.1-mini' });
    // The agent's own settings win over the analyst's.
    expect(loadConfig({ ...env, SVC_AGENT_LLM_API_KEY: LLM_KEY, SVC_AGENT_LLM_MODEL: 'gpt-4o' }).cascaded).to.deep.include({ llmApiKey: LLM_KEY, llmModel: 'gpt-4o' });
    // On the sandbox, a model address names a real model too.
    expect(configError({ SVC_AGENT: 'cascaded', SVC_AGENT_LLM_BASE_URL: 'http://127.0.0.1:8000/v1' })).to.equal(
      'SVC_AGENT_LLM_API_KEY (or SVC_LLM_API_KEY) is required for the chat model (for a local server that checks no key, any value)',
    );
  });

  it('refuse the sandbox’s oracle recogniser and scripted model on a real line', () => {
    expect(configError({ ...LIVE, SVC_STT: 'oracle' })).to.equal('SVC_STT=oracle only hears the sandbox; on a real line choose deepgram, openai or pocketsphinx');
    expect(configError({ ...LIVE, SVC_AGENT_LLM: 'scripted' })).to.equal('SVC_AGENT_LLM=scripted only talks to the sandbox; on a real line use an OpenAI-compatible model (SVC_AGENT_LLM_BASE_URL)');
  });

  it('refuse a named provider without its key', () => {
    expect(configError({ ...LIVE, SVC_STT_API_KEY: undefined })).to.equal('SVC_STT_API_KEY is required with SVC_STT=deepgram');
    expect(configError({ ...LIVE, SVC_STT: 'openai', SVC_STT_API_KEY: ' ' })).to.equal('SVC_STT_API_KEY is required with SVC_STT=openai');
    expect(configError({ ...LIVE, SVC_AGENT_LLM_API_KEY: undefined })).to.equal(
      'SVC_AGENT_LLM_API_KEY (or SVC_LLM_API_KEY) is required for the chat model (for a local server that checks no key, any value)',
    );
    for (const tts of ['openai', 'elevenlabs']) expect(configError({ ...LIVE, SVC_TTS: tts, SVC_TTS_API_KEY: undefined })).to.equal(`SVC_TTS_API_KEY is required with SVC_TTS=${tts}`);
    // The offline voice needs none.
    expect(loadConfig({ ...LIVE, SVC_TTS: 'espeak', SVC_TTS_API_KEY: undefined }).cascaded).to.deep.include({ tts: 'espeak', ttsApiKey: null });
  });

  it('refuse unknown providers, bounds out of range and addresses of the wrong kind or carrying credentials, repeating no key', () => {
    expect(configError({ ...LIVE, SVC_STT: 'whisper' })).to.equal('SVC_STT must be one of oracle, deepgram, openai, pocketsphinx, got "whisper"');
    expect(configError({ ...LIVE, SVC_TTS: 'polly' })).to.equal('SVC_TTS must be one of espeak, openai, elevenlabs, got "polly"');
    expect(configError({ ...LIVE, SVC_AGENT_LLM: 'anthropic' })).to.equal('SVC_AGENT_LLM must be one of scripted, openai, got "anthropic"');
    expect(configError({ ...LIVE, SVC_AGENT_ENDPOINT_MS: '50' })).to.equal('SVC_AGENT_ENDPOINT_MS must be a whole number from 100 to 5000, got "50"');
    expect(configError({ ...LIVE, SVC_AGENT_INTERRUPT_MIN_MS: '3001' })).to.equal('SVC_AGENT_INTERRUPT_MIN_MS must be a whole number from 0 to 3000, got "3001"');
    for (const url of ['https://stt.example.com/v1/listen', `wss://user:${STT_KEY}@stt.example.com/v1/listen`, 'not a url']) {
      expect(configError({ ...LIVE, SVC_STT_URL: url })).to.equal('SVC_STT_URL must be a ws or wss URL without credentials');
    }
    expect(configError({ ...LIVE, SVC_TTS_URL: `https://key:${TTS_KEY}@tts.example.com/v1` })).to.equal('SVC_TTS_URL must be a http or https URL without credentials');
    expect(configError({ ...LIVE, SVC_TTS: 'elevenlabs', SVC_TTS_URL: 'https://api.elevenlabs.io/v1' })).to.equal('SVC_TTS_URL must be a ws or wss URL without credentials');
    expect(configError({ ...LIVE, SVC_AGENT_LLM_BASE_URL: `https://me:${LLM_KEY}@llm.example.com/v1` })).to.equal('SVC_AGENT_LLM_BASE_URL must be a http or https URL without credentials');
  });

  it('make the engine’s agent the cascaded agent, live and joining lines, on a real line as on the sandbox', () => {
    for (const env of [LIVE, { ...LIVE, SVC_TTS: 'elevenlabs' }, { SVC_AGENT: 'cascaded' }]) {
      const { agent } = defaultEngineParts(loadConfig(env), { db: {} } as Store);
      expect(agent.name).to.equal('cascaded');
      expect(isLive(agent)).to.equal(true);
      expect(joinsLines(agent)).to.equal(true);
    }
  });
});
