// The cascaded agent's settings (SVC_AGENT=cascaded), read from the environment as plain data: which recogniser,
// chat model and voice, where each lives, and svc's own turn-taking bounds. A value out of range, or a choice that
// cannot work (the sandbox's oracle recogniser on a real line), is refused at start. Keys are secrets: no message
// here repeats one.

export type SttChoice = 'oracle' | 'deepgram' | 'openai' | 'pocketsphinx';
export type TtsChoice = 'espeak' | 'openai' | 'elevenlabs';
export type ChatChoice = 'scripted' | 'openai';

export interface CascadedConfig {
  stt: SttChoice;
  sttUrl: string | null;
  sttApiKey: string | null;
  sttModel: string | null;
  tts: TtsChoice;
  ttsUrl: string | null;
  ttsApiKey: string | null;
  ttsVoice: string | null;
  /** The chat model: the sandbox's scripted agent behind the port, or an OpenAI-compatible server. */
  llm: ChatChoice;
  llmBaseUrl: string;
  llmApiKey: string | null;
  llmModel: string;
  /** Silence after the callee's speech that ends their turn (ms). */
  endpointSilenceMs: number;
  /** How long the callee's speech must last to cut the agent off (ms). */
  interruptAfterMs: number;
}

export class CascadedConfigError extends Error {}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const v = env[name]?.trim();
  if (!v) return fallback;
  if (!(allowed as readonly string[]).includes(v)) throw new CascadedConfigError(`${name} must be one of ${allowed.join(', ')}, got "${v}"`);
  return v as T;
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const v = env[name]?.trim();
  if (!v) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new CascadedConfigError(`${name} must be a whole number from ${min} to ${max}, got "${v}"`);
  return n;
}

function url(env: NodeJS.ProcessEnv, name: string, protocols: readonly string[]): string | null {
  const v = env[name]?.trim();
  if (!v) return null;
  const u = URL.canParse(v) ? new URL(v) : null;
  if (!u || !protocols.includes(u.protocol) || u.username || u.password) {
    throw new CascadedConfigError(`${name} must be a ${protocols.map((p) => p.replace(':', '')).join(' or ')} URL without credentials`);
  }
  return v.replace(/\/+$/, '');
}

const secret = (env: NodeJS.ProcessEnv, name: string) => env[name]?.trim() || null;

/**
 * The cascaded agent's settings. On the sandbox every provider defaults to the offline one (the oracle, the scripted
 * model, espeak-ng); on a real line the recogniser and the chat model must be named (the oracle only knows the
 * sandbox's callee, the scripted model only its script).
 */
export function parseCascaded(env: NodeJS.ProcessEnv, carrier: 'sandbox' | 'twilio'): CascadedConfig {
  const real = carrier !== 'sandbox';
  const stt = oneOf<SttChoice>(env, 'SVC_STT', ['oracle', 'deepgram', 'openai', 'pocketsphinx'], real ? 'deepgram' : 'oracle');
  if (real && stt === 'oracle') throw new CascadedConfigError('SVC_STT=oracle only hears the sandbox; on a real line choose deepgram, openai or pocketsphinx');
  const sttApiKey = secret(env, 'SVC_STT_API_KEY');
  if ((stt === 'deepgram' || stt === 'openai') && !sttApiKey) throw new CascadedConfigError(`SVC_STT_API_KEY is required with SVC_STT=${stt}`);
  const tts = oneOf<TtsChoice>(env, 'SVC_TTS', ['espeak', 'openai', 'elevenlabs'], 'espeak');
  const ttsApiKey = secret(env, 'SVC_TTS_API_KEY');
  if (tts !== 'espeak' && !ttsApiKey) throw new CascadedConfigError(`SVC_TTS_API_KEY is required with SVC_TTS=${tts}`);
  const llmBaseUrl = url(env, 'SVC_AGENT_LLM_BASE_URL', ['http:', 'https:']) ?? url(env, 'SVC_LLM_BASE_URL', ['http:', 'https:']);
  const llm = oneOf<ChatChoice>(env, 'SVC_AGENT_LLM', ['scripted', 'openai'], real || llmBaseUrl !== null ? 'openai' : 'scripted');
  if (real && llm === 'scripted') throw new CascadedConfigError('SVC_AGENT_LLM=scripted only talks to the sandbox; on a real line use an OpenAI-compatible model (SVC_AGENT_LLM_BASE_URL)');
  const llmApiKey = secret(env, 'SVC_AGENT_LLM_API_KEY') ?? secret(env, 'SVC_LLM_API_KEY');
  if (llm === 'openai' && !llmApiKey) throw new CascadedConfigError('SVC_AGENT_LLM_API_KEY (or SVC_LLM_API_KEY) is required for the chat model (for a local server that checks no key, any value)');
  return {
    stt,
    sttUrl: url(env, 'SVC_STT_URL', ['ws:', 'wss:']),
    sttApiKey,
    sttModel: env.SVC_STT_MODEL?.trim() || null,
    tts,
    ttsUrl: url(env, 'SVC_TTS_URL', tts === 'elevenlabs' ? ['ws:', 'wss:'] : ['http:', 'https:']),
    ttsApiKey,
    ttsVoice: env.SVC_TTS_VOICE?.trim() || null,
    llm,
    llmBaseUrl: llmBaseUrl ?? 'https://api.openai.com/v1',
    llmApiKey,
    llmModel: env.SVC_AGENT_LLM_MODEL?.trim() || env.SVC_LLM_MODEL?.trim() || 'gpt-4o-mini',
    endpointSilenceMs: wholeNumber(env, 'SVC_AGENT_ENDPOINT_MS', 700, 100, 5000),
    interruptAfterMs: wholeNumber(env, 'SVC_AGENT_INTERRUPT_MIN_MS', 300, 0, 3000),
  };
}
