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

import type { TurnTaking } from '../settings/turn-taking.js';

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
