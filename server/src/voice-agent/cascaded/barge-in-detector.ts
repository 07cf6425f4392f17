// When the callee talks over the cascaded agent hard enough that the agent should stop: decided on call time and the
// voice activity detector's speech (voice-activity.ts), not on timers, so the same audio always barges in at the same
// moment. The session says when the agent's audio is playing; while it is, a run of the callee's speech barges in
// once it has lasted `minSpeechMs` (from its start, or from the agent's start when the callee was already talking),
// or as soon as the recogniser's interim words for it hold a real word, whichever comes first. A cough or an "mm-hm"
// stops sooner and its words, if any, are fillers, so it leaves the agent talking.
//
// The speech's length is the detector's own account of it (the end of its last speech frame), not the time since it
// started: the detector says "stopped" only `stopMs` after the speech ends, and a 150 ms cough must not grow to
// 400 ms meanwhile. Interim words count only while the detector hears speech, so a late hypothesis about the
// callee's last turn, arriving as the agent starts to answer it, is no barge-in. Echo of the agent's own voice is no
// concern on a phone line (the carrier does not loop it back); a noisy line is kept out by the detector's noise floor.

export interface BargeInOptions {
  /** Speech over the agent this long cuts it off; 0 cuts at the speech's start. */
  minSpeechMs: number;
}

/** 400 ms, as the realtime agent's default (settings/turn-taking.ts): an "mm-hm" or a cough is shorter. */
export const DEFAULT_BARGE_IN: BargeInOptions = { minSpeechMs: 400 };

export interface BargeIn {
  /** Call time the callee's speech over the agent began. */
  atMs: number;
  /** What decided it: the speech's length, or the recogniser's words. */
  by: 'speech' | 'words';
}

/** Sounds a listener makes to say "go on" (how recognisers spell them), which are no bid for the turn. */
const FILLERS = new Set(['mm', 'mmm', 'mhm', 'mhmm', 'hm', 'hmm', 'uh', 'huh', 'um', 'umm', 'uhm', 'er', 'erm', 'ah', 'oh']);

/** Whether a hypothesis holds a word that is not a filler ("mm-hmm" and "uh-huh" are fillers). */
export function hasWords(text: string): boolean {
  const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  return words.some((w) => !FILLERS.has(w));
}

export class BargeInDetector {
  private readonly options: BargeInOptions;
  private now = 0;
  /** Since when the agent's audio has been playing, or null. */
  private agentSince: number | null = null;
  /** The callee's speech the detector hears now: its start and the end of its last speech frame. */
  private run: { startMs: number; endMs: number; cut: boolean } | null = null;

  constructor(options: Partial<BargeInOptions> = {}) {
    this.options = { ...DEFAULT_BARGE_IN, ...options };
  }

  /** The agent's audio started playing on the line (at the last frame's call time). */
  agentStarted(): void {
    this.agentSince ??= this.now;
    if (this.run) this.run.cut = false;
  }

  /** The agent's audio finished or was cleared. */
  agentStopped(): void {
    this.agentSince = null;
  }

  get agentSpeaking(): boolean {
    return this.agentSince !== null;
  }

  speechStarted(atMs: number): BargeIn | null {
    this.run = { startMs: atMs, endMs: atMs, cut: false };
    return this.check(null);
  }

  speechStopped(atMs: number): BargeIn | null {
    if (!this.run) return null;
    this.run.endMs = Math.max(this.run.endMs, atMs);
    const barge = this.check(null);
    this.run = null;
    return barge;
  }

  /** A frame was heard: call time is `nowMs`, and the detector's speech, if any, reaches `speechEndMs`. */
  frame(nowMs: number, speechEndMs: number | null): BargeIn | null {
    this.now = Math.max(this.now, nowMs);
    if (this.run && speechEndMs !== null) this.run.endMs = Math.max(this.run.endMs, speechEndMs);
    return this.check(null);
  }

  /** The recogniser's hypothesis of what the callee is saying. */
  interim(text: string): BargeIn | null {
    return this.check(text);
  }

  private check(words: string | null): BargeIn | null {
    const run = this.run;
    if (this.agentSince === null || !run || run.cut) return null;
    const from = Math.max(run.startMs, this.agentSince);
    let by: BargeIn['by'] | null = null;
    if (run.endMs - from >= this.options.minSpeechMs) by = 'speech';
    else if (words !== null && hasWords(words)) by = 'words';
    if (!by) return null;
    run.cut = true;
    return { atMs: from, by };
  }
}
