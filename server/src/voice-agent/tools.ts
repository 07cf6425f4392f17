// The tools an agent on a live line may call: each a name, what the model is told of it, its parameters as JSON
// Schema, and what it does. An agent offers the registry's tools to its model and hands each call to the tool of
// that name; a tool acts through what the call gives it (ToolContext), so a new tool is one entry here. A call
// placed with tools of the client's own has them too (client-tools.ts): its registry is these and those.
import type { Logger } from 'pino';
import type { ToolCall } from '../generated/types.gen.js';
import type { LiveLine } from '../telephony/live-line.js';
import type { PressOutcome } from './keypad.js';

export const END_CALL_TOOL = 'end_call';
export const OPT_OUT_TOOL = 'record_opt_out';
export const VOICEMAIL_TOOL = 'voicemail_detected';
export const PRESS_KEYS_TOOL = 'press_keys';
export const WAIT_ON_HOLD_TOOL = 'wait_on_hold';
export const KEEP_LISTENING_TOOL = 'keep_listening';

/** A JSON Schema object (a tool's parameters). */
export type JsonSchema = Readonly<Record<string, unknown>>;
/** What a tool answers the model with: the function's output, as JSON. */
export type ToolOutput = Record<string, unknown>;

/**
 * How the agent leaves a call it hands over to a person (transfer.ts): the line's move once the agent's words have
 * played, and what undoes the way there when the move does not come (the line ended first).
 */
export interface Handover {
  /** The number the call is handed over to. */
  to: string;
  move(): Promise<void>;
  abandon(): void;
}

/** What a call gives the tool the model called. */
export interface ToolContext {
  callId: string;
  line: LiveLine;
  logger: Logger;
  /** The call's language (BCP-47). */
  language?: string;
  /** Hangs up once what the agent said so far has been heard. */
  endCall(): void;
  /** Records, durably, that the callee asked not to be called again. */
  recordOptOut(): Promise<void>;
  /** Records, durably, that the line is an answering machine's greeting (the engine ends the call as voicemail). */
  recordVoicemail?(): Promise<void>;
  /** Presses keys on the line after what the agent has said (keypad.ts); absent where the agent cannot. */
  pressKeys?(digits: string): Promise<PressOutcome>;
  /** The agent is on hold: the model is not driven until someone speaks (hold.ts); absent where the agent cannot wait so. */
  waitOnHold?(): void;
  /** Records, durably, a use of a client tool (the record's toolCalls). */
  recordToolCall?(call: ToolCall): Promise<void>;
  /** Leaves the call once what the agent has said has played, handing the line over instead of hanging up. */
  handOver?(handover: Handover): void;
  /** Writes a turn of the agent's that is no speech (`[…]`), at the call's time now. */
  note?(text: string): void;
  /** Whether the account's do-not-call list holds the number now. */
  listed?(e164: string): Promise<boolean>;
  /** Aborted when the session ends: a tool still working gives up. */
  signal?: AbortSignal;
}

export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  /**
   * The tool works away from the call (a client's tool, over the network) and may take a while: an agent fills a
   * long wait with a word to the callee.
   */
  readonly remote?: boolean;
  /**
   * The tool's answer is given to the model without asking it to go on: what the line says next (a menu's next
   * prompt, a person) is what it answers, so it never talks over a menu or into a hold.
   */
  readonly quiet?: boolean;
  /**
   * Does what the model asked. What it returns goes back to the model as the function's output and the model goes
   * on; nothing is returned when no answer is due (the call is ending).
   */
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput | undefined> | undefined;
}

/** A tool as the model is offered it (the same in both realtime interfaces). */
export interface OfferedTool {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonSchema;
}

export class ToolRegistry {
  private readonly byName: ReadonlyMap<string, Tool>;
  /** The tools as the model is offered them, in order. */
  readonly offered: readonly OfferedTool[];

  constructor(private readonly tools: readonly Tool[]) {
    this.byName = new Map(tools.map((t) => [t.name, t]));
    this.offered = tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters }));
  }

  find(name: string): Tool | undefined {
    return this.byName.get(name);
  }

  /** These tools and `more` after them (a name already here keeps its tool). */
  with(more: readonly Tool[]): ToolRegistry {
    return more.length === 0 ? this : new ToolRegistry([...this.tools, ...more.filter((t) => !this.byName.has(t.name))]);
  }
}

/** The model hangs up with it, after its goodbye; the goodbye is let play out first. */
export const END_CALL: Tool = {
  name: END_CALL_TOOL,
  description: 'Hang up the phone call. Call it only after you have said goodbye.',
  parameters: { type: 'object', properties: { reason: { type: 'string', description: 'Why the call is ending, in a few words.' } }, required: [] },
  run(_args, ctx) {
    ctx.endCall();
    return undefined;
  },
};

/**
 * The callee asked not to be called again. The opt-out is made durable before the model is answered, so a model
 * that hangs up at once still leaves it recorded; the model then apologises and ends the call, and the number
 * goes on the do-not-call list as the call ends.
 */
