// A dialled call's line: the carrier's news read and applied event by event (the answer, a machine's greeting,
// the end), the conversation planned at the answer, and the line taken down where the conversation, a cancel, the
// voicemail message or the watchdog ends it. A call the agent handed over to a person (a transfer) ends where the
// agent left it, and its line is left up: it is the callee's and the person's now.
import { accountAllowance, talkAllowanceMs } from '../accounts/minute-billing.js';
import type { EndReason } from '../analysis/analyst.js';
import { transferOf, type CallRow } from '../store/calls-repo.js';
import { readTransferred } from '../store/calls/agent-line.js';
import type { LineEvent } from '../telephony/carrier.js';
import { isLive } from '../conversation/agent.js';
import { briefOf, clientToolsOf, holdMaxWaitMs, timeTurns, type TimedTurn } from '../conversation/conversation.js';
import { isHoldTurn } from '../conversation/turn-marks.js';
import type { NewRow } from '../jobs/job-queue.js';
import { scriptedTurnRows } from '../voice-agent/recorded-turns.js';
import { scriptedToolCalls } from '../voice-agent/scripted-tool-calls.js';
import { finish } from './finish.js';
import type { EngineState, StepContext, Talk } from './step-context.js';
import { finishVoicemail, planMessage } from './voicemail.js';

/** One look at a dialled call's line: its news applied, then the line taken down or the call next due. */
export async function followLine(ctx: StepContext, row: CallRow): Promise<void> {
  const { carrier, clock, settings } = ctx.deps;
  const now = clock.now();
  if (row.carrier_ref === null) {
    await ctx.apply(row, { type: 'interrupted', at: now }, {}, null);
    return;
  }
  const state = JSON.parse(row.engine_state ?? '{}') as EngineState;
  const lineBefore = state.line;
  const news = await carrier.check(row.carrier_ref, state.line, now);
  state.line = news.state;
  const canceledAt = row.cancel_requested_at;
  let current = row;
  for (const e of news.events) {
    if (state.talk && e.at >= state.talk.endsAt) break; // the conversation ended first; the engine hung up
    if (canceledAt !== null && e.at >= canceledAt) break; // the client canceled first; the engine hangs up
    // The line a live agent handed over ends nothing more: the handover ended the call. Its record may have been
    // written since this step read the call, so it is read again before the line's end is taken for the call's.
    if ((e.kind === 'hung_up' || e.kind === 'dropped') && (current = await withHandover(ctx, current, state.talk)).transferred_to !== null) break;
    const done = await onLineEvent(ctx, current, state, e, lineBefore);
    if (done === 'terminal') return;
    current = done;
  }
  if (handedOver(current, state.talk)) {
    await finishHandover(ctx, current, state, now);
    return;
  }
  if (state.voicemail && current.status === 'dialing') {
    // Leaving a message: hung up when it is over, or where a cancel cut it (then it was not left).
    const vm = state.voicemail;
    const cut = canceledAt !== null && canceledAt < vm.endsAt ? canceledAt : null;
    if (now >= (cut ?? vm.endsAt)) {
      await carrier.hangUp(current.carrier_ref!, state.line, now);
      const connectedMs = cut === null ? vm.talkMs : Math.max(0, Math.round((cut - vm.pickedUpAt) / carrier.timeScale));
      await finishVoicemail(ctx, current, state, connectedMs, cut === null);
      return;
    }
  }
  if (canceledAt !== null && current.status === 'dialing' && !state.voicemail) {
    // Never answered before the cancel: the line is taken down and the call was never connected.
    await carrier.hangUp(current.carrier_ref!, state.line, now);
    await ctx.apply(current, { type: 'canceled', at: now }, { engine_state: JSON.stringify(state) }, null);
    return;
  }
  if (canceledAt !== null && current.status === 'in_progress' && state.talk && canceledAt < state.talk.endsAt) {
    // Answered before the cancel: the conversation is cut where the cancel came, and ends as the client's.
    const talkMs = Math.max(0, Math.min(state.talk.talkMs, Math.round((canceledAt - state.talk.answeredAt) / carrier.timeScale)));
    state.talk = { ...state.talk, talkMs, endsAt: canceledAt, reason: 'canceled', transferTo: undefined };
  }
  if (current.status === 'in_progress' && state.talk && now >= state.talk.endsAt) {
    const transferTo = state.talk.transferTo;
    // The carrier ends the line, or keeps trying durably: a step that fails here is stepped again. A scripted
    // conversation that ends in a handover leaves it up.
    if (transferTo === undefined) await carrier.hangUp(current.carrier_ref!, state.line, now);
    const handover = transferTo === undefined ? {} : { transferred_to: transferTo, transferred_at: now };
    await finish(ctx, current, state.talk, { type: 'conversation_over', at: now, connectedMs: state.talk.talkMs }, handover);
    return;
  }
  // A machine taking a message has answered: the carrier is not silent, and the message has its own end.
  const watchdogAt = current.status === 'dialing' && !state.voicemail ? current.dial_attempted_at! + Math.round(settings.watchdogSec * 1000 * carrier.timeScale) : Infinity;
  if (current.status === 'dialing' && now >= watchdogAt) {
    await carrier.hangUp(current.carrier_ref!, state.line, now);
    await ctx.apply(current, { type: 'carrier_silent', at: now }, { engine_state: JSON.stringify(state) }, null);
    return;
  }
  const next = Math.min(news.nextCheckAt ?? Infinity, state.talk?.endsAt ?? Infinity, state.voicemail?.endsAt ?? Infinity, watchdogAt);
  await ctx.commit(current, now, { set: { engine_state: JSON.stringify(state) }, nextRunAt: Number.isFinite(next) ? next : now + settings.idlePollMs });
}

