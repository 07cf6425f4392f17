// How quickly the agent answers on one live line, measured where svc sees it: the answer (the line's start) to the
// agent's first audio sent to the line; for each agent turn, the callee's end of speech (the model's
// speech_stopped audio_end_ms) to the turn's first audio sent; and for each barge-in, the callee's speech start
// (speech_started audio_start_ms) to the agent's audio being cleared from the line. The turn ledger feeds it
// (turn-ledger.ts), and the call record carries what it measured (`latency`).
//
// Every time is call time: a position on the callee's audio stream, in ms from its start, which is the clock the
// model's audio_start_ms and audio_end_ms are read on (the model counts the audio it was sent, and svc sends it all
// of the callee's). Between two frames of the callee's audio, call time runs on with the wall clock from the last
// frame's end, so an event is timed to the millisecond rather than to the frame it falls in.
import { performance } from 'node:perf_hooks';

/** An agent turn: the callee's end of speech (`atMs`, call time) and how long after it the agent's audio began. */
export interface TurnLatency {
  atMs: number;
  afterMs: number;
  /** A cascaded agent's turn, stage by stage (ms, wall clock): where afterMs went. */
  stages?: TurnStages;
}

/**
 * Where a cascaded agent's answer went: the end of speech to the turn decided (the endpointing silence and the
 * recogniser's final), svc's own time from there to the model's request, the model's time to its first sentence,
 * and the voice's time to its first audio.
 */
export interface TurnStages {
  endpointMs: number;
  ownMs: number;
  modelMs: number;
  voiceMs: number;
}

/** What a cascaded session marks of a turn (performance.now ms), in order. */
export interface StageMarks {
  endpointAt: number | null;
  modelAskedAt: number | null;
  firstTokenAt: number | null;
  voiceAskedAt: number | null;
  firstAudioAt: number | null;
}

/** A barge-in: the callee's speech start (`atMs`, call time) and how long after it the agent's audio was cleared. */
export interface BargeInLatency {
  atMs: number;
  clearMs: number;
}

/** What the call record's `latency` holds (ms, whole). */
export interface CallLatency {
  /** The answer to the agent's first audio; null when the agent never spoke. */
  firstAudioMs: number | null;
  turns: TurnLatency[];
  /** The turns' afterMs at the 50th and 95th percentiles (nearest rank); null without turns. */
  p50Ms: number | null;
  p95Ms: number | null;
  bargeIns: BargeInLatency[];
}

/** Where the measurements go as they are made (the process's Prometheus histograms), in ms. */
export interface LatencyObserver {
  firstAudio(ms: number): void;
  turnResponse(ms: number): void;
  bargeInClear(ms: number): void;
  /** A cascaded agent's answer, stage by stage. */
  turnStages?(stages: TurnStages): void;
}

/** The value at a percentile of a list, nearest rank; null for an empty list. */
export function nearestRank(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Most turns and barge-ins a call's record keeps (the percentiles still count them all); a 60-minute call has a few hundred. */
export const MAX_TIMED = 1000;

export class TurnTiming {
  /** The callee's stream position heard so far, and the wall clock when it was reached. */
  private positionMs = 0;
  private positionAt: number;
  private lastMs = 0;
  private firstAudioMs: number | null = null;
  /** The callee's end of speech the agent has not answered yet. */
  private unanswered: number | null = null;
  private readonly turns: TurnLatency[] = [];
  private readonly afters: number[] = [];
  private readonly bargeIns: BargeInLatency[] = [];
  /** The stages of the agent turn whose first audio goes out next, when its agent marks them. */
  private pendingStages: StageMarks | null = null;

  constructor(
    private readonly observer: LatencyObserver | null = null,
    /** A monotonic clock in ms (performance.now unless a test gives one). */
    readonly now: () => number = () => performance.now(),
  ) {
    this.positionAt = now();
  }

  /** Call time now: the callee's stream position, run on by the wall clock since it was reached; never backwards. */
  callTime(): number {
    this.lastMs = Math.max(this.lastMs, this.positionMs + (this.now() - this.positionAt));
    return this.lastMs;
  }

  /** The callee's audio has been heard up to `endMs` of the stream. */
  heard(endMs: number): void {
    if (endMs <= this.positionMs) return;
    this.positionMs = endMs;
    this.positionAt = this.now();
  }

  /** The callee stopped talking at `endMs` (call time; now when the model did not say). */
  calleeStopped(endMs: number | null): void {
    this.unanswered = endMs ?? this.callTime();
  }

  /** The agent's first audio of an item is being sent to the line. */
  agentStarted(): void {
    const at = this.callTime();
    if (this.firstAudioMs === null) {
      this.firstAudioMs = at;
      this.observer?.firstAudio(at);
    }
    const marks = this.pendingStages;
    this.pendingStages = null;
    if (this.unanswered === null) return;
    const afterMs = Math.max(0, at - this.unanswered);
    const stages = marks ? stagesOf(marks, afterMs) : null;
    if (stages) this.observer?.turnStages?.(stages);
    if (this.turns.length < MAX_TIMED) this.turns.push({ atMs: Math.round(this.unanswered), afterMs: Math.round(afterMs), ...(stages ? { stages } : {}) });
    this.afters.push(afterMs);
    this.unanswered = null;
    this.observer?.turnResponse(afterMs);
  }

  /** The stages of the agent turn about to start (a cascaded agent marks them). */
  stages(marks: StageMarks): void {
    this.pendingStages = marks;
  }

  /** The agent's audio was cleared from the line because the callee started talking at `startMs` (call time, when known). */
  cleared(startMs: number | null): void {
    const at = this.callTime();
    const from = startMs ?? at;
    const clearMs = Math.max(0, at - from);
    if (this.bargeIns.length < MAX_TIMED) this.bargeIns.push({ atMs: Math.round(from), clearMs: Math.round(clearMs) });
    this.observer?.bargeInClear(clearMs);
  }

  latency(): CallLatency {
    const round = (v: number | null) => (v === null ? null : Math.round(v));
    return {
      firstAudioMs: round(this.firstAudioMs),
      turns: [...this.turns],
      p50Ms: round(nearestRank(this.afters, 50)),
      p95Ms: round(nearestRank(this.afters, 95)),
      bargeIns: [...this.bargeIns],
    };
  }
}

/** A turn's stages from its marks; null when the turn was not decided by an endpoint (a greeting, a prompt). */
function stagesOf(m: StageMarks, afterMs: number): TurnStages | null {
  if (m.endpointAt === null || m.modelAskedAt === null || m.voiceAskedAt === null || m.firstAudioAt === null) return null;
  const r = (v: number) => Math.max(0, Math.round(v));
  const sinceEndpoint = m.firstAudioAt - m.endpointAt;
  return {
    endpointMs: r(afterMs - sinceEndpoint),
    ownMs: r(m.modelAskedAt - m.endpointAt),
    modelMs: r(m.voiceAskedAt - m.modelAskedAt),
    voiceMs: r(m.firstAudioAt - m.voiceAskedAt),
  };
}
