// The end of an answered call: what was said (the script, or what the live agent recorded), what its recording is
// rendered from, the analysis of a completed call, the opt-out and the completion hook (a batch's count), all in
// the transaction that ends it.
import { optOutEntry } from '../accounts/do-not-call.js';
import type { ExtractedValues } from '../generated/types.gen.js';
import type { NewRow } from '../jobs/job-queue.js';
import { recordingRequestJson } from '../recording/recorder.js';
import type { CallRow } from '../store/calls-repo.js';
import type { Executor } from '../store/store.js';
import { isLive } from '../conversation/agent.js';
import { briefOf, formatTranscript, recordTurns, type TimedTurn } from '../conversation/conversation.js';
import { holdMs } from '../conversation/turn-marks.js';
import { turnSounds } from '../recording/turn-sounds.js';
import { settleTurns } from '../voice-agent/recorded-turns.js';
import { scriptedToolCalls, type ScriptedToolCalls } from '../voice-agent/scripted-tool-calls.js';
import { settleToolCallRows } from '../store/calls/tool-call-rows.js';
import type { EngineEvent } from './call-state.js';
import type { Commit, StepContext, Talk } from './step-context.js';

/**
 * The turns' rows settled to what was said, and the uses of tools' rows to those kept (all unless `keptToolCalls`),
 * in the transaction that ends the call (voice-agent/recorded-turns.ts, store/calls/tool-call-rows.ts).
 */
export const settled = (callId: string, said: readonly TimedTurn[], connectedMs: number, keptToolCalls?: number) => async (ex: Executor, written: CallRow) => {
  const endedAt = written.ended_at ?? written.updated_at;
  await settleTurns(ex, callId, said, connectedMs, endedAt);
  // Only a call placed with tools has uses.
  if (written.tools_json !== null) await settleToolCallRows(ex, callId, endedAt, keptToolCalls);
};

/**
 * Ends an answered call: the transcript of what was said, what its recording is rendered from, and for a completed
 * call the analysis.
 */
export async function finish(
  ctx: StepContext,
  row: CallRow,
  talk: Talk,
  ended: Extract<EngineEvent, { type: 'conversation_over' | 'dropped' }>,
  /** Columns written with the ending besides what was said (a handover's). */
  also: Commit['set'] = {},
): Promise<void> {
  const { agent, analyst, carrier } = ctx.deps;
  // A live agent whose model could not go on hung up itself: the call failed, whatever the line said after.
  const agentFailed = isLive(agent) && (await agent.failure?.(row.id)) === 'agent_unavailable';
  const e: Extract<EngineEvent, { type: 'conversation_over' | 'dropped' | 'agent_failed' }> = agentFailed ? { type: 'agent_failed', at: ended.at, connectedMs: ended.connectedMs } : ended;
  const turns = isLive(agent) ? await agent.turns(row.id) : talk.turns;
  // A live agent that handed the call over wrote every turn before it recorded the handover, so each is the call's:
  // its note of the handover is the call's very end, which the line's clock can put a few ms past this one's.
  const handedOver = isLive(agent) && talk.reason === 'transferred';
  const said = handedOver ? turns.map((t) => (t.startMs < e.connectedMs ? t : { ...t, startMs: e.connectedMs, endMs: e.connectedMs })) : turns.filter((t) => t.startMs < e.connectedMs);
  const transcript = said.length ? formatTranscript(said) : null;
  // A carrier that records the line stores its recording on the call itself; otherwise the call keeps what its
  // recording is rendered from when first asked for (recording/call-recordings.ts): the words, and the keys and
  // the hold music as the sounds they were. Notes (`[…]`, what the agent did on the line) are turns, but the line
  // was silent for them.
  const sounds = turnSounds(said);
  const recording = carrier.recordsCalls
    ? {}
    : { recording_request_json: recordingRequestJson({ turns: sounds.speech, totalMs: e.connectedMs, language: row.language ?? 'en-US', tones: sounds.tones }) };
  // A live agent that gave up waiting on hold hung up: the conversation ended for that, not by itself.
  const reason = talk.reason === 'hung_up' && isLive(agent) && (await agent.heldTooLong?.(row.id)) ? 'hold_timeout' : talk.reason;
  let summary: string | null = null;
  let extracted: string | null = null;
  let evidence: string | null = null;
  // The callee asked not to be called again: by the live agent's tool during the call, or in the analyst's reading.
  let optOut = isLive(agent) && (await agent.optedOut(row.id));
  let values: ExtractedValues | null = null;
  if (e.type === 'agent_failed') summary = agentFailedSummary(row.objective);
  if (e.type === 'conversation_over') {
    const analysis = await analyst.analyse({ brief: briefOf(row), transcript: transcript ?? '', endReason: reason });
    if (analysis.degraded) ctx.deps.logger.warn({ callId: row.id, analyst: analyst.name, reason: analysis.degraded }, 'call analysis degraded');
    if (analysis.dropped) ctx.deps.logger.warn({ callId: row.id, analyst: analyst.name, fields: analysis.dropped }, 'values dropped: their quotes are not in the turns they were said in');
    summary = analysis.summary;
    extracted = analysis.extracted === null ? null : JSON.stringify(analysis.extracted);
    evidence = analysis.evidence === null ? null : JSON.stringify(analysis.evidence);
    optOut ||= analysis.optOut;
    values = analysis.extracted;
  }
  const turnsJson = JSON.stringify(recordTurns(said, e.connectedMs));
  // A scripted conversation's uses of client tools whose turns the end cut off are dropped with them.
  const uses = isLive(agent) ? null : cutToolCalls(row.id, talk, e.connectedMs, carrier.timeScale);
  // An opt-out lists the number in the transaction that ends the call, so nothing can dial it in between.
  const listing: NewRow[] = optOut ? [optOutEntry(row, ctx.deps.clock.now())] : [];
  const set = {
    ...also,
    transcript,
    turns_json: turnsJson,
    ...recording,
    summary,
    extracted_json: extracted,
    evidence_json: evidence,
    opt_out: optOut ? 1 : 0,
    hold_ms: holdMs(said, e.connectedMs),
    end_reason: e.type === 'conversation_over' ? reason : null,
    ...(uses ? { tool_calls_json: uses.list.length > 0 ? JSON.stringify(uses.list) : null } : {}),
  };
  // What completes with the call (a batch's stop condition) is written in the transaction that completes it.
  const completed = e.type === 'conversation_over';
  const settle = settled(row.id, said, e.connectedMs, uses?.list.length);
  await ctx.apply(row, e, set, null, false, listing, async (ex, written) => {
    await settle(ex, written);
    if (completed) await ctx.deps.hooks.onCallCompleted(ex, written, values, ctx.deps.clock.now());
  });
}

/** The uses of a scripted conversation the end kept (their turns heard whole); null when the end cut none off. */
function cutToolCalls(callId: string, talk: Talk, connectedMs: number, timeScale: number): ScriptedToolCalls | null {
  const all = talk.turns.filter((t) => t.toolCall).length;
  const kept = scriptedToolCalls(
    callId,
    talk.turns.filter((t) => t.endMs <= connectedMs),
    talk.answeredAt,
    timeScale,
  );
  return kept.list.length < all ? kept : null;
}

/** The summary of a call whose agent failed: what happened, in place of an analysis. */
export const agentFailedSummary = (objective: string) =>
  `Objective: ${objective.trim().replace(/[.!?]+$/, '')}. The call failed: the AI agent's speech model could not be reached or stopped answering, so the callee heard a short apology and the call was hung up. No fields were extracted; the transcript holds what was said before.`;
