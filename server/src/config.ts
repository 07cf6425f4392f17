// Every setting, from the environment, with a default that runs offline. It imports no adapter: adapters are
// chosen from these values by the composition root (main.ts).
import { resolve } from 'node:path';
import { DEFAULT_RETRY_SCHEDULE_SEC, parseRetrySchedule } from './settings/retry-schedule.js';
import { parseTurnTaking, TurnTakingError, type TurnTaking } from './settings/turn-taking.js';
import { CascadedConfigError, parseCascaded, type CascadedConfig } from './settings/cascaded.js';

/** How many times the LLM analyst sends one analysis request (a failed one is tried once more). */
export const LLM_ATTEMPTS = 2;

/** OpenAI's realtime model ends a session 60 minutes after it opened (its Realtime API docs). */
export const REALTIME_SESSION_LIMIT_SEC = 3600;
/**
 * How old the realtime session may already be when the callee answers: it is opened while the phone rings, so the
 * model is ready at the answer, and Twilio rings for 60 s (its Timeout default, plus the few seconds it may add).
 */
export const REALTIME_SESSION_HEADROOM_SEC = 120;
/** The longest call the realtime agent can hold: its session must outlive the call's maximum duration. */
export const REALTIME_MAX_CALL_DURATION_SEC = REALTIME_SESSION_LIMIT_SEC - REALTIME_SESSION_HEADROOM_SEC;

