// Every setting, from the environment, with a default that runs offline.
import { resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** Root address clients use; recordingUrl and /openapi.json are built from it. */
  publicBaseUrl: string;
  dataDir: string;
  /** `postgres://…` selects Postgres; otherwise SQLite at `<dataDir>/svc.db`. */
  databaseUrl: string | null;
  production: boolean;
  /** Seed a dev account with a key on start (never in production). */
  seedDev: boolean;
  devApiKey: string | null;
  devRateLimit: number;
  devCallerId: string;
  /** Calls per window for keys that set none. */
  defaultRateLimit: number;
  rateWindowSec: number;
  /** Failed-authentication requests allowed per client address per window. */
  unauthRateLimit: number;
  maxBodyBytes: number;
  /** SVC_WEBHOOK_ALLOW_PRIVATE=1: accept http and loopback webhook URLs. Local development and tests only. */
  webhookAllowPrivate: boolean;
  idempotencyTtlSec: number;
  /** Longest a call may last; the engine hangs up at this point. */
  maxCallDurationSec: number;
  /** IRSF prefix list; defaults to the one shipped in server/data. */
  irsfPath: string | null;
  devPlanMinutes: number;
}

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new ConfigError(`${name} must be an integer of at least ${min}, got "${raw}"`);
  return Number(raw);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env, 'PORT', 8080);
  const production = env.NODE_ENV === 'production';
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL; leave it unset for the embedded SQLite store');
  }
  const devApiKey = env.SVC_DEV_API_KEY?.trim() || null;
  if (devApiKey && !/^svc_ak_[A-Za-z0-9_-]{16,200}$/.test(devApiKey)) {
    throw new ConfigError('SVC_DEV_API_KEY must look like svc_ak_<at least 16 letters, digits, _ or ->');
  }
  return {
    port,
    host: env.HOST || '0.0.0.0',
    publicBaseUrl: (env.SVC_PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    dataDir: resolve(env.SVC_DATA_DIR || './data'),
    databaseUrl,
    production,
    seedDev: !production,
    devApiKey,
    devRateLimit: int(env, 'SVC_DEV_RATE_LIMIT', 10, 1),
    devCallerId: env.SVC_DEV_CALLER_ID?.trim() || '+14155550100',
    defaultRateLimit: int(env, 'SVC_DEFAULT_RATE_LIMIT', 10, 1),
    rateWindowSec: int(env, 'SVC_RATE_WINDOW_SEC', 60, 1),
    unauthRateLimit: int(env, 'SVC_UNAUTH_RATE_LIMIT', 60, 1),
    maxBodyBytes: 64 * 1024,
    webhookAllowPrivate: env.SVC_WEBHOOK_ALLOW_PRIVATE === '1' || env.SVC_WEBHOOK_ALLOW_PRIVATE === 'true',
    idempotencyTtlSec: int(env, 'SVC_IDEMPOTENCY_TTL_SEC', 24 * 3600, 1),
    maxCallDurationSec: int(env, 'SVC_MAX_CALL_DURATION_SEC', 600, 1),
    irsfPath: env.SVC_IRSF_PATH?.trim() || null,
    devPlanMinutes: int(env, 'SVC_DEV_PLAN_MINUTES', 1000, 0),
  };
}
