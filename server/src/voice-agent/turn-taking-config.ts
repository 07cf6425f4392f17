// The turn-taking settings (turn-taking.ts) read from the environment; a value out of range is refused at start.
import { DEFAULT_TURN_TAKING, type Eagerness, type NoiseReduction, type TurnDetectionMode, type TurnTaking } from './turn-taking.js';

export class TurnTakingError extends Error {}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const v = env[name]?.trim();
  if (!v) return fallback;
  if (!(allowed as readonly string[]).includes(v)) throw new TurnTakingError(`${name} must be one of ${allowed.join(', ')}, got "${v}"`);
  return v as T;
}

function number(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number, integer: boolean): number {
  const v = env[name]?.trim();
  if (!v) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw new TurnTakingError(`${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got "${v}"`);
  }
  return n;
}

export function parseTurnTaking(env: NodeJS.ProcessEnv): TurnTaking {
  const d = DEFAULT_TURN_TAKING;
  return {
    mode: oneOf<TurnDetectionMode>(env, 'SVC_REALTIME_TURN_DETECTION', ['server_vad', 'semantic_vad'], d.mode),
    threshold: number(env, 'SVC_REALTIME_VAD_THRESHOLD', d.threshold, 0, 1, false),
    prefixPaddingMs: number(env, 'SVC_REALTIME_VAD_PREFIX_PADDING_MS', d.prefixPaddingMs, 0, 2000, true),
    silenceDurationMs: number(env, 'SVC_REALTIME_VAD_SILENCE_MS', d.silenceDurationMs, 100, 5000, true),
    eagerness: oneOf<Eagerness>(env, 'SVC_REALTIME_VAD_EAGERNESS', ['low', 'medium', 'high', 'auto'], d.eagerness),
    noiseReduction: oneOf<NoiseReduction>(env, 'SVC_REALTIME_NOISE_REDUCTION', ['near_field', 'far_field', 'off'], d.noiseReduction),
    interruptAfterMs: number(env, 'SVC_REALTIME_INTERRUPT_MIN_MS', d.interruptAfterMs, 0, 3000, true),
    greetAfterMs: number(env, 'SVC_REALTIME_GREET_AFTER_MS', d.greetAfterMs, 0, 10_000, true),
  };
}
