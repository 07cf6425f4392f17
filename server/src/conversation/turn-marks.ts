// Turns that are not words: what the line did rather than what was said, written in brackets so the transcript, the
// analyst and a reader keep them apart from speech. Keys pressed read `[pressed 1 2 #]` (the pauses are not keys);
// a wait on hold reads `[waiting on hold]`, the agent's turn from when it began to wait to when someone spoke (or
// the call ended). The call record's time on hold is the length of those turns.
import type { TimedTurn, Turn } from './conversation.js';

export const HOLD_TURN_TEXT = '[waiting on hold]';

/** What a turn of keys says, in the transcript and to the model. */
export const pressedTurnText = (keys: readonly string[]) => `[pressed ${keys.join(' ')}]`;

/** The keys a `[pressed …]` turn pressed, in order; null for any other turn. */
export function pressedKeys(text: string): string | null {
  const m = /^\[pressed ((?:[0-9*#A-D] )*[0-9*#A-D])\]$/.exec(text);
  return m ? m[1]!.replace(/ /g, '') : null;
}

export const isHoldTurn = (turn: Pick<Turn, 'text'>) => turn.text === HOLD_TURN_TEXT;

/** Whether a turn is words (not keys, not a hold). */
export const isSpeech = (turn: Pick<Turn, 'text'>) => !/^\[.*\]$/s.test(turn.text.trim());

/** Call-time ms spent on hold among the turns, each counted up to `untilMs` (the call's end). */
export function holdMs(turns: readonly TimedTurn[], untilMs: number): number {
  let ms = 0;
  for (const t of turns) if (isHoldTurn(t)) ms += Math.max(0, Math.min(t.endMs, untilMs) - t.startMs);
  return ms;
}