/**
 * Applies one line event; returns the updated row, or 'terminal' when the call ended. The answer is committed
 * with the line as it was before this look, so a worker carrying on after this step was cut short reads again
 * what came after the answer (a drop); the answer it then reads again is ignored.
 */
async function onLineEvent(ctx: StepContext, row: CallRow, state: EngineState, e: LineEvent, lineBefore: unknown): Promise<CallRow | 'terminal'> {
  if (e.kind === 'answered') {
    if (row.status !== 'dialing') return row;
    state.talk = await planTalk(ctx, row, e.at);
    // A scripted conversation's turns are written now, each to be heard on the streams as its end is reached, and
    // its uses of client tools with them, each shown as the turn that led to it is heard.
    const { timeScale } = ctx.deps.carrier;
    const turns: NewRow[] = scriptedTurnRows(row.id, state.talk.turns, e.at, timeScale).map((values) => ({ into: 'call_turns' as const, values, keepExisting: ['call_id', 'seq'] }));
    const uses = scriptedToolCalls(row.id, state.talk.turns, e.at, timeScale);
    turns.push(...uses.rows.map((values) => ({ into: 'call_tool_calls' as const, values, keepExisting: ['call_id', 'seq'] })));
    const set = { engine_state: JSON.stringify({ ...state, line: lineBefore }), ...(uses.list.length > 0 ? { tool_calls_json: JSON.stringify(uses.list) } : {}) };
    return ctx.apply(row, { type: 'answered', at: e.at, by: e.by }, set, state.talk.endsAt, true, turns);
  }
  if (e.kind === 'greeting_ended') {
    if (row.status !== 'dialing' || state.voicemail) return row;
    if (row.voicemail_message === null) {
      await ctx.apply(row, { type: 'ended', at: e.at, outcome: 'voicemail', by: 'machine' }, { engine_state: JSON.stringify(state) }, null);
      return 'terminal';
    }
    state.voicemail = await planMessage(ctx, row, state, e);
    return row;
  }
  if (e.kind === 'ended') {
    if (row.status !== 'dialing') return row; // the line ended after the conversation: nothing more to say
    await ctx.apply(row, { type: 'ended', at: e.at, outcome: e.outcome, error: e.error, by: e.by }, { engine_state: JSON.stringify(state) }, null);
    return 'terminal';
  }
  if (row.status !== 'in_progress' || !state.talk) return row;
  const connectedMs = Math.max(0, Math.min(state.talk.talkMs, Math.round((e.at - state.talk.answeredAt) / ctx.deps.carrier.timeScale)));
  if (e.kind === 'hung_up') {
    await finish(ctx, row, { ...state.talk, talkMs: connectedMs, reason: 'hung_up' }, { type: 'conversation_over', at: e.at, connectedMs });
  } else {
    await finish(ctx, row, state.talk, { type: 'dropped', at: e.at, connectedMs });
  }
  return 'terminal';
}

