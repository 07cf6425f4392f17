// A silent line ends. Silence is counted on the callee's audio stream (call time, as the turn ledger keeps it:
// Twilio streams a frame every 20 ms, silent or not), and only while the agent's audio is not playing: the agent
// talking is not the callee answering, so a model that keeps talking into the void never keeps the line up.
// Only the callee's words (a transcript that is not empty) start the count again; server VAD firing on noise or
// hold music (speech started, then no words) does not. After `promptMs` of silence the agent is asked once to
// check whether anyone is there; after `hangUpMs` more, the agent hangs up.

export interface SilenceBounds {
  /** Silence before the agent asks whether the callee is still there. */
  promptMs: number;
  /** Further silence, after the prompt, before the agent hangs up. */
  hangUpMs: number;
}

/** 10 s, then 10 s more: a person who stepped away has had two chances; a dead line costs 20 s, not the maximum duration. */
export const DEFAULT_SILENCE: SilenceBounds = { promptMs: 10_000, hangUpMs: 10_000 };

/** What the system message asks the model when the line has been silent for `promptMs`. */
export const SILENCE_PROMPT = 'The line has been silent for a while. Ask once, briefly and in the language of the call, whether the person is still there, then wait for their answer.';

export class SilenceWatch {
  /** Where the stream was at the last look: it starts at 0, with the callee's audio. */
  private lastMs = 0;
  private silentMs = 0;
  private prompted = false;
  private over = false;

  constructor(
    private readonly bounds: SilenceBounds,
    private readonly on: { prompt(): void; hangUp(): void },
  ) {}

  /** The callee's stream has reached `nowMs`; `agentPlaying` says whether the agent's audio is still playing. */
  heard(nowMs: number, agentPlaying: boolean): void {
    if (this.over) return;
    const since = Math.max(0, nowMs - this.lastMs);
    this.lastMs = Math.max(this.lastMs, nowMs);
    if (agentPlaying) return;
    this.silentMs += since;
    if (!this.prompted && this.silentMs >= this.bounds.promptMs) {
      this.prompted = true;
      this.silentMs = 0;
      this.on.prompt();
    } else if (this.prompted && this.silentMs >= this.bounds.hangUpMs) {
      this.over = true;
      this.on.hangUp();
    }
  }

  /** The callee said something: the line is not silent, and a later silence is prompted again. */
  calleeSpoke(): void {
    this.silentMs = 0;
    this.prompted = false;
  }
}
