// The default agent: a fixed script spoken to the simulated callee. It opens with the objective in its own words
// (conversation/objective.ts), asks for every requested field by its label, or, with none requested, asks the
// objective's own question or has the callee confirm the message; it reacts to "don't know", and ends politely. A
// callee who asks not to be called again (the sandbox's 555-0118) is answered with an apology and a goodbye, and
// nothing more is asked. A callee who asks for a person (555-0128) is transferred on a call placed with a transfer
// (cold: at once; warm: after the agent has called the person, who takes the call unless the number is 555-0129,
// which nobody answers: then the agent says so and carries on), and is told politely that the agent cannot on any
// other. A callee who asks a question first (555-0131) is answered through the call's first client tool, asked
// before the conversation is laid out, with the question as its first string parameter: the tool's `answer` (or
// its `result`, for an answer that is not an object) is said, and without a tool, or when it fails or says
// neither, the agent says it will follow up; the callee then thanks it and answers the opening. The context only
// shapes the wording (it is for the agent, not the recipient, so it is never read out). On the sandbox's business
// lines a menu or a hold comes first (conversation/sandbox-menus.ts): the agent presses the key, or says the option,
// that fits the objective as it reads the menu (menu-choice.ts), or waits on hold, and the person who then comes on
// hears the script.
import { pino, type Logger } from 'pino';
import type { FieldDefinition, ToolCall } from '../generated/types.gen.js';
import { sandboxScenario } from '../numbers/sandbox-numbers.js';
import type { StoredTool } from '../store/calls-repo.js';
import { timeTurns, type CallBrief, type LineBrief, type Turn } from '../conversation/conversation.js';
import { HOLD_ANNOUNCEMENT, HOLD_MUSIC_MS, type MenuStep, SandboxMenu } from '../conversation/sandbox-menus.js';
import { HOLD_TURN_TEXT, pressedTurnText } from '../conversation/turn-marks.js';
import { dtmfDurationMs } from '../tones/dtmf-tones.js';
import type { ClientTools } from './client-tools.js';
import { chooseOption, readLine } from './menu-choice.js';
import type { ToolOutput } from './tools.js';
import type { Agent } from '../conversation/agent.js';
import { fieldLabel, fieldType } from '../conversation/field-label.js';
import { lexiconFor, type Lexicon } from '../conversation/lexicon.js';
import { objectiveOpening } from '../conversation/objective.js';
import { seededRandom, type SeededRandom } from './seeded-random.js';
import { SimulatedCallee } from './simulated-callee.js';
import { TRANSFER_NOTES } from './transfer.js';

/** Talk time of the sandbox's long call: 15 minutes, well past the default 600 s maximum duration. */
export const LONG_CALL_TALK_MS = 15 * 60_000;

export interface ScriptedAgentOptions {
  /**
   * Keep every conversation going (the callee rambles between answers) until it lasts at least this long at the
   * speaking rate of `timeTurns`. By default 0, except on the sandbox's long-call number (555-0115), which always
   * talks for LONG_CALL_TALK_MS.
   */
  minTalkMs?: number;
  /** Asks the call's client tools (the sandbox's 555-0131); without, the agent says it will follow up. */
  clientTools?: ClientTools;
  /** Where the tools' uses are logged. */
  logger?: Logger;
}

/** What the agent learnt from a client's tool for the callee's question, and the use as the record keeps it. */
export interface LookedUp {
  call: ToolCall;
  /** The words of the answer to say; null when there are none to say (the agent follows up). */
  answer: string | null;
}

const URGENT = /\b(urgent|urgently|asap|as soon as possible|quickly|today|time-sensitive)\b/i;

export class ScriptedAgent implements Agent {
  readonly name = 'scripted';
  private readonly minTalkMs: number;
  private readonly logger: Logger;

  constructor(private readonly options: ScriptedAgentOptions = {}) {
    this.minTalkMs = options.minTalkMs ?? 0;
    this.logger = options.logger ?? pino({ level: 'silent' });
  }

