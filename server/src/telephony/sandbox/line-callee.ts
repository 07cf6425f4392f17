// The sandbox's callee on a live line: the simulated callee's lines (the same ones the text sandbox scripts, so a
// call's words match whichever agent runs it), spoken as audio into the call at the call's pace, each once the
// agent has said its piece and fallen silent for a moment. Its manner, chosen by the sandbox number, exercises the
// agent's turn-taking on real audio:
//
//   plain        says "Hello?" as it picks up, answers after a short gap
//   interrupts   picks up silent and says "Hello?" late, over the agent's greeting            (555-0121)
//   pauses       stops to think half-way through each answer                                 (555-0122)
//   talks_over   starts an answer while the agent is still asking its question               (555-0123)
//   noisy        a noisy line: background noise under everything it says and between         (555-0124)
//
// On the sandbox's business lines (555-0125 to -0127) a menu or a queue comes first (line-prelude.ts); the person
// picks up once it has put the agent through, and talks as the plain callee does from then.
//
// Each line it is about to say is told to the sandbox's recogniser (speech/oracle), at its place in the audio.
import { decodeMuLaw, encodeMuLaw } from '../../speech/audio.js';
import type { OverheardPart } from '../../speech/oracle/oracle-recognizer.js';
import type { SandboxScenario } from '../../numbers/sandbox-numbers.js';
import type { LinePrelude } from './line-prelude.js';

export type CalleeManner = 'plain' | 'interrupts' | 'pauses' | 'talks_over' | 'noisy';

export const FRAME_MS = 20;
export const FRAME_BYTES = 160;
/** mu-law silence. */
export const SILENCE_BYTE = 0xff;

/** The manner a sandbox number's callee talks in on a live line. */
export function mannerOf(scenario: SandboxScenario): CalleeManner {
  switch (scenario) {
    case 'interrupts':
    case 'pauses':
    case 'talks_over':
    case 'noisy':
      return scenario;
    default:
      return 'plain';
  }
}

/** A line the callee says: its words and its audio (8 kHz mu-law). */
export interface CalleeLine {
  text: string;
  audio: Buffer;
}

/**
 * When the plain callee says its "Hello?" after picking up; the one that interrupts says it this far into the
 * agent's greeting (or, should the agent never speak, this late after picking up).
 */
const HELLO_AT_MS = 400;
const INTO_GREETING_MS = 600;
// Late enough that an agent whose greeting is slow to come on a busy machine (the line's clock runs on while the
// agent's process catches up with the frames it was sent) still speaks first.
const LATE_HELLO_AT_MS = 30_000;
/** How long the agent must have been silent before the callee answers it. */
const ANSWER_GAP_MS = 600;
/**
 * A pause to think, half-way through an answer, inserted where the words already part (so the silence heard is a
 * little longer): well inside the agent's end-of-turn silence once its detector's own delays are counted.
 */
const THINKING_MS = 300;
/** How far into the agent's question the callee that talks over it starts its answer. */
const TALK_OVER_AFTER_MS = 1200;
/** After its last line, how long the callee waits for the agent to hang up before it does. */
const HANG_UP_AFTER_MS = 6000;
/** The noisy line's noise: uniform, about -40 dBFS. */
const NOISE_LEVEL = 300;

interface Speaking {
  audio: Buffer;
  at: number;
}

export class LineCallee {
  private next = 0;
  private speaking: Speaking | null = null;
  /** Call time the agent's audio was last heard, and whether the agent has spoken since the callee last did. */
  private agentLastMs = -Infinity;
  private agentSpokeAt: number | null = null;
  private lastLineEndMs: number | null = null;
  private noiseSeed = 1;
  /** Call time the person picked up: the end of the prelude, or the line's start. */
  private personFrom = 0;

  constructor(
    private readonly lines: readonly CalleeLine[],
    private readonly manner: CalleeManner,
    /** Told each part of a line as the callee begins it. */
    private readonly overhear: (part: OverheardPart) => void,
    /** A business line's menu or queue, before the person; null for none. */
    private prelude: LinePrelude | null = null,
  ) {}

  /** The callee has said every line and, the agent silent long enough, puts the phone down. */
  hangsUp(atMs: number): boolean {
    return (
      this.prelude === null && this.next >= this.lines.length && this.speaking === null && this.lastLineEndMs !== null && atMs - Math.max(this.lastLineEndMs, this.agentLastMs) >= HANG_UP_AFTER_MS
    );
  }