export interface Config {
  port: number;
  host: string;
  /** Root address clients and Twilio use; recordingUrl, /openapi.json and Twilio's callback and stream URLs are built from it. */
  publicBaseUrl: string;
  dataDir: string;
  /** Where call recordings are written (SVC_RECORDINGS_DIR); `<dataDir>/recordings` by default. */
  recordingsDir: string;
  /** `postgres://…` selects Postgres; otherwise SQLite at `<dataDir>/svc.db`. */
  databaseUrl: string | null;
  /** Postgres pool: most connections this process opens (SVC_PG_POOL_MAX). */
  pgPoolMax: number;
  /** Postgres pool: an idle connection is closed after this long. */
  pgIdleTimeoutMs: number;
  /** Postgres pool: how long a query waits for a connection (a new one, or one from a full pool) before failing. */
  pgConnectTimeoutMs: number;
  production: boolean;
  /** Seed a dev account with a key on start (never in production). */
  seedDev: boolean;
  devApiKey: string | null;
  devRateLimit: number;
  devCallerId: string;
  /** Calls per window for keys that set none. */
  defaultRateLimit: number;
  rateWindowSec: number;
  /** Requests that cost more than a read and place nothing (stream opens, redeliveries) per key per window. */
  keyRequestLimit: number;
  /** Failed-authentication requests allowed per client address per window. */
  unauthRateLimit: number;
  maxBodyBytes: number;
  /** Slow clients: how long the server waits for a request's headers, for the whole request, and between requests. */
  httpTimeouts: HttpTimeouts;
  /** SVC_WEBHOOK_ALLOW_PRIVATE=1 (or true): accept http and loopback webhook URLs. Local development and tests only. */
  webhookAllowPrivate: boolean;
  /** Seconds before each webhook delivery attempt (the first is 0); SVC_WEBHOOK_RETRY_SCHEDULE. */
  webhookRetrySchedule: number[];
  /** Whole-request deadline of one webhook delivery. */
  webhookTimeoutMs: number;
  /** How long the previous webhook secret still signs after a rotation. */
  webhookSecretOverlapSec: number;
  /** SVC_DEV_WEBHOOK_SECRET: fixes the dev key's webhook secret for scripts. */
  devWebhookSecret: string | null;
  idempotencyTtlSec: number;
  /** Longest a call may last; the engine hangs up at this point. */
  maxCallDurationSec: number;
  /** What this process runs: the HTTP API, the workers (call engine, webhook dispatcher, batches, jobs, sweeper), or both. */
  role: 'api' | 'worker' | 'both';
  /** Sandbox carrier: wall-clock time per unit of call time (0.001 makes a minute-long call take 60 ms). */
  sandboxTimeScale: number;
  /** Sandbox carrier: wall-clock ms its network takes to accept a dial; default 300 ms times the time scale. */
  sandboxDialLatencyMs: number;
  /** Engine: how long a worker's claim on a call lasts before another worker may take the call over. */
  engineLeaseMs: number;
  /** Engine: call-time seconds a dialling call may go without news from the carrier before it is ended. */
  engineWatchdogSec: number;
  /** Engine: calls one worker steps at once in each of its two lanes (calls to dial, calls on a line). */
  engineConcurrency: number;
  /** Engine and batch runner: longest wait between looks at the store when nothing is due. */
  enginePollMs: number;
  /** Live streams: how often the process reads the store for what is new for its open streams (the most a change waits to be sent). */
  streamPollMs: number;
  /** Live streams: the most a key holds open at once, across every process (SVC_STREAMS_PER_KEY). */
  streamsPerKey: number;
  /** Live streams: how long a client may read nothing before its stream is ended (SVC_STREAM_STALL_MS). */
  streamStallMs: number;
  /** IRSF prefix list; defaults to the one shipped in server/data. */
  irsfPath: string | null;
  devPlanMinutes: number;
  /**
   * Who writes the summary and extracts the fields (SVC_ANALYST): the offline rule-based analyst, or an LLM; the LLM
   * whenever SVC_LLM_API_KEY is set and SVC_ANALYST is not.
   */
  analyst: 'rule-based' | 'openai';
  /** The LLM analyst's OpenAI-compatible API root (SVC_LLM_BASE_URL); a local model server's works too. */
  llmBaseUrl: string;
  /** The LLM analyst's key (SVC_LLM_API_KEY): a secret, required when analyst is openai. */
  llmApiKey: string | null;
  llmModel: string;
  /** Deadline of one analysis request; a failed one is tried once more. */
  llmTimeoutMs: number;
  /**
   * Who talks on the line (SVC_AGENT): the scripted sandbox agent, the realtime speech model (real lines), or the
   * cascaded agent (a recogniser, a chat model and a voice; offline on the sandbox, through a live line).
   */
  agent: 'scripted' | 'realtime' | 'cascaded';
  /** The cascaded agent's providers and bounds (SVC_STT, SVC_TTS, SVC_AGENT_LLM, …); null unless SVC_AGENT=cascaded. */
  cascaded: CascadedConfig | null;
  /** The realtime speech endpoint's WebSocket URL (SVC_REALTIME_URL), OpenAI-compatible; `?model=` is added. */
  realtimeUrl: string;
  realtimeModel: string;
  /** SVC_REALTIME_PROTOCOL: the realtime interface the endpoint speaks, GA (the default) or beta. */
  realtimeProtocol: 'ga' | 'beta';
  /** SVC_REALTIME_API_KEY: a secret, required when agent is realtime. */
  realtimeApiKey: string | null;
  /** Turn detection, noise reduction and barge-in on the realtime session (SVC_REALTIME_TURN_DETECTION, …). */
  realtimeTurnTaking: TurnTaking;
  /**
   * SVC_INTERNAL_URL: where the other service processes reach this one (http://127.0.0.1:<PORT> by default); a
   * media stream that lands on another api process is relayed here when this one warmed the call's session.
   */
  internalUrl: string;
  /** The telephone line (SVC_CARRIER): the offline sandbox, or Twilio. */
  carrier: 'sandbox' | 'twilio';
  /** TWILIO_ACCOUNT_SID (AC…); required with the Twilio carrier. */
  twilioAccountSid: string | null;
  /** TWILIO_AUTH_TOKEN: a secret; authenticates REST requests and signs Twilio's callbacks. */
  twilioAuthToken: string | null;
  /** SVC_TWILIO_API_BASE_URL: Twilio's REST root; tests point it at a local fake. */
  twilioApiBaseUrl: string;
}

export interface HttpTimeouts {
  /** SVC_HTTP_HEADERS_TIMEOUT_MS: from a request's first byte to the end of its headers. */
  headersMs: number;
  /** SVC_HTTP_REQUEST_TIMEOUT_MS: from a request's first byte to the end of its body. */
  requestMs: number;
  /** SVC_HTTP_KEEP_ALIVE_TIMEOUT_MS: how long an idle kept-alive connection stays open for the next request. */
  keepAliveMs: number;
}

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new ConfigError(`${name} must be an integer of at least ${min}, got "${raw}"`);
  return Number(raw);
}

