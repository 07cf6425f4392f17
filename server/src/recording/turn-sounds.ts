// What a text-sandbox recording lays for the turns that are not words (conversation/turn-marks.ts): keys as their
// DTMF tones (each key's two frequencies, 100 ms, then 100 ms of silence, as the live line plays them), a wait on
// hold as the sandbox's hold music. Every other turn of words is spoken; a note (what the agent did on the line,
// such as a transfer's) is silent.
import type { TimedTurn } from '../conversation/conversation.js';
import { isHoldTurn, isSpeech, pressedKeys } from '../conversation/turn-marks.js';
import { dtmfFrequencies, GAP_MS, TONE_MS } from '../tones/dtmf-tones.js';
import { holdMusicNotes } from '../tones/hold-music.js';
import type { Tone } from './recorder.js';

export function turnSounds(turns: readonly TimedTurn[]): { speech: TimedTurn[]; tones: Tone[] } {
  const speech: TimedTurn[] = [];
  const tones: Tone[] = [];
  for (const turn of turns) {
    const keys = pressedKeys(turn.text);
    if (keys !== null) {
      [...keys].forEach((key, i) => {
        const startMs = turn.startMs + i * (TONE_MS + GAP_MS);
        for (const hz of dtmfFrequencies(key)!) tones.push({ startMs, endMs: startMs + TONE_MS, hz });
      });
    } else if (isHoldTurn(turn)) {
      tones.push(...holdMusicNotes(turn.startMs, turn.endMs));
    } else if (isSpeech(turn) && !turn.note) {
      speech.push(turn);
    }
  }
  return { speech, tones };
}
