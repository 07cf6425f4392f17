// The turn-taking settings read from the environment, as plain data; a value out of range is refused at start.
// voice-agent/turn-taking.ts turns them into what the realtime model is told.

export type TurnDetectionMode = 'server_vad' | 'semantic_vad';
export type Eagerness = 'low' | 'medium' | 'high' | 'auto';
export type NoiseReduction = 'near_field' | 'far_field' | 'off';

export interface TurnTaking {
  mode: TurnDetectionMode;
  /** server_vad: how loud speech must be to count (0 to 1). */
  threshold: number;
  /** server_vad: audio kept from before the speech was detected. */
  prefixPaddingMs: number;
  /** server_vad: the silence that ends the callee's turn. */
  silenceDurationMs: number;
  /** semantic_vad: how soon the model takes a turn as finished. */
  eagerness: Eagerness;
  noiseReduction: NoiseReduction;
  /** How long the callee's speech must last before the agent's audio is cut; 0 leaves it to the server, at once. */
  interruptAfterMs: number;
  /** How long the agent lets the callee speak first after the answer ("Hello?") before it greets them. */
  greetAfterMs: number;
}

/**
 * Tested defaults for a handset: near-field noise reduction; a threshold a little above the server's 0.5, as a
 * phone line's noise floor is higher than a headset's; 500 ms of silence ends a turn (a caller's pause to think
 * is not the end of an answer); 400 ms of speech before the agent is cut off (an "mm-hm" or a cough is shorter);
 * a second of silence after the answer before the agent greets a callee who has not said "Hello?".
 */
export const DEFAULT_TURN_TAKING: TurnTaking = {
  mode: 'server_vad',
  threshold: 0.6,
  prefixPaddingMs: 300,
  silenceDurationMs: 500,
  eagerness: 'low',
  noiseReduction: 'near_field',
  interruptAfterMs: 400,
  greetAfterMs: 1000,
};

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