export const RECORD_OPT_OUT: Tool = {
  name: OPT_OUT_TOOL,
  description:
    'Record that the person asked not to be called again (to stop calling, to be taken off the list). Call it as soon as they ask; then apologise briefly, confirm they will not be called again, say goodbye and call end_call.',
  parameters: { type: 'object', properties: {}, required: [] },
  async run(_args, ctx) {
    const recorded = await ctx.recordOptOut().then(
      () => true,
      (err: Error) => {
        ctx.logger.error({ callId: ctx.callId, err: err.message }, 'could not record the opt-out; the analyst reads it from the transcript');
        return false;
      },
    );
    return recorded ? { recorded: true } : { recorded: false, note: 'Say you will pass the request on.' };
  },
};

/**
 * The agent hears a voicemail greeting rather than a person. Recorded durably for the engine, which ends the call as
 * voicemail (hanging up, or leaving the placement's message after the beep); the model is not answered, so it says
 * nothing more.
 */
export const VOICEMAIL_DETECTED: Tool = {
  name: VOICEMAIL_TOOL,
  description:
    'Call it, and say nothing, when what you hear is an answering machine or voicemail greeting (asks to leave a message, says nobody can take the call, a beep) rather than a person. Never call it for a person, even one who greets you at length.',
  parameters: { type: 'object', properties: {}, required: [] },
  async run(_args, ctx) {
    await ctx.recordVoicemail?.().catch((err: Error) => ctx.logger.error({ callId: ctx.callId, err: err.message }, 'could not record the voicemail greeting'));
    return undefined;
  },
};

/** What press_keys takes: 1 to 32 keys and pauses, as Twilio's SendDigits does (A-D in either case; W a 1 s pause). */
const PRESSABLE = /^[0-9*#A-Dw]{1,32}$/i;

/**
 * The agent presses keys on the line: an automated menu's choices, an extension, a number it was asked to type. The
 * keys go out as tones after what the agent has said, and the model is answered once they have played, so it does
 * not talk on as though the menu had heard them when it has not. Keys it cannot press are refused in the answer, for
 * the model to correct.
 */
export const PRESS_KEYS: Tool = {
  name: PRESS_KEYS_TOOL,
  description:
    'Press keys on the phone keypad, as tones on the line, after what you have just said: to choose in an automated menu ("press 1 for sales"), dial an extension, or type a number you were asked to enter. You are answered once the keys have played; say nothing then, and answer what the line says next.',
  quiet: true,
  parameters: {
    type: 'object',
    properties: { digits: { type: 'string', description: 'The keys in order: 0-9, * and #, A-D; w for a half-second pause between keys. At most 32.' } },
    required: ['digits'],
  },
  async run(args, ctx) {
    const digits = typeof args.digits === 'string' ? args.digits.replace(/\s+/g, '') : '';
    if (!PRESSABLE.test(digits) || digits.toLowerCase().replace(/w/g, '') === '') {
      return { error: 'digits must be 1 to 32 keys of 0-9, *, #, A-D, with w for a half-second pause; nothing was pressed.' };
    }
    if (!ctx.pressKeys) return { error: 'This line cannot press keys; nothing was pressed.' };
    const keys = digits.replace(/[a-d]/g, (c) => c.toUpperCase());
    const outcome = await ctx.pressKeys(keys);
    if (outcome === 'line_ended') return undefined;
    if (outcome === 'cut_off') return { sent: null, note: 'The keys were cut off: the line was cleared when the other side spoke over you. Press them again if they are still wanted.' };
    return { sent: keys };
  },
};

/**
 * The agent is put on hold. From its answer on, the model hears nothing and is asked nothing (no tokens) while svc's
 * own voice activity detection watches the line; speech wakes it with what was said, and it answers a person or
 * calls this again for a recording. A hold longer than the call's budget hangs up (hold.ts).
 */
export const WAIT_ON_HOLD: Tool = {
  name: WAIT_ON_HOLD_TOOL,
  description:
    'Call it, and say nothing, when you are put on hold: you are asked to hold or wait, you hear hold music, or a recording such as "please hold" or "your call is important to us". You then hear nothing until someone speaks: answer a person where the conversation was; for a recording, call it again.',
  parameters: { type: 'object', properties: {}, required: [] },
  quiet: true,
  async run(_args, ctx) {
    if (!ctx.waitOnHold) return { error: 'This line cannot wait on hold; stay silent until someone speaks.' };
    ctx.waitOnHold();
    return { waiting: true };
  },
};

/** Says nothing and goes on listening: an automated menu still speaking, or not yet offering the option wanted. */
export const KEEP_LISTENING: Tool = {
  name: KEEP_LISTENING_TOOL,
  description:
    'Call it, and say nothing, when an automated menu or recording is speaking and there is nothing to answer yet: the menu has not yet offered the option you need, or it says it is connecting you. You go on listening.',
  parameters: { type: 'object', properties: {}, required: [] },
  quiet: true,
  async run() {
    return { listening: true };
  },
};

/** The tools of every call. */
export const CALL_TOOLS = new ToolRegistry([END_CALL, RECORD_OPT_OUT, VOICEMAIL_DETECTED, PRESS_KEYS, WAIT_ON_HOLD, KEEP_LISTENING]);
