// The sandbox's scripted agent behind the chat-model port, so a whole call runs offline on a live line: the
// cascaded session asks it for each reply as it would a real model, and it plays the agent's lines of the call's
// script (scripted-agent.ts) in order. Which line is due is read from the messages alone, not from state kept
// between replies: the k-th reply is the k-th agent line, k being the assistant messages with text so far (a
// reply the session cut short still counts: it was said). Replies to the session's silence prompt are outside
// the script and do not count.
//
// After the last line (the goodbye) it calls end_call. On the sandbox's opt-out number the callee asks not to be
// called again; the answer to that is a record_opt_out call, and once the tool's result is back, the
// acknowledgement and end_call. A line the script follows with a transfer's note comes with transfer_call: with
// the scripted briefing before the call to the person, without one before the handover (in place of end_call).
// What a business line says before its person (menu-choice.ts) is answered as the text sandbox's script answers
// it: a key menu with press_keys, a spoken menu with the option's word, a hold with wait_on_hold, a recording that
// puts the call through with keep_listening; none of it counts as a line of the script. Everything follows from
// the brief and the messages: the same call gives the same replies, whatever the clock says.
import type { LineBrief } from '../conversation/conversation.js';
import { sandboxScenario } from '../numbers/sandbox-numbers.js';
import { chooseOption, readLine } from './menu-choice.js';
import { scriptedBriefing, scriptedTalk } from './scripted-agent.js';
import { END_CALL_TOOL, KEEP_LISTENING_TOOL, OPT_OUT_TOOL, PRESS_KEYS_TOOL, WAIT_ON_HOLD_TOOL } from './tools.js';
import { TRANSFER_TOOL } from './transfer.js';
import type { ChatDelta, ChatMessage, ChatModel, ChatRequest } from '../chat-model/chat-model.js';

/** Words in each text delta: a line streams as a model's would, in several pieces. */
const WORDS_PER_DELTA = 3;
/** The lexicons hold no such line; a silent line is asked in English. */
const STILL_THERE = 'Are you still there?';
/** What the session's silence prompt says (silence-watch.ts's SILENCE_PROMPT, and any like it). */
const SILENCE_PROMPT = /\bline has been silent\b/i;

export interface ScriptedChatModelOptions {
  /** As ScriptedAgentOptions.minTalkMs: the script's length, the long-call number aside. */
  minTalkMs?: number;
}

export class ScriptedChatModel implements ChatModel {
  readonly name = 'scripted';
  private readonly minTalkMs: number;

  constructor(options: ScriptedChatModelOptions = {}) {
    this.minTalkMs = options.minTalkMs ?? 0;
  }

  async *reply(request: ChatRequest): AsyncIterable<ChatDelta> {
    for (const delta of this.plan(request)) {
      if (request.signal.aborted) return;
      yield delta;
    }
  }

  /** The whole reply to the messages so far. */
  private plan({ brief, messages }: ChatRequest): ChatDelta[] {
    const last = messages.at(-1);
    if (last && (last.role === 'system' || last.role === 'user') && SILENCE_PROMPT.test(last.content)) return spoken(STILL_THERE);
    if (last?.role === 'user') {
      const at = messages.length;
      const heard = readLine(last.content);
      if (heard.kind === 'key_menu') {
        const { key } =
          heard.options[
            chooseOption(
              heard.options.map((o) => o.label),
              brief.objective,
            )
          ]!;
        return [toolCall(PRESS_KEYS_TOOL, at, { digits: key })];
      }
      if (heard.kind === 'spoken_menu') {
        const option = heard.options[chooseOption(heard.options, brief.objective)]!;
        return spoken(`${option.charAt(0).toUpperCase()}${option.slice(1)}.`);
      }
      if (heard.kind === 'hold') return [toolCall(WAIT_ON_HOLD_TOOL, at, {})];
      if (heard.kind === 'recording') return [toolCall(KEEP_LISTENING_TOOL, at, {})];
    }
    const script = scriptedLines(brief, this.minTalkMs);
    const lines = script.map((l) => l.text);
    const k = linesSaid(messages);
    if (k >= lines.length) return [endCall(k, 'the conversation is over')];
    const optsOut = brief.to !== undefined && sandboxScenario(brief.to) === 'opts_out';
    const lastLine = k === lines.length - 1;
    if (optsOut && lastLine) {
      // The callee's request is recorded first; the acknowledgement follows the tool's answer.
      if (!answersOptOut(messages)) return [{ type: 'tool_call', call: { id: callId(OPT_OUT_TOOL, k), name: OPT_OUT_TOOL, arguments: '{}' } }];
      return [...spoken(lines[k]), endCall(k, 'the callee asked not to be called again')];
    }
    const after = script[k].after;
    if (after === 'consult') return [...spoken(lines[k]), transferCall(k, { briefing: scriptedBriefing(brief) })];
    if (after === 'handover') return [...spoken(lines[k]), transferCall(k, {})];
    return lastLine ? [...spoken(lines[k]), endCall(k, 'the script is done')] : spoken(lines[k]);
  }
}