  async converse(brief: LineBrief): Promise<Turn[]> {
    const asks = brief.to !== undefined && sandboxScenario(brief.to) === 'asks_question';
    return scriptedConversation(brief, this.minTalkMs, asks ? await this.lookUp(brief, new SimulatedCallee(brief).question()) : null);
  }

  /** Asks the call's first client tool the callee's question; null when the call has none (or no tools are at hand). */
  private async lookUp(brief: LineBrief, question: string): Promise<LookedUp | null> {
    const own = brief.clientTools;
    const tool = own?.tools[0];
    if (!own || !tool || !this.options.clientTools) return null;
    const { call, output } = await this.options.clientTools.use(brief.callId, tool, own, questionArguments(tool, question), { logger: this.logger });
    return { call, answer: spokenAnswer(output) };
  }
}

/** The tool's arguments for a question: the question as its first string parameter; none when it has no such parameter. */
export function questionArguments(tool: StoredTool, question: string): Record<string, unknown> {
  const properties = (tool.parameters.properties ?? {}) as Record<string, { type?: unknown }>;
  const name = Object.keys(properties).find((p) => properties[p]?.type === 'string');
  return name === undefined ? {} : { [name]: question };
}

/** The words of a tool's output to say: its `answer` string, or its `result` when that is a string or number. */
function spokenAnswer(output: ToolOutput): string | null {
  const said = typeof output.answer === 'string' ? output.answer : typeof output.result === 'string' || typeof output.result === 'number' ? String(output.result) : null;
  const words = said?.replace(/\s+/g, ' ').trim();
  return words ? words : null;
}

/**
 * The whole scripted conversation of a call, both speakers, as `converse` holds it: what comes before a person
 * (scriptedPrelude), then the talk with the person. `minTalkMs` as in ScriptedAgentOptions; `lookedUp`, what a
 * client's tool answered the callee's question (555-0131), null when none did.
 */
export function scriptedConversation(brief: LineBrief, minTalkMs = 0, lookedUp: LookedUp | null = null): Turn[] {
  return [...scriptedPrelude(brief), ...scriptedTalk(brief, minTalkMs, lookedUp)];
}

/** A menu that never puts the caller through would loop: the script stops following it after this many prompts. */
const MAX_MENU_PROMPTS = 6;

/**
 * What comes before a person on the sandbox's business lines: the menu's prompts and the agent's keys (or spoken
 * option) until it connects, or the queue's recording and the wait on hold. Empty on every other number.
 */
export function scriptedPrelude(brief: CallBrief): Turn[] {
  const scenario = brief.to === undefined ? null : sandboxScenario(brief.to);
  const line = (text: string): Turn => ({ speaker: 'callee', text });
  if (scenario === 'hold') return [line(HOLD_ANNOUNCEMENT), { speaker: 'agent', text: HOLD_TURN_TEXT, ms: HOLD_MUSIC_MS }];
  if (scenario !== 'key_menu' && scenario !== 'spoken_menu') return [];
  const menu = new SandboxMenu(scenario === 'key_menu' ? 'keys' : 'spoken');
  const turns: Turn[] = [];
  let said = menu.opening();
  for (let prompts = 0; prompts < MAX_MENU_PROMPTS; prompts++) {
    turns.push(line(said));
    const heard = readLine(said);
    let next: MenuStep | null = null;
    if (heard.kind === 'key_menu') {
      const { key } =
        heard.options[
          chooseOption(
            heard.options.map((o) => o.label),
            brief.objective,
          )
        ]!;
      turns.push({ speaker: 'agent', text: pressedTurnText([key]), ms: dtmfDurationMs(key) });
      next = menu.pressed(key);
    } else if (heard.kind === 'spoken_menu') {
      const option = heard.options[chooseOption(heard.options, brief.objective)]!;
      turns.push({ speaker: 'agent', text: `${option.charAt(0).toUpperCase()}${option.slice(1)}.` });
      next = menu.said(option);
    }
    if (!next) break;
    said = next.say;
    if (next.connected) {
      turns.push(line(said));
      break;
    }
  }
  return turns;
}