/** Whether a live agent on the answered call has handed it over to a person. */
const handedOver = (row: CallRow, talk: Talk | undefined): boolean => row.status === 'in_progress' && talk?.live === true && row.transferred_to !== null;

/** The call with the handover its live agent has recorded since the step read it, if any. */
async function withHandover(ctx: StepContext, row: CallRow, talk: Talk | undefined): Promise<CallRow> {
  if (row.status !== 'in_progress' || !talk?.live || row.transferred_to !== null) return row;
  const handover = await readTransferred(ctx.deps.store.db, row.id);
  return handover?.transferred_to ? { ...row, ...handover } : row;
}

/**
 * The live agent handed the call over to a person and left it: the call completes there, its line left up. The
 * time is the agent's, kept within the call's answer and its end on this clock (another process's clock, or a
 * test's, may run apart), and is the call's end and its transferredAt alike.
 */
async function finishHandover(ctx: StepContext, row: CallRow, state: EngineState, now: number): Promise<void> {
  const talk = state.talk!;
  const at = Math.max(talk.answeredAt, Math.min(Number(row.transferred_at ?? now), now, talk.endsAt));
  const connectedMs = Math.max(0, Math.min(talk.talkMs, Math.round((at - talk.answeredAt) / ctx.deps.carrier.timeScale)));
  const set = { engine_state: JSON.stringify(state), transferred_to: row.transferred_to, transferred_at: at };
  await finish(ctx, row, { ...talk, talkMs: connectedMs, reason: 'transferred' }, { type: 'conversation_over', at, connectedMs }, set);
}

/**
 * At the answer: how long the call may talk — the maximum duration or the minute allowance left — and, for a
 * scripted agent, the whole conversation, which ends at the script's end, where a hold outlasts the call's hold
 * budget (the agent hangs up there), or at that limit, whichever comes first.
 */
async function planTalk(ctx: StepContext, row: CallRow, answeredAt: number): Promise<Talk> {
  const { agent, carrier, settings, store } = ctx.deps;
  const maxMs = settings.maxCallDurationSec * 1000;
  const capMs = talkAllowanceMs(await accountAllowance(store.db, row.account_id, answeredAt));
  const limitMs = Math.min(maxMs, capMs);
  const limitReason: EndReason = limitMs === maxMs ? 'max_duration' : 'minute_cap';
  const endsAt = (ms: number) => answeredAt + Math.round(ms * carrier.timeScale);
  if (isLive(agent)) return { answeredAt, turns: [], talkMs: limitMs, reason: limitReason, endsAt: endsAt(limitMs), live: true };
  const turns = timeTurns(await agent.converse({ ...briefOf(row), ...clientToolsOf(row) }));
  const holdEndsAt = holdRunsOut(turns, holdMaxWaitMs(row));
  const scriptMs = holdEndsAt ?? (turns.length ? turns[turns.length - 1].endMs : 0);
  const talkMs = Math.min(scriptMs, limitMs);
  // A script that ends in a handover (a transfer) ends it only when the call is not cut short first (by its limit,
  // or by a wait on hold that runs out).
  const transferTo = scriptMs <= limitMs && holdEndsAt === null && turns.at(-1)?.handover ? transferOf(row)?.to : undefined;
  const reason: EndReason = scriptMs > limitMs ? limitReason : holdEndsAt !== null ? 'hold_timeout' : transferTo ? 'transferred' : 'hung_up';
  return { answeredAt, turns, talkMs, reason, endsAt: endsAt(talkMs), ...(transferTo ? { transferTo } : {}) };
}

/** Where the first wait on hold longer than the budget runs out (the agent hangs up there), or null when none does. */
function holdRunsOut(turns: readonly TimedTurn[], budgetMs: number): number | null {
  const hold = turns.find((t) => isHoldTurn(t) && t.endMs - t.startMs > budgetMs);
  return hold ? hold.startMs + budgetMs : null;
}
