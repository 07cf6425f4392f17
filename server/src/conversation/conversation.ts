// A call's conversation as the engine keeps it: turns by speaker, and their times in the simulated call.
// Times are milliseconds of call time from the answer; the sandbox's time scale speeds up the wall clock, never
// these, so durationSec, billing and the recording's length agree at every scale.
import type { CallMetadata, FieldDefinition, ToolCall, Turn as RecordTurn } from '../generated/types.gen.js';
import { metadataOf, toolsOf, transferOf, type CallRow, type CallTransfer, type StoredTool } from '../store/calls-repo.js';
import { calleeTime } from './callee-time.js';

export type Speaker = 'agent' | 'callee';

export interface Turn {
  speaker: Speaker;
  text: string;
  /** No speech: what the agent did on the line (`[…]`), a turn of the transcript that a rendered recording leaves silent. */
  note?: boolean;
  /** The agent hands the call over to a person here (a transfer): the call ends at this turn, the line left up. */
  handover?: boolean;
  /** How long the turn lasts (call-time ms) when that is not its words' time: keys' tones, a wait on hold (turn-marks.ts). */
  ms?: number;
  /**
   * A scripted conversation's use of a client tool on hearing this turn (the sandbox's 555-0131: the callee's
   * question); the engine writes it as the call is answered. Never part of what is said.
   */
  toolCall?: ToolCall;
}

export interface TimedTurn extends Turn {
  /** Call time, in ms from the answer, when the turn starts and ends. */
  startMs: number;
  endMs: number;
}

/** What the agent is told about the call. */
export interface CallBrief {
  callId: string;
  /** The number called, E.164 (the sandbox's simulated callee behaves by it). */
  to?: string;
  objective: string;
  context: string | null;
  fields: FieldDefinition[];
  /** BCP-47, as resolved at placement. */
  language: string;
  voice: string;
  /** The transfer to a person the agent may make; null or absent for none. */
  transfer?: CallTransfer | null;
}

/** What a call's row tells its agent. */
export function briefOf(row: CallRow): CallBrief {
  return {
    callId: row.id,
    to: row.to_number,
    objective: row.objective,
    context: row.context,
    fields: row.fields_json ? (JSON.parse(row.fields_json) as FieldDefinition[]) : [],
    language: row.language ?? 'en-US',
    voice: row.voice ?? 'alloy',
    transfer: transferOf(row),
  };
}

/** What an agent on a live line is told: the brief, and what a caller must know besides it. */
export type LineBrief = CallBrief & {
  /** Whether it mirrors whoever answers (language `auto`). */
  mirrorLanguage?: boolean;
  /** On whose behalf it calls; null or absent for "a customer". */
  onBehalfOf?: string | null;
  /** The number the callee can call back: the call's caller id. */
  callbackNumber?: string | null;
  /** Whether it says the call is recorded. */
  recordingNotice?: boolean;
  /** Today's date and the time where the callee is (callee-time.ts). */
  calleeTime?: string;
  /**
   * The client's own tools (the placement's `tools`) and what a request to one carries besides the model's
   * arguments: which key signs it, and the call's metadata. Never put in what the model is told.
   */
  clientTools?: ClientToolsBrief;
  /** The longest the agent waits on hold at a time (call-time ms) before it hangs up; DEFAULT_HOLD_MAX_WAIT_SEC when absent. */
  holdMaxWaitMs?: number;
};

export interface ClientToolsBrief {
  tools: StoredTool[];
  apiKeyId: string;
  metadata: CallMetadata | null;
}

/** How long the agent waits on hold at a time when the placement does not say (its hold.maxWaitSec). */
export const DEFAULT_HOLD_MAX_WAIT_SEC = 600;

/** The call's hold budget: the longest it waits on hold at a time, in call-time ms. */
export const holdMaxWaitMs = (row: Pick<CallRow, 'hold_max_wait_sec'>): number => (row.hold_max_wait_sec ?? DEFAULT_HOLD_MAX_WAIT_SEC) * 1000;

/** What a call's row tells the agent that joins its line, `now` (epoch ms) being when it joins. */
export function lineBriefOf(row: CallRow, now: number = Date.now()): LineBrief {
  return {
    ...briefOf(row),
    mirrorLanguage: row.language_source === 'auto',
    onBehalfOf: row.on_behalf_of,
    callbackNumber: row.caller_id,
    recordingNotice: row.recording_notice !== 0,
    calleeTime: calleeTime(row.to_number, now),
    holdMaxWaitMs: holdMaxWaitMs(row),
    ...clientToolsOf(row),
  };
}

/** The call's own tools as its agent is given them; nothing for a call placed without. */
export function clientToolsOf(row: CallRow): Pick<LineBrief, 'clientTools'> {
  return row.tools_json === null ? {} : { clientTools: { tools: toolsOf(row), apiKeyId: row.api_key_id, metadata: metadataOf(row) } };
}

export const SPEAKER_LABEL: Record<Speaker, string> = { agent: 'Agent', callee: 'Callee' };

/** The transcript as the call record carries it: one turn per line, `Speaker: text`. */
export function formatTranscript(turns: readonly Turn[]): string {
  return turns.map((t) => `${SPEAKER_LABEL[t.speaker]}: ${t.text.replace(/\s*\n\s*/g, ' ')}`).join('\n');
}

/**
 * The turns as the call record carries them: seconds from the answer, each ending by the call's end (a turn the
 * end cut short ends there), so they line up with the recording, which lasts the call.
 */
export function recordTurns(turns: readonly TimedTurn[], connectedMs: number): RecordTurn[] {
  return turns.map((t) => ({ speaker: t.speaker, text: t.text, startSec: t.startMs / 1000, endSec: Math.min(t.endMs, connectedMs) / 1000 }));
}

/** Speaking rate used to time turns: espeak-ng's default of 175 words a minute, so speech fits its slot. */
const MS_PER_WORD = 60_000 / 175;
const TURN_GAP_MS = 600;
const MIN_TURN_MS = 800;

/** How long a turn takes to say at the speaking rate (never less than a short turn). */
export function speechMs(text: string): number {
  const words = text.trim().split(/\s+/).filter(Boolean).length;
  return Math.max(MIN_TURN_MS, Math.round(words * MS_PER_WORD));
}

/** Lays turns end to end at a natural speaking rate, with a short pause between speakers. */
export function timeTurns(turns: readonly Turn[]): TimedTurn[] {
  let at = 0;
  return turns.map((t) => {
    const startMs = at === 0 ? 0 : at + TURN_GAP_MS;
    const endMs = startMs + (t.ms ?? speechMs(t.text));
    at = endMs;
    return { ...t, startMs, endMs };
  });
}