/**
 * The scripted conversation with the person who answers, both speakers; the scripted chat model plays its agent
 * lines one reply at a time, and the live sandbox's callee its callee lines. `minTalkMs` as in ScriptedAgentOptions.
 */
export function scriptedTalk(brief: LineBrief, minTalkMs = 0, lookedUp: LookedUp | null = null): Turn[] {
  const callee = new SimulatedCallee(brief);
  const rng = seededRandom(`agent:${brief.callId}`);
  // Stretches of conversation between which the long script lets the callee digress.
  const stretches = script(brief, callee, rng, lookedUp);
  const longCall = brief.to !== undefined && sandboxScenario(brief.to) === 'long';
  const talkMs = Math.max(minTalkMs, longCall ? LONG_CALL_TALK_MS : 0);
  if (talkMs <= 0) return stretches.flat();
  return ramble(stretches, callee, rng, talkMs);
}

function script(brief: LineBrief, callee: SimulatedCallee, rng: SeededRandom, lookedUp: LookedUp | null): Turn[][] {
  const lex = callee.lexicon;
  const agent = (text: string): Turn => ({ speaker: 'agent', text });
  const said = (text: string): Turn => ({ speaker: 'callee', text });
  const words = objectiveOpening(lex.agent.objective, stripEnd(brief.objective), brief.fields.length > 0);
  const opening = [lex.agent.hello, words.purpose];
  // The context's line goes after the purpose, or before the question that is the purpose.
  if (brief.context?.trim()) opening.splice(words.question ? 1 : 2, 0, URGENT.test(brief.context) ? lex.agent.urgent : lex.agent.background);
  if (brief.fields.length > 0) opening.push(rng.pick(lex.agent.moment));
  else if (words.confirm) opening.push(words.confirm);
  if (brief.to !== undefined && sandboxScenario(brief.to) === 'opts_out') {
    return [[said(callee.hello()), agent(opening.join(' ')), said(callee.optOut())], [agent(lex.agent.optOutAck)]];
  }
  let reaction = '';
  const stretches: Turn[][] = [];
  const hello = said(callee.hello());
  const asksQuestion = brief.to !== undefined && sandboxScenario(brief.to) === 'asks_question';
  /** The opening and the callee's reply to it; on 555-0131 the callee's question and its answer come first. */
  const opened = (reply: string): Turn[][] =>
    asksQuestion
      ? [
          [hello, agent(opening.join(' ')), { ...said(callee.question()), ...(lookedUp ? { toolCall: lookedUp.call } : {}) }],
          [agent(lookedUp?.answer ? lex.agent.toolAnswer(sentence(lookedUp.answer)) : lex.agent.followUp), said(`${callee.answered()} ${reply}`)],
        ]
      : [[hello, agent(opening.join(' ')), said(reply)]];
  if (brief.to !== undefined && sandboxScenario(brief.to) === 'asks_for_person') {
    const first = [hello, agent(opening.join(' ')), said(callee.asksForPerson())];
    const transfer = brief.transfer;
    const note = (text: string, handover = false): Turn => ({ speaker: 'agent', text, note: true, ...(handover ? { handover } : {}) });
    if (!transfer) reaction = lex.agent.declineTransfer;
    // The callee's thanks, as a goodbye, is not heard on a live line: the agent hands the line over first.
    else if (transfer.mode === 'cold') return [[...first, agent(lex.agent.transferring), said(callee.thankYou()), note(TRANSFER_NOTES.transferred, true)]];
    else {
      first.push(agent(lex.agent.holdForTransfer), said(callee.willHold()), note(TRANSFER_NOTES.calling(scriptedBriefing(brief))));
      if (sandboxScenario(transfer.to) !== 'never_answers') {
        return [[...first, note(TRANSFER_NOTES.outcome.accepted), agent(lex.agent.connecting), note(TRANSFER_NOTES.transferred, true)]];
      }
      first.push(note(TRANSFER_NOTES.outcome.no_answer));
      reaction = lex.agent.transferFailed;
    }
    stretches.push(first);
    // With no field to ask, the objective itself is still to be served: its question asked again, or its message
    // confirmed, after the agent's answer to the request.
    if (brief.fields.length === 0 && words.question) {
      const reply = callee.answerObjective(words.question.text, words.question.yesNo);
      stretches.push([agent(`${reaction} ${words.purpose}`), said(reply.text)]);
      reaction = rng.pick(reply.value === null ? lex.agent.noProblem : lex.agent.thanks);
    } else if (brief.fields.length === 0 && words.confirm) {
      stretches.push([agent(`${reaction} ${words.confirm}`), said(callee.replyToOpening(false))]);
      reaction = '';
    }
  } else if (words.question) {
    const reply = callee.answerObjective(words.question.text, words.question.yesNo);
    const thanks = rng.pick(reply.value === null ? lex.agent.noProblem : lex.agent.thanks);
    return [...opened(reply.text), [agent([thanks, lex.agent.allDone, lex.agent.goodbye].join(' ')), said(callee.goodbye())]];
  } else {
    stretches.push(...opened(callee.replyToOpening(brief.fields.length > 0)));
  }
  brief.fields.forEach((field, i) => {
    const question = ask(lex, field, i);
    const reply = callee.answer(field.name);
    stretches.push([agent(reaction ? `${reaction} ${question}` : question), said(reply.text)]);
    reaction = rng.pick(reply.value === null ? lex.agent.noProblem : lex.agent.thanks);
  });
  const closing = [reaction, lex.agent.allDone, lex.agent.goodbye].filter(Boolean).join(' ');
  stretches.push([agent(closing), said(callee.goodbye())]);
  return stretches;
}

