import { expect } from 'chai';
import { pino } from 'pino';
import { type ChatDelta, type ChatMessage, type ChatRequest, chatTools } from '../../server/src/chat-model/chat-model.js';
import { agentLines, ScriptedChatModel } from '../../server/src/voice-agent/scripted-chat-model.js';
import type { LineBrief, Turn } from '../../server/src/conversation/conversation.js';
import { EN } from '../../server/src/conversation/lexicon-en.js';
import type { FieldDefinition } from '../../server/src/generated/types.gen.js';
import { ScriptedAgent } from '../../server/src/voice-agent/scripted-agent.js';
import { SILENCE_PROMPT } from '../../server/src/voice-agent/silence-watch.js';
import { CALL_TOOLS } from '../../server/src/voice-agent/tools.js';
import { CONNECTING, HOLD_ANNOUNCEMENT, KEY_MENU, menuPrompt, SPOKEN_MENU } from '../../server/src/conversation/sandbox-menus.js';

const FIELDS: FieldDefinition[] = [
  { name: 'open_sunday', type: 'boolean', description: 'Open on Sunday' },
  { name: 'closing_time', description: 'Closing time on Sunday' },
  { name: 'staffCount', type: 'number' },
];
const SYSTEM: ChatMessage = { role: 'system', content: 'You are a polite phone agent.' };
const logger = pino({ level: 'silent' });

function brief(over: Partial<LineBrief> = {}): LineBrief {
  return { callId: 'call_scripted_1', objective: 'Ask whether the bakery is open on Sunday.', context: null, fields: FIELDS, language: 'en-US', voice: 'alloy', ...over };
}

function request(b: LineBrief, messages: ChatMessage[], signal = new AbortController().signal): ChatRequest {
  return { callId: b.callId, brief: b, messages, tools: chatTools(CALL_TOOLS.offered), logger, signal };
}

async function reply(model: ScriptedChatModel, req: ChatRequest): Promise<ChatDelta[]> {
  const deltas: ChatDelta[] = [];
  for await (const d of model.reply(req)) deltas.push(d);
  return deltas;
}

const textOf = (deltas: readonly ChatDelta[]): string => deltas.map((d) => (d.type === 'text' ? d.text : '')).join('');
const callsOf = (deltas: readonly ChatDelta[]) => deltas.flatMap((d) => (d.type === 'tool_call' ? [d.call] : []));

/**
 * Plays a whole call as a session would: the callee's lines (from the scripted agent's own conversation) as user
 * messages, each of the model's replies as an assistant message; returns the replies.
 */
async function replay(b: LineBrief, turns: readonly Turn[]): Promise<ChatDelta[][]> {
  const model = new ScriptedChatModel();
  const messages: ChatMessage[] = [SYSTEM];
  const replies: ChatDelta[][] = [];
  for (const turn of turns) {
    if (turn.speaker === 'callee') {
      messages.push({ role: 'user', content: turn.text });
      continue;
    }
    const deltas = await reply(model, request(b, messages));
    replies.push(deltas);
    messages.push({ role: 'assistant', content: textOf(deltas) });
  }
  return replies;
}

