// Turn-taking on a phone line: how the realtime model decides the callee has started and stopped talking, how
// the handset's audio is cleaned first, and how much speech it takes to cut the agent off. Settings
// (SVC_REALTIME_TURN_DETECTION, SVC_REALTIME_VAD_*, SVC_REALTIME_NOISE_REDUCTION, SVC_REALTIME_INTERRUPT_MIN_MS;
// docs/configuration.md), the same in both realtime interfaces: turn_detection's shape is shared, and noise
// reduction is `audio.input.noise_reduction` in GA, `input_audio_noise_reduction` in beta.
//
// An interruption needs real speech: the server is told not to cut its own response at the first sound
// (`interrupt_response: false`), and svc cuts the agent off only once the callee's speech has lasted
// `interruptAfterMs` (barge-in.ts); a cough or an "mm-hm" stops before that and the agent talks on. With
// `interruptAfterMs` 0 the server cuts at once, as it does by default.

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

/**
 * The session's turn_detection: the callee's end of turn makes the model answer (create_response), except while
 * the agent holds its words (`answers` false: the carrier is still deciding whether a machine answered).
 */
export function turnDetection(t: TurnTaking, answers = true): Record<string, unknown> {
  const interrupt_response = t.interruptAfterMs === 0;
  if (t.mode === 'semantic_vad') return { type: 'semantic_vad', eagerness: t.eagerness, create_response: answers, interrupt_response };
  return { type: 'server_vad', threshold: t.threshold, prefix_padding_ms: t.prefixPaddingMs, silence_duration_ms: t.silenceDurationMs, create_response: answers, interrupt_response };
}

/** The session's noise reduction; null turns it off. */
export function noiseReduction(t: TurnTaking): { type: 'near_field' | 'far_field' } | null {
  return t.noiseReduction === 'off' ? null : { type: t.noiseReduction };
}
