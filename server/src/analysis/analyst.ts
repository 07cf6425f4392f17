// The Analyst port: after a call, a plain-English summary and the requested fields, read from the transcript.
import type { ExtractedValues } from '../generated/types.gen.js';
import type { CallBrief } from '../conversation/conversation.js';

/**
 * Why the conversation ended: the agent hung up, the engine cut it at the maximum duration or minute cap, the
 * client canceled the call (cancelCall) while it was live, the agent handed the callee to a person (a transfer), or
 * the agent gave up waiting on hold (the call's hold.maxWaitSec). The call record's endReason.
 */
export type EndReason = 'hung_up' | 'max_duration' | 'minute_cap' | 'canceled' | 'transferred' | 'hold_timeout';

export interface AnalysisInput {
  brief: CallBrief;
  /** The transcript text exactly as the call record carries it (`Speaker: text` lines). */
  transcript: string;
  endReason: EndReason;
}

/** Where a value was said: the index of its turn (a transcript line) and words copied exactly from that turn. */
export interface Evidence {
  turn: number;
  quote: string;
}

export interface Analysis {
  summary: string;
  /** Every requested field by name, null when not found; null when no fields were requested. */
  extracted: ExtractedValues | null;
  /** For every requested field, where its value was said; null for a null value; null when no fields were requested. */
  evidence: Record<string, Evidence | null> | null;
  /** The callee asked not to be called again. */
  optOut: boolean;
  /** Fields whose value the analyst dropped because its quote was not found in its turn (for the log). */
  dropped?: string[];
  /** Set when the analyst could not do its work and returned a fallback; why, for the log (never a secret). */
  degraded?: string;
}

export interface Analyst {
  readonly name: string;
  analyse(input: AnalysisInput): Promise<Analysis>;
}