describe('scripted chat model', () => {
  it("is named 'scripted'", () => {
    expect(new ScriptedChatModel().name).to.equal('scripted');
  });

  for (const [name, over] of [
    ['three fields', {}],
    ['no fields', { fields: [] }],
    ['French', { language: 'fr-FR', callId: 'call_fr_2' }],
    ['the long-call number', { to: '+14155550115' }],
  ] as Array<[string, Partial<LineBrief>]>) {
    it(`replayed through the port, says the scripted agent's lines in order, then calls end_call (${name})`, async () => {
      const b = brief(over);
      const turns = await new ScriptedAgent().converse(b);
      const lines = turns.filter((t) => t.speaker === 'agent').map((t) => t.text);
      const replies = await replay(b, turns);
      expect(replies.map(textOf)).to.deep.equal(lines);
      expect(agentLines(b)).to.deep.equal(lines);
      // Only the last reply calls a tool: end_call, after its text.
      expect(replies.slice(0, -1).flatMap(callsOf)).to.deep.equal([]);
      const last = replies.at(-1)!;
      expect(last.at(-1)).to.deep.equal({ type: 'tool_call', call: { id: `scripted_end_call_${lines.length - 1}`, name: 'end_call', arguments: '{"reason":"the script is done"}' } });
      expect(callsOf(last)).to.have.length(1);
    });
  }

  it('streams each line in several text deltas of a few words', async () => {
    const b = brief();
    const [opening] = await replay(b, (await new ScriptedAgent().converse(b)).slice(0, 2));
    const words = agentLines(b)[0].split(' ');
    expect(opening.map((d) => (d.type === 'text' ? d.text : null))).to.deep.equal(
      Array.from({ length: Math.ceil(words.length / 3) }, (_, i) => words.slice(i * 3, i * 3 + 3).join(' ') + (i * 3 + 3 < words.length ? ' ' : '')),
    );
    expect(opening.length).to.be.above(3);
  });

  it('on the opt-out number, answers the request with record_opt_out, and its result with the apology and end_call', async () => {
    const b = brief({ to: '+14155550118' });
    const turns = await new ScriptedAgent().converse(b);
    expect(turns.map((t) => t.speaker)).to.deep.equal(['callee', 'agent', 'callee', 'agent']);
    const model = new ScriptedChatModel();
    const messages: ChatMessage[] = [SYSTEM, { role: 'user', content: turns[0].text }];
    const opening = await reply(model, request(b, messages));
    expect(textOf(opening)).to.equal(turns[1].text);
    expect(callsOf(opening)).to.deep.equal([]);
    messages.push({ role: 'assistant', content: turns[1].text }, { role: 'user', content: turns[2].text });
    expect(EN.callee.optOut).to.include(turns[2].text);

    const onRequest = await reply(model, request(b, messages));
    expect(onRequest).to.deep.equal([{ type: 'tool_call', call: { id: 'scripted_record_opt_out_1', name: 'record_opt_out', arguments: '{}' } }]);
    messages.push(
      { role: 'assistant', content: null, tool_calls: [{ id: 'scripted_record_opt_out_1', type: 'function', function: { name: 'record_opt_out', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'scripted_record_opt_out_1', content: '{"recorded":true}' },
    );
    const onResult = await reply(model, request(b, messages));
    expect(textOf(onResult)).to.equal(EN.agent.optOutAck);
    expect(turns[3].text).to.equal(EN.agent.optOutAck);
    expect(callsOf(onResult)).to.deep.equal([{ id: 'scripted_end_call_1', name: 'end_call', arguments: '{"reason":"the callee asked not to be called again"}' }]);
  });

  it('asks whether the callee is still there when the line has been silent, and then goes on where it was', async () => {
    const b = brief();
    const lines = agentLines(b);
    const model = new ScriptedChatModel();
    const messages: ChatMessage[] = [SYSTEM, { role: 'user', content: 'Hello?' }, { role: 'assistant', content: lines[0] }, { role: 'system', content: SILENCE_PROMPT }];
    const prompt = await reply(model, request(b, messages));
    expect(prompt).to.deep.equal([
      { type: 'text', text: 'Are you still ' },
      { type: 'text', text: 'there?' },
    ]);
    messages.push({ role: 'assistant', content: 'Are you still there?' }, { role: 'user', content: 'Yes, sorry, go ahead.' });
    expect(textOf(await reply(model, request(b, messages)))).to.equal(lines[1]);
  });

  it('only hangs up when asked for a reply past the end of its script', async () => {
    const b = brief({ fields: [] });
    const lines = agentLines(b);
    const messages: ChatMessage[] = [
      SYSTEM,
      ...lines.flatMap((l): ChatMessage[] => [
        { role: 'user', content: '…' },
        { role: 'assistant', content: l },
      ]),
      { role: 'user', content: 'Wait, one more thing!' },
    ];
    expect(await reply(new ScriptedChatModel(), request(b, messages))).to.deep.equal([
      { type: 'tool_call', call: { id: `scripted_end_call_${lines.length}`, name: 'end_call', arguments: '{"reason":"the conversation is over"}' } },
    ]);
  });

  it('gives the same replies for the same call, and other ones for other calls', async () => {
    const b = brief();
    const turns = await new ScriptedAgent().converse(b);
    expect(await replay(b, turns)).to.deep.equal(await replay(b, turns));
    const openings = new Set<string>();
    for (let i = 0; i < 12; i += 1) {
      const other = brief({ callId: `call_other_${i}` });
      openings.add((await replay(other, await new ScriptedAgent().converse(other))).map(textOf).join('\n'));
    }
    expect(openings.size).to.be.above(6);
  });

  it('counts a line the callee cut short as said, and a tool call with no text as no line', async () => {
    const b = brief();
    const lines = agentLines(b);
    const messages: ChatMessage[] = [
      SYSTEM,
      { role: 'user', content: 'Hello?' },
      { role: 'assistant', content: lines[0].split(' ').slice(0, 4).join(' ') },
      { role: 'user', content: 'Sorry, who is this?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_v', type: 'function', function: { name: 'voicemail_detected', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_v', content: '{}' },
    ];
    expect(textOf(await reply(new ScriptedChatModel(), request(b, messages)))).to.equal(lines[1]);
  });

  it('stops between deltas when the request is aborted mid-reply', async () => {
    const ctrl = new AbortController();
    const deltas: ChatDelta[] = [];
    for await (const d of new ScriptedChatModel().reply(request(brief(), [SYSTEM, { role: 'user', content: 'Hello?' }], ctrl.signal))) {
      deltas.push(d);
      ctrl.abort();
    }
    expect(deltas).to.deep.equal([{ type: 'text', text: 'Hello, this is ' }]);
  });

  it('says nothing once the request is aborted', async () => {
    const ctrl = new AbortController();
    ctrl.abort();
    expect(await reply(new ScriptedChatModel(), request(brief(), [SYSTEM, { role: 'user', content: 'Hello?' }], ctrl.signal))).to.deep.equal([]);
  });

  it('answers a business line before its person as the text sandbox does, none of it a line of the script', async () => {
    const model = new ScriptedChatModel();
    const b = brief({ to: '+14155550125', objective: 'Ask when my delivery will arrive.' });
    const messages: ChatMessage[] = [SYSTEM];
    const answer = async (heard: string) => {
      messages.push({ role: 'user', content: heard });
      const deltas = await reply(model, request(b, messages));
      const calls = callsOf(deltas);
      messages.push({
        role: 'assistant',
        content: textOf(deltas) || null,
        ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) } : {}),
      });
      for (const c of calls) messages.push({ role: 'tool', tool_call_id: c.id, content: '{}' });
      return { text: textOf(deltas), calls: calls.map((c) => [c.name, JSON.parse(c.arguments)]) };
    };
    expect(await answer(menuPrompt(KEY_MENU, 'keys'))).to.deep.equal({ text: '', calls: [['press_keys', { digits: '2' }]] });
    expect(await answer(menuPrompt(KEY_MENU.options[1]!.next!, 'keys'))).to.deep.equal({ text: '', calls: [['press_keys', { digits: '1' }]] });
    expect(await answer(CONNECTING)).to.deep.equal({ text: '', calls: [['keep_listening', {}]] });
    expect(await answer(HOLD_ANNOUNCEMENT)).to.deep.equal({ text: '', calls: [['wait_on_hold', {}]] });
    expect(await answer(menuPrompt(SPOKEN_MENU, 'spoken'))).to.deep.equal({ text: 'Deliveries.', calls: [] });
    // The person: the script's first line, as if nothing came before.
    expect(await answer('Hello?')).to.deep.equal({ text: agentLines(b)[0], calls: [] });
    const ids = messages.flatMap((m) => (m.role === 'assistant' && m.tool_calls ? m.tool_calls.map((c) => c.id) : []));
    expect(new Set(ids).size).to.equal(ids.length);
  });
});