/** The agent's lines of the call's script, in order. */
export function agentLines(brief: LineBrief, minTalkMs = 0): string[] {
  return scriptedLines(brief, minTalkMs).map((l) => l.text);
}

/**
 * The agent's lines with the person (after any menu or hold), each with the transfer the script has it make with
 * it: the agent's next turn being a note, the handover's (the agent leaves) or the call to the person's (what the
 * callee says meanwhile comes between).
 */
function scriptedLines(brief: LineBrief, minTalkMs: number): Array<{ text: string; after: 'consult' | 'handover' | null }> {
  const turns = scriptedTalk(brief, minTalkMs);
  return turns.flatMap((t, i) => {
    if (t.speaker !== 'agent' || t.note) return [];
    const next = turns.slice(i + 1).find((u) => u.speaker === 'agent');
    return [{ text: t.text, after: next?.handover ? 'handover' : next?.note ? 'consult' : null }];
  });
}

/** How many script lines the agent has said: its messages with text, but for answers to a silence prompt or to a menu. */
function linesSaid(messages: readonly ChatMessage[]): number {
  let said = 0;
  for (let i = 0; i < messages.length; i += 1) {
    const m = messages[i];
    const before = messages[i - 1];
    const promptedBySilence = before !== undefined && (before.role === 'system' || before.role === 'user') && SILENCE_PROMPT.test(before.content);
    const toMenu = before?.role === 'user' && readLine(before.content).kind !== 'person';
    if (m.role === 'assistant' && m.content && !promptedBySilence && !toMenu) said += 1;
  }
  return said;
}

/** Whether the last message is record_opt_out's result. */
function answersOptOut(messages: readonly ChatMessage[]): boolean {
  const last = messages.at(-1);
  if (last?.role !== 'tool') return false;
  return messages.some((m) => m.role === 'assistant' && m.tool_calls?.some((c) => c.id === last.tool_call_id && c.function.name === OPT_OUT_TOOL));
}

/** A line as text deltas of a few words each; joined, they are the line exactly. */
function spoken(line: string): ChatDelta[] {
  const words = line.match(/\S+\s*/g) ?? [];
  const deltas: ChatDelta[] = [];
  for (let i = 0; i < words.length; i += WORDS_PER_DELTA) deltas.push({ type: 'text', text: words.slice(i, i + WORDS_PER_DELTA).join('') });
  return deltas;
}

function endCall(k: number, reason: string): ChatDelta {
  return { type: 'tool_call', call: { id: callId(END_CALL_TOOL, k), name: END_CALL_TOOL, arguments: JSON.stringify({ reason }) } };
}

function transferCall(k: number, args: Record<string, string>): ChatDelta {
  return { type: 'tool_call', call: { id: callId(TRANSFER_TOOL, k), name: TRANSFER_TOOL, arguments: JSON.stringify(args) } };
}

/** A call of a tool that answers the line before a person, its id from where it stands in the conversation. */
function toolCall(tool: string, at: number, args: Record<string, unknown>): ChatDelta {
  return { type: 'tool_call', call: { id: callId(tool, at), name: tool, arguments: JSON.stringify(args) } };
}

/** A tool call's id, the same for the same call at the same point of the script. */
const callId = (tool: string, k: number): string => `scripted_${tool}_${k}`;