/** What the scripted agent tells the person a warm transfer calls. */
export function scriptedBriefing(brief: Pick<CallBrief, 'objective' | 'language'>): string {
  return lexiconFor(brief.language).agent.briefing(stripEnd(brief.objective));
}

function ask(lex: Lexicon, field: FieldDefinition, index: number): string {
  return lex.agent.ask(fieldLabel(field), fieldType(field), index);
}

/** Words ending as a sentence does, so the line never ends as a question the analyst would read as one. */
function sentence(text: string): string {
  return /[.!。]$/u.test(text) ? text : `${stripEnd(text)}.`;
}

function stripEnd(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.!?;:,]+$/u, '');
}

/**
 * The long script: after each callee line that ends a stretch (but the last), the callee digresses, the agent
 * listening, spread evenly until the call lasts `minTalkMs`. Answers still follow their questions directly.
 */
function ramble(stretches: Turn[][], callee: SimulatedCallee, rng: SeededRandom, minTalkMs: number): Turn[] {
  const gaps = stretches.length - 1;
  const after: Turn[][] = stretches.map(() => []);
  let talkMs = timeTurns(stretches.flat()).at(-1)?.endMs ?? 0;
  for (let k = 0; talkMs < minTalkMs; k += 1) {
    const digression: Turn[] = [
      { speaker: 'agent', text: rng.pick(callee.lexicon.agent.listening) },
      { speaker: 'callee', text: callee.ramble() },
    ];
    // What it adds wherever it goes: its turns and the pauses before them (timed after a stand-in turn).
    const timed = timeTurns([{ speaker: 'callee', text: '' }, ...digression]);
    talkMs += timed[timed.length - 1].endMs - timed[0].endMs;
    after[k % gaps].push(...digression);
  }
  return stretches.flatMap((stretch, i) => [...stretch, ...after[i]]);
}