export function httpTimeouts(env: NodeJS.ProcessEnv): HttpTimeouts {
  const timeouts = {
    headersMs: int(env, 'SVC_HTTP_HEADERS_TIMEOUT_MS', 10_000, 1),
    requestMs: int(env, 'SVC_HTTP_REQUEST_TIMEOUT_MS', 30_000, 1),
    keepAliveMs: int(env, 'SVC_HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000, 1),
  };
  if (timeouts.headersMs > timeouts.requestMs) {
    throw new ConfigError('SVC_HTTP_HEADERS_TIMEOUT_MS must not exceed SVC_HTTP_REQUEST_TIMEOUT_MS: the headers are part of the request');
  }
  return timeouts;
}

function retrySchedule(env: NodeJS.ProcessEnv): number[] {
  const raw = env.SVC_WEBHOOK_RETRY_SCHEDULE?.trim();
  if (!raw) return [...DEFAULT_RETRY_SCHEDULE_SEC];
  const parsed = parseRetrySchedule(raw);
  if (typeof parsed === 'string') throw new ConfigError(`SVC_WEBHOOK_RETRY_SCHEDULE ${parsed}`);
  return parsed;
}

// The value is a secret: the error never repeats it.
function devWebhookSecret(env: NodeJS.ProcessEnv): string | null {
  const raw = env.SVC_DEV_WEBHOOK_SECRET?.trim() || null;
  if (raw && !/^whsec_[A-Za-z0-9_+/=-]{32,200}$/.test(raw)) {
    throw new ConfigError('SVC_DEV_WEBHOOK_SECRET must look like whsec_<at least 32 letters, digits, _, -, +, / or =>');
  }
  return raw;
}

function role(env: NodeJS.ProcessEnv): Config['role'] {
  const raw = env.SVC_ROLE?.trim() || 'both';
  if (raw !== 'api' && raw !== 'worker' && raw !== 'both') throw new ConfigError(`SVC_ROLE must be api, worker or both, got "${raw}"`);
  return raw;
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${name} must be a number above 0, got "${raw}"`);
  return n;
}

type LlmSettings = Pick<Config, 'analyst' | 'llmBaseUrl' | 'llmApiKey' | 'llmModel' | 'llmTimeoutMs'>;

// The key is a secret, and the base URL might carry one: no message here repeats either.
// A configured model key turns the LLM analyst on unless SVC_ANALYST says otherwise: a deployment that has a
// model reads its calls with it, and SVC_ANALYST=rule-based still keeps the analysis offline.
function llmSettings(env: NodeJS.ProcessEnv): LlmSettings {
  const llmApiKey = env.SVC_LLM_API_KEY?.trim() || null;
  const analyst = env.SVC_ANALYST?.trim() || (llmApiKey ? 'openai' : 'rule-based');
  if (analyst !== 'rule-based' && analyst !== 'openai') throw new ConfigError(`SVC_ANALYST must be rule-based or openai, got "${analyst}"`);
  const llmBaseUrl = (env.SVC_LLM_BASE_URL?.trim() || 'https://api.openai.com/v1').replace(/\/+$/, '');
  const url = URL.canParse(llmBaseUrl) ? new URL(llmBaseUrl) : null;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
    throw new ConfigError('SVC_LLM_BASE_URL must be an http or https URL without credentials, such as https://api.openai.com/v1');
  }
  if (analyst === 'openai' && !llmApiKey) {
    throw new ConfigError('SVC_LLM_API_KEY is required when SVC_ANALYST=openai (for a local model server that checks no key, any value)');
  }
  return { analyst, llmBaseUrl, llmApiKey, llmModel: env.SVC_LLM_MODEL?.trim() || 'gpt-4o-mini', llmTimeoutMs: int(env, 'SVC_LLM_TIMEOUT_MS', 30_000, 1) };
}

// A completed call's last step holds its lease through every analysis attempt. A shorter lease would let another
// worker take the call over mid-analysis, and while the provider is down that would repeat for ever.
function engineLeaseMs(env: NodeJS.ProcessEnv, llm: LlmSettings): number {
  if (llm.analyst !== 'openai') return int(env, 'SVC_ENGINE_LEASE_MS', 30_000, 100);
  const least = LLM_ATTEMPTS * llm.llmTimeoutMs + 10_000;
  const lease = int(env, 'SVC_ENGINE_LEASE_MS', Math.max(30_000, least), 100);
  if (lease < least) throw new ConfigError(`SVC_ENGINE_LEASE_MS must be at least ${least} with SVC_ANALYST=openai (SVC_LLM_TIMEOUT_MS twice, plus 10 s), got ${lease}`);
  return lease;
}

type TwilioSettings = Pick<Config, 'carrier' | 'twilioAccountSid' | 'twilioAuthToken' | 'twilioApiBaseUrl'>;

// The auth token is a secret: no message here repeats it.
function twilioSettings(env: NodeJS.ProcessEnv, production: boolean): TwilioSettings {
  const carrier = env.SVC_CARRIER?.trim() || 'sandbox';
  if (carrier !== 'sandbox' && carrier !== 'twilio') throw new ConfigError(`SVC_CARRIER must be sandbox or twilio, got "${carrier}"`);
  const twilioApiBaseUrl = (env.SVC_TWILIO_API_BASE_URL?.trim() || 'https://api.twilio.com').replace(/\/+$/, '');
  const url = URL.canParse(twilioApiBaseUrl) ? new URL(twilioApiBaseUrl) : null;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.pathname !== '/') {
    throw new ConfigError('SVC_TWILIO_API_BASE_URL must be an http or https origin without credentials or path, such as https://api.twilio.com');
  }
  const twilioAccountSid = env.TWILIO_ACCOUNT_SID?.trim() || null;
  const twilioAuthToken = env.TWILIO_AUTH_TOKEN?.trim() || null;
  if (carrier === 'twilio') {
    if (!twilioAccountSid || !/^AC[0-9a-fA-F]{32}$/.test(twilioAccountSid)) throw new ConfigError('TWILIO_ACCOUNT_SID must be your account SID (AC followed by 32 hex digits) when SVC_CARRIER=twilio');
    if (!twilioAuthToken) throw new ConfigError('TWILIO_AUTH_TOKEN is required when SVC_CARRIER=twilio');
    // A real line needs an agent that talks on it; the scripted agent only talks to the sandbox's simulated callee.
    if (!['realtime', 'cascaded'].includes(env.SVC_AGENT?.trim() || 'scripted')) throw new ConfigError('SVC_CARRIER=twilio needs a live agent: set SVC_AGENT=realtime or cascaded');
    // Twilio must reach the callbacks and the media stream: a real address, and TLS in production (wss streams).
    const base = env.SVC_PUBLIC_BASE_URL?.trim();
    if (!base) throw new ConfigError('SVC_PUBLIC_BASE_URL is required when SVC_CARRIER=twilio: the address Twilio sends callbacks and the media stream to');
    if (production && !base.startsWith('https://')) throw new ConfigError('SVC_PUBLIC_BASE_URL must be https:// in production with SVC_CARRIER=twilio (Twilio streams media only over wss)');
  }
  return { carrier, twilioAccountSid, twilioAuthToken, twilioApiBaseUrl };
}

/**
 * The cascaded agent's settings when it is the agent. On the sandbox its line carries audio at the call's pace, so the
 * sandbox's time may run at most five times faster than real time: faster, and svc's and the providers' own time
 * (spent on the wall: a sentence synthesised, a model's first token) would stretch into seconds of call time.
 */
function cascadedSettings(env: NodeJS.ProcessEnv, agent: Config['agent'], sandboxTimeScale: number): CascadedConfig | null {
  if (agent !== 'cascaded') return null;
  const carrier = env.SVC_CARRIER?.trim() === 'twilio' ? 'twilio' : 'sandbox';
  if (carrier === 'sandbox' && sandboxTimeScale < 0.2) {
    throw new ConfigError(`SVC_SANDBOX_TIME_SCALE must be at least 0.2 with SVC_AGENT=cascaded (its sandbox line carries audio at the call's pace), got ${sandboxTimeScale}`);
  }
  try {
    return parseCascaded(env, carrier);
  } catch (err) {
    if (err instanceof CascadedConfigError) throw new ConfigError(err.message);
    throw err;
  }
}

type RealtimeSettings = Pick<Config, 'agent' | 'realtimeUrl' | 'realtimeModel' | 'realtimeProtocol' | 'realtimeApiKey' | 'realtimeTurnTaking'>;

/** The model each realtime interface names unless SVC_REALTIME_MODEL does: the GA model, or the beta preview. */
const REALTIME_MODEL: Record<Config['realtimeProtocol'], string> = { ga: 'gpt-realtime', beta: 'gpt-4o-realtime-preview' };

// The key is a secret, and the URL might carry one: no message here repeats either.
function realtimeSettings(env: NodeJS.ProcessEnv): RealtimeSettings {
  const agent = env.SVC_AGENT?.trim() || 'scripted';
  if (agent !== 'scripted' && agent !== 'realtime' && agent !== 'cascaded') throw new ConfigError(`SVC_AGENT must be scripted, realtime or cascaded, got "${agent}"`);
  const realtimeUrl = env.SVC_REALTIME_URL?.trim() || 'wss://api.openai.com/v1/realtime';
  const url = URL.canParse(realtimeUrl) ? new URL(realtimeUrl) : null;
  if (!url || (url.protocol !== 'wss:' && url.protocol !== 'ws:') || url.username || url.password || url.search) {
    throw new ConfigError('SVC_REALTIME_URL must be a ws or wss URL without credentials or query, such as wss://api.openai.com/v1/realtime');
  }
  const realtimeApiKey = env.SVC_REALTIME_API_KEY?.trim() || null;
  if (agent === 'realtime') {
    if (!realtimeApiKey) throw new ConfigError('SVC_REALTIME_API_KEY is required when SVC_AGENT=realtime (for a local server that checks no key, any value)');
    // The realtime agent hears the callee through Twilio's media stream; the sandbox has no audio to give it.
    if ((env.SVC_CARRIER?.trim() || 'sandbox') !== 'twilio') throw new ConfigError('SVC_AGENT=realtime needs a real line: set SVC_CARRIER=twilio');
  }
  const realtimeProtocol = env.SVC_REALTIME_PROTOCOL?.trim() || 'ga';
  if (realtimeProtocol !== 'ga' && realtimeProtocol !== 'beta') throw new ConfigError(`SVC_REALTIME_PROTOCOL must be ga or beta, got "${realtimeProtocol}"`);
  let realtimeTurnTaking: TurnTaking;
  try {
    realtimeTurnTaking = parseTurnTaking(env);
  } catch (err) {
    if (err instanceof TurnTakingError) throw new ConfigError(err.message);
    throw err;
  }
  return { agent, realtimeUrl, realtimeModel: env.SVC_REALTIME_MODEL?.trim() || REALTIME_MODEL[realtimeProtocol], realtimeProtocol, realtimeApiKey, realtimeTurnTaking };
}

// A call must never outlive the realtime model's session: past its limit the model closes the socket and the
// callee would hear nothing until the maximum duration hangs up. A maximum above what the session allows is
// refused at start rather than cut silently, so the operator's setting is never quietly not what happens.
function maxCallDurationSec(env: NodeJS.ProcessEnv, agent: Config['agent']): number {
  const max = int(env, 'SVC_MAX_CALL_DURATION_SEC', 600, 1);
  if (agent === 'realtime' && max > REALTIME_MAX_CALL_DURATION_SEC) {
    throw new ConfigError(
      `SVC_MAX_CALL_DURATION_SEC must be at most ${REALTIME_MAX_CALL_DURATION_SEC} with SVC_AGENT=realtime (the realtime model ends its session ${REALTIME_SESSION_LIMIT_SEC / 60} minutes after it opens, up to ${REALTIME_SESSION_HEADROOM_SEC} s before the answer), got ${max}`,
    );
  }
  return max;
}

function internalUrl(env: NodeJS.ProcessEnv, port: number): string {
  const v = env.SVC_INTERNAL_URL?.trim() || `http://127.0.0.1:${port}`;
  const url = URL.canParse(v) ? new URL(v) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search) {
    throw new ConfigError(`SVC_INTERNAL_URL must be an http or https URL without credentials or query, such as http://10.0.0.5:8080, got "${v}"`);
  }
  return v.replace(/\/+$/, '');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env, 'PORT', 8080);
  const sandboxTimeScale = positiveNumber(env, 'SVC_SANDBOX_TIME_SCALE', 1);
  const production = env.NODE_ENV === 'production';
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL; leave it unset for the embedded SQLite store');
  }
  const devApiKey = env.SVC_DEV_API_KEY?.trim() || null;
  const llm = llmSettings(env);
  const realtime = realtimeSettings(env);
  const cascaded = cascadedSettings(env, realtime.agent, sandboxTimeScale);
  if (devApiKey && !/^svc_ak_[A-Za-z0-9_-]{16,200}$/.test(devApiKey)) {
    throw new ConfigError('SVC_DEV_API_KEY must look like svc_ak_<at least 16 letters, digits, _ or ->');
  }
  return {
    port,
    host: env.HOST || '0.0.0.0',
    publicBaseUrl: (env.SVC_PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    internalUrl: internalUrl(env, port),
    dataDir: resolve(env.SVC_DATA_DIR || './data'),
    recordingsDir: env.SVC_RECORDINGS_DIR?.trim() ? resolve(env.SVC_RECORDINGS_DIR.trim()) : resolve(env.SVC_DATA_DIR || './data', 'recordings'),
    databaseUrl,
    pgPoolMax: int(env, 'SVC_PG_POOL_MAX', 10, 1),
    pgIdleTimeoutMs: int(env, 'SVC_PG_IDLE_TIMEOUT_MS', 30_000, 0),
    pgConnectTimeoutMs: int(env, 'SVC_PG_CONNECT_TIMEOUT_MS', 5000, 1),
    production,
    seedDev: !production,
    devApiKey,
    devRateLimit: int(env, 'SVC_DEV_RATE_LIMIT', 10, 1),
    devCallerId: env.SVC_DEV_CALLER_ID?.trim() || '+14155550100',
    defaultRateLimit: int(env, 'SVC_DEFAULT_RATE_LIMIT', 10, 1),
    rateWindowSec: int(env, 'SVC_RATE_WINDOW_SEC', 60, 1),
    keyRequestLimit: int(env, 'SVC_KEY_REQUEST_LIMIT', 600, 1),
    unauthRateLimit: int(env, 'SVC_UNAUTH_RATE_LIMIT', 60, 1),
    maxBodyBytes: 64 * 1024,
    httpTimeouts: httpTimeouts(env),
    webhookAllowPrivate: env.SVC_WEBHOOK_ALLOW_PRIVATE === '1' || env.SVC_WEBHOOK_ALLOW_PRIVATE === 'true',
    webhookRetrySchedule: retrySchedule(env),
    webhookTimeoutMs: int(env, 'SVC_WEBHOOK_TIMEOUT_MS', 15000, 1),
    webhookSecretOverlapSec: int(env, 'SVC_WEBHOOK_SECRET_OVERLAP_SEC', 24 * 3600, 0),
    devWebhookSecret: devWebhookSecret(env),
    idempotencyTtlSec: int(env, 'SVC_IDEMPOTENCY_TTL_SEC', 24 * 3600, 1),
    maxCallDurationSec: maxCallDurationSec(env, realtime.agent),
    role: role(env),
    sandboxTimeScale,
    sandboxDialLatencyMs: int(env, 'SVC_SANDBOX_DIAL_LATENCY_MS', Math.round(300 * sandboxTimeScale), 0),
    engineLeaseMs: engineLeaseMs(env, llm),
    engineWatchdogSec: int(env, 'SVC_ENGINE_WATCHDOG_SEC', 120, 1),
    engineConcurrency: int(env, 'SVC_ENGINE_CONCURRENCY', 16, 1),
    enginePollMs: int(env, 'SVC_ENGINE_POLL_MS', 250, 1),
    streamPollMs: int(env, 'SVC_STREAM_POLL_MS', 250, 10),
    streamsPerKey: int(env, 'SVC_STREAMS_PER_KEY', 100, 1),
    streamStallMs: int(env, 'SVC_STREAM_STALL_MS', 30_000, 100),
    irsfPath: env.SVC_IRSF_PATH?.trim() || null,
    devPlanMinutes: int(env, 'SVC_DEV_PLAN_MINUTES', 1000, 0),
    ...llm,
    ...realtime,
    cascaded,
    ...twilioSettings(env, production),
  };
}