  /** The callee's 20 ms frame starting at call time `atMs`; `agent` is the agent's audio played in it (null: none). */
  frame(atMs: number, agent: Buffer | null): Buffer {
    if (this.prelude) {
      const out = this.prelude.frame(atMs, agent);
      if (!this.prelude.done) return out;
      this.prelude = null;
      this.personFrom = atMs;
    }
    if (agent) {
      this.agentLastMs = atMs + FRAME_MS;
      this.agentSpokeAt ??= atMs;
    }
    if (!this.speaking && this.dueToSpeak(atMs)) this.begin(atMs);
    const out = Buffer.alloc(FRAME_BYTES, SILENCE_BYTE);
    const s = this.speaking;
    if (s) {
      const from = (atMs - s.at) * 8;
      s.audio.copy(out, 0, Math.max(0, from), Math.min(s.audio.length, from + FRAME_BYTES));
      if (from + FRAME_BYTES >= s.audio.length) {
        this.speaking = null;
        this.lastLineEndMs = atMs + FRAME_MS;
        this.agentSpokeAt = null;
      }
    }
    return this.manner === 'noisy' ? this.noisy(out) : out;
  }

  private dueToSpeak(atMs: number): boolean {
    if (this.next >= this.lines.length) return false;
    if (this.next === 0 && this.manner === 'interrupts') return this.agentSpokeAt !== null ? atMs - this.agentSpokeAt >= INTO_GREETING_MS : atMs >= LATE_HELLO_AT_MS;
    if (this.next === 0) return atMs >= this.personFrom + HELLO_AT_MS;
    if (this.agentSpokeAt === null) return false;
    // The callee who talks over the agent answers its second question while it is still being asked.
    if (this.manner === 'talks_over' && this.next === 3) return atMs - this.agentSpokeAt >= TALK_OVER_AFTER_MS;
    return atMs - this.agentLastMs >= ANSWER_GAP_MS;
  }

  /** Starts the next line; a callee who pauses splits an answer in two around a pause to think. */
  private begin(atMs: number): void {
    const line = this.lines[this.next]!;
    const last = this.next === this.lines.length - 1;
    const split = this.manner === 'pauses' && this.next >= 2 && !last ? splitAt(line) : null;
    if (split) {
      const pause = Buffer.alloc(THINKING_MS * 8, SILENCE_BYTE);
      const [a, b] = split;
      const audio = Buffer.concat([a.audio, pause, b.audio]);
      this.overhear({ text: a.text, startMs: atMs, endMs: atMs + a.audio.length / 8, endOfTurn: false });
      this.overhear({ text: b.text, startMs: atMs + (a.audio.length + pause.length) / 8, endMs: atMs + audio.length / 8, endOfTurn: true });
      this.speaking = { audio, at: atMs };
    } else {
      this.overhear({ text: line.text, startMs: atMs, endMs: atMs + line.audio.length / 8, endOfTurn: true });
      this.speaking = { audio: line.audio, at: atMs };
    }
    this.next++;
  }

  private noisy(frame: Buffer): Buffer {
    const samples = decodeMuLaw(frame);
    for (let i = 0; i < samples.length; i++) {
      // A small linear congruential generator: the same noise for the same call, every run.
      this.noiseSeed = (this.noiseSeed * 1103515245 + 12345) & 0x7fffffff;
      samples[i] = Math.max(-32768, Math.min(32767, samples[i]! + Math.round(((this.noiseSeed / 0x7fffffff) * 2 - 1) * NOISE_LEVEL)));
    }
    return encodeMuLaw(samples);
  }
}

/** A line's words and audio split near the middle of the words, at the quietest 20 ms of its middle third. */
function splitAt(line: CalleeLine): [CalleeLine, CalleeLine] | null {
  const words = line.text.split(/\s+/).filter(Boolean);
  if (words.length < 4) return null;
  const half = Math.ceil(words.length / 2);
  const third = Math.floor(line.audio.length / 3);
  let best = Math.floor(line.audio.length / 2);
  let quietest = Infinity;
  for (let at = third; at + FRAME_BYTES <= 2 * third; at += FRAME_BYTES) {
    let energy = 0;
    for (const sample of decodeMuLaw(line.audio.subarray(at, at + FRAME_BYTES))) energy += Math.abs(sample);
    if (energy < quietest) {
      quietest = energy;
      best = at;
    }
  }
  return [
    { text: words.slice(0, half).join(' '), audio: line.audio.subarray(0, best) },
    { text: words.slice(half).join(' '), audio: line.audio.subarray(best) },
  ];
}
