import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import { expect } from 'chai';
import { pino } from 'pino';
import { type ChatDelta, type ChatMessage, type ChatRequest, chatTools } from '../../server/src/chat-model/chat-model.js';
import { DEFAULT_FIRST_TOKEN_MS, DEFAULT_STALL_MS, OpenAiCompatibleChatModel, type OpenAiCompatibleOptions } from '../../server/src/chat-model/openai-compatible.js';
import type { LineBrief } from '../../server/src/conversation/conversation.js';
import { ProviderError } from '../../server/src/speech/provider-error.js';
import { CALL_TOOLS } from '../../server/src/voice-agent/tools.js';
import { freePort } from '../support/free-port.js';
import { type FakeChatStream, type Flavour, startFakeChatStream } from '../support/fake-chat-stream.js';

const KEY = 'sk-test-0123456789abcdefSECRET';
const BRIEF: LineBrief = { callId: 'call_chat_1', objective: 'Ask whether the bakery is open on Sunday.', context: null, fields: [], language: 'en-US', voice: 'alloy' };
const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You are a polite phone agent.' },
  { role: 'user', content: 'Hello?' },
];
const TOOLS = chatTools(CALL_TOOLS.offered);

/** What the logger wrote, one JSON line each. */
const logLines: string[] = [];
const logger = pino({ level: 'debug' }, new Writable({ write: (chunk, _e, cb) => void (logLines.push(String(chunk)), cb()) }));

function request(over: Partial<ChatRequest> = {}): ChatRequest {
  return { callId: 'call_chat_1', brief: BRIEF, messages: MESSAGES, tools: TOOLS, logger, signal: new AbortController().signal, ...over };
}

/** Every delta of a reply, and the error it ended with (null when it ended well). */
async function collect(model: OpenAiCompatibleChatModel, req: ChatRequest = request(), each?: (d: ChatDelta) => Promise<void> | void): Promise<{ deltas: ChatDelta[]; error: ProviderError | null }> {
  const deltas: ChatDelta[] = [];
  try {
    for await (const d of model.reply(req)) {
      deltas.push(d);
      await each?.(d);
    }
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    return { deltas, error: err };
  }
  return { deltas, error: null };
}

const text = (t: string): ChatDelta => ({ type: 'text', text: t });
const call = (id: string, name: string, args: string): ChatDelta => ({ type: 'tool_call', call: { id, name, arguments: args } });

describe('openai-compatible chat model', () => {
  let fake: FakeChatStream;
  const open = async (flavour: Flavour, apiKey?: string) => (fake = await startFakeChatStream({ flavour, apiKey }));
  const model = (over: Partial<OpenAiCompatibleOptions> = {}) => new OpenAiCompatibleChatModel({ baseUrl: fake.baseUrl, apiKey: KEY, model: 'gpt-4o-mini', ...over });

  beforeEach(() => void logLines.splice(0));
  afterEach(async () => fake?.close());

  it("is named 'openai-compatible' and bounds a stall at 10 s and the first token at 8 s by default", () => {
    expect(new OpenAiCompatibleChatModel({ baseUrl: 'http://x/v1', model: 'm' }).name).to.equal('openai-compatible');
    expect(DEFAULT_STALL_MS).to.equal(10_000);
    expect(DEFAULT_FIRST_TOKEN_MS).to.equal(8_000);
  });

  for (const flavour of ['openai', 'vllm', 'llamacpp'] as const) {
    describe(`against ${flavour}`, () => {
      beforeEach(async () => open(flavour));

      it('yields the text deltas in order, and nothing for the role and usage chunks', async () => {
        fake.reply({ text: ['Hello', ', this is', ' an assistant.', ' ¿Qué tal? 東京'] });
        expect(await collect(model())).to.deep.equal({ deltas: [text('Hello'), text(', this is'), text(' an assistant.'), text(' ¿Qué tal? 東京')], error: null });
      });

      it('keeps its connection for the next reply: a reply read to its [DONE] leaves the connection open, not aborted', async () => {
        const m = model();
        fake.reply({ text: ['One.'] });
        fake.reply({ text: ['Two.'], calls: [{ id: 'call_K', name: 'end_call', arguments: ['{}'] }] });
        expect((await collect(m)).deltas).to.deep.equal([text('One.')]);
        // The next turn comes a moment later, as on a call: what followed [DONE] is drained in the background.
        await new Promise((r) => setTimeout(r, 50));
        expect((await collect(m)).deltas).to.deep.equal([text('Two.'), call('call_K', 'end_call', '{}')]);
        expect(fake.requests.map((r) => ({ ended: r.ended, aborted: r.aborted }))).to.deep.equal([
          { ended: true, aborted: false },
          { ended: true, aborted: false },
        ]);
        expect(fake.requests[1].clientPort).to.equal(fake.requests[0].clientPort);
      });

      it('assembles a streamed tool call with its exact id, name and arguments, after the text', async () => {
        const id = flavour === 'vllm' ? 'chatcmpl-tool-9f3a1c' : 'call_Qx81sLpA';
        fake.reply({ text: ['Thank you, goodbye.'], calls: [{ id, name: 'end_call', arguments: ['{"re', 'ason":"goodb', 'ye said"}'] }] });
        expect(await collect(model())).to.deep.equal({ deltas: [text('Thank you, goodbye.'), call(id, 'end_call', '{"reason":"goodbye said"}')], error: null });
      });

      it('assembles two parallel tool calls by index, even with their pieces interleaved', async () => {
        const calls = [
          { id: 'call_A1', name: 'record_opt_out', arguments: ['{', '}'] },
          { id: 'call_B2', name: 'end_call', arguments: ['{"reason":', '"opt', '-out"}'] },
        ];
        fake.reply({ calls }, { calls, interleave: true });
        const expected = { deltas: [call('call_A1', 'record_opt_out', '{}'), call('call_B2', 'end_call', '{"reason":"opt-out"}')], error: null };
        expect(await collect(model())).to.deep.equal(expected);
        expect(await collect(model())).to.deep.equal(expected);
      });

      it('reads a stream whose bytes arrive in slices that split lines and characters', async () => {
        fake.reply({ text: ['Café ', '— 東京 ', 'naïve.'], calls: [{ id: 'call_S', name: 'end_call', arguments: ['{}'] }], sliceBytes: 5 });
        expect(await collect(model())).to.deep.equal({ deltas: [text('Café '), text('— 東京 '), text('naïve.'), call('call_S', 'end_call', '{}')], error: null });
      });

      it('fails unavailable on an error sent inside the stream, keeping what came before', async () => {
        // Frames: role (0), text (1), then the error.
        fake.reply({ text: ['Let me', ' check.'], errorAfter: 2 });
        const { deltas, error } = await collect(model());
        expect(deltas).to.deep.equal([text('Let me')]);
        expect(error?.failure).to.equal('unavailable');
        expect(error?.retryable).to.equal(true);
        expect(error?.provider).to.equal('chat');
        expect(error?.message).to.equal(flavour === 'llamacpp' ? 'the chat server sent an error mid-stream (server_error 500)' : 'the chat server sent an error mid-stream (InternalServerError 500)');
      });
    });
  }

  it("fails unavailable on vLLM's flat error object and llama.cpp's `data:` error", async () => {
    await open('vllm');
    fake.reply({ text: ['Hi'], errorAfter: 1, errorShape: 'flat' });
    expect((await collect(model())).error?.message).to.equal('the chat server sent an error mid-stream (InternalServerError 500)');
    await fake.close();
    await open('llamacpp');
    fake.reply({ text: ['Hi'], errorAfter: 2, errorShape: 'wrapped' });
    const { deltas, error } = await collect(model());
    expect(deltas).to.deep.equal([text('Hi')]);
    expect([error?.failure, error?.message]).to.deep.equal(['unavailable', 'the chat server sent an error mid-stream (server_error 500)']);
  });

  it('yields no tool call from a server that ignores tools', async () => {
    await open('text-only');
    fake.reply({ text: ['Goodbye.'], calls: [{ id: 'call_X', name: 'end_call', arguments: ['{}'] }] });
    expect(await collect(model())).to.deep.equal({ deltas: [text('Goodbye.')], error: null });
    expect(fake.requests[0].body.tools.map((t: { function: { name: string } }) => t.function.name)).to.deep.equal(CALL_TOOLS.offered.map((t) => t.name));
  });

  describe('the request', () => {
    it('posts model, messages, stream, stream_options, tools and tool_choice, with the key as a bearer token', async () => {
      await open('openai', KEY);
      fake.reply({ text: ['Hi.'] });
      await collect(new OpenAiCompatibleChatModel({ baseUrl: `${fake.baseUrl}/`, apiKey: KEY, model: 'gpt-4o-mini' }));
      const [sent] = fake.requests;
      expect(sent.path).to.equal('/v1/chat/completions');
      expect(sent.headers.authorization).to.equal(`Bearer ${KEY}`);
      expect(sent.headers['content-type']).to.equal('application/json');
      expect(sent.headers.accept).to.equal('text/event-stream');
      expect(sent.body).to.deep.equal({
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'You are a polite phone agent.' },
          { role: 'user', content: 'Hello?' },
        ],
        stream: true,
        stream_options: { include_usage: true },
        tools: CALL_TOOLS.offered.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })),
        tool_choice: 'auto',
      });
    });

    it('sends a tool call and its answer back as the conversation holds them', async () => {
      await open('openai', KEY);
      fake.reply({ text: ['Sorry to have bothered you.'] });
      const messages: ChatMessage[] = [
        ...MESSAGES,
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_A1', type: 'function', function: { name: 'record_opt_out', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_A1', content: '{"recorded":true}' },
      ];
      expect((await collect(model(), request({ messages }))).error).to.equal(null);
      expect(fake.requests[0].body.messages).to.deep.equal(messages);
    });

    it('is refused by a server, as OpenAI refuses it, when a call is not answered by the tool messages right after it', async () => {
      await open('openai', KEY);
      fake.reply({ text: ['Never sent.'] });
      const asked: ChatMessage = { role: 'assistant', content: null, tool_calls: [{ id: 'call_K1', type: 'function', function: { name: 'press_keys', arguments: '{"digits":"1"}' } }] };
      const messages: ChatMessage[] = [...MESSAGES, asked, { role: 'user', content: '[The callee pressed 2]' }, { role: 'tool', tool_call_id: 'call_K1', content: '{"sent":"1"}' }];
      const { error } = await collect(model(), request({ messages }));
      expect([error?.failure, error?.message]).to.deep.equal(['refused', 'the chat server answered HTTP 400']);
    });

    it('leaves out tools and tool_choice when no tool is offered (OpenAI refuses an empty list), and stream_options when turned off', async () => {
      await open('openai', KEY);
      fake.reply({ text: ['Hi.'] }, { text: ['Hi.'] });
      expect((await collect(model(), request({ tools: [] }))).error).to.equal(null);
      expect(fake.requests[0].body).to.deep.equal({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true, stream_options: { include_usage: true } });
      expect((await collect(model({ streamOptions: false }), request({ tools: [] }))).error).to.equal(null);
      expect(fake.requests[1].body).to.deep.equal({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true });
    });

    it('sends no Authorization header without a key (a local server)', async () => {
      await open('llamacpp');
      fake.reply({ text: ['Hi.'] });
      expect((await collect(model({ apiKey: '' }))).deltas).to.deep.equal([text('Hi.')]);
      expect(fake.requests[0].headers).to.not.have.property('authorization');
    });
  });

  describe('bad days', () => {
    beforeEach(async () => open('openai'));

    for (const [status, failure] of [
      [400, 'refused'],
      [401, 'refused'],
      [403, 'refused'],
      [404, 'refused'],
      [500, 'unavailable'],
      [503, 'unavailable'],
    ] as const) {
      it(`HTTP ${status} is ${failure}`, async () => {
        fake.reply({ status });
        const { deltas, error } = await collect(model());
        expect(deltas).to.deep.equal([]);
        expect([error?.failure, error?.message, error?.retryAfterMs]).to.deep.equal([failure, `the chat server answered HTTP ${status}`, null]);
      });
    }

    it('a wrong key is refused, and not retryable', async () => {
      await fake.close();
      await open('openai', 'sk-the-right-one');
      const { error } = await collect(model());
      expect([error?.failure, error?.retryable, error?.message]).to.deep.equal(['refused', false, 'the chat server answered HTTP 401']);
    });

    it('429 is throttled, with the wait Retry-After asks for (seconds or a date)', async () => {
      fake.reply({ status: 429, retryAfter: '7' }, { status: 429, retryAfter: new Date(Date.now() + 60_000).toUTCString() }, { status: 429 });
      const first = (await collect(model())).error;
      expect([first?.failure, first?.retryable, first?.retryAfterMs, first?.message]).to.deep.equal(['throttled', true, 7000, 'the chat server answered HTTP 429']);
      const dated = (await collect(model())).error;
      expect(dated?.retryAfterMs).to.be.within(55_000, 60_000);
      const bare = (await collect(model())).error;
      expect([bare?.failure, bare?.retryAfterMs]).to.deep.equal(['throttled', null]);
    });

    it('a socket destroyed mid-stream is dropped, after the text that came', async () => {
      fake.reply({ text: ['One', ' two', ' three.'], cutAfter: 3, cut: 'destroy' });
      const { deltas, error } = await collect(model());
      expect(deltas).to.deep.equal([text('One'), text(' two')]);
      expect(error?.failure).to.equal('dropped');
      expect(error?.message).to.match(/^the chat stream broke mid-reply \(\w+\)$/);
    });

    it('a body that ends without finish_reason or [DONE] is dropped, and a half-made tool call is not yielded', async () => {
      // Frames: role (0), the call's first piece (1), one arguments piece (2).
      fake.reply({ calls: [{ id: 'call_H', name: 'end_call', arguments: ['{"rea', 'son":"x"}'] }], cutAfter: 3, cut: 'end' });
      const { deltas, error } = await collect(model());
      expect(deltas).to.deep.equal([]);
      expect([error?.failure, error?.message]).to.deep.equal(['dropped', 'the chat stream ended before the reply was finished']);
    });

    it('a body cut after finish_reason still gives the whole reply', async () => {
      // Frames: role (0), text (1), the call (2, 3), finish (4); the usage chunk and [DONE] never come.
      fake.reply({ text: ['Bye.'], calls: [{ id: 'call_F', name: 'end_call', arguments: ['{}'] }], cutAfter: 5, cut: 'destroy' });
      expect(await collect(model())).to.deep.equal({ deltas: [text('Bye.'), call('call_F', 'end_call', '{}')], error: null });
    });

    it('a stream that stops sending once begun is stalled after the stall bound', async () => {
      fake.reply({ text: ['Let me', ' see.'], stallAfter: 2 });
      const { deltas, error } = await collect(model({ stallMs: 200 }));
      expect(deltas).to.deep.equal([text('Let me')]);
      expect([error?.failure, error?.retryable, error?.message]).to.deep.equal(['stalled', true, 'the chat server sent no chunk for 200 ms']);
    });

    it('a first token that does not come within its bound is stalled, the role chunk not counting as one', async () => {
      fake.reply({ text: ['Late.'], firstTokenDelayMs: 30_000 });
      const { deltas, error } = await collect(model({ firstTokenMs: 200 }));
      expect(deltas).to.deep.equal([]);
      expect([error?.failure, error?.message]).to.deep.equal(['stalled', 'the chat server sent no first token within 200 ms']);
    });

    it('a late first token within its bound is not a stall, however short the stall bound', async () => {
      fake.reply({ text: ['Here', ' it is.'], firstTokenDelayMs: 400 });
      expect(await collect(model({ stallMs: 100, firstTokenMs: 10_000 }))).to.deep.equal({ deltas: [text('Here'), text(' it is.')], error: null });
    });

    it('chunks paced apart within the stall bound make a whole reply', async () => {
      fake.reply({ text: ['a', 'b', 'c', 'd'], calls: [{ id: 'call_P', name: 'end_call', arguments: ['{', '}'] }], paceMs: 40 });
      expect(await collect(model({ stallMs: 5_000 }))).to.deep.equal({ deltas: [text('a'), text('b'), text('c'), text('d'), call('call_P', 'end_call', '{}')], error: null });
    });

    it('the time a slow consumer takes between deltas is not counted as a stall', async () => {
      fake.reply({ text: ['one', ' two', ' three'] });
      const slow = () => new Promise<void>((resolve) => setTimeout(resolve, 300));
      expect(await collect(model({ stallMs: 100 }), request(), slow)).to.deep.equal({ deltas: [text('one'), text(' two'), text(' three')], error: null });
    });

    it('a server that is not there is unavailable', async () => {
      const port = await freePort();
      const { error } = await collect(new OpenAiCompatibleChatModel({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: KEY, model: 'm' }));
      expect([error?.failure, error?.message]).to.deep.equal(['unavailable', 'the chat request failed (ECONNREFUSED)']);
    });
  });

  describe('abort', () => {
    beforeEach(async () => open('openai'));

    it('ends the reply quietly mid-stream', async () => {
      fake.reply({ text: ['Sure', ' thing', ' here.'], stallAfter: 2 });
      const ctrl = new AbortController();
      const result = await collect(model(), request({ signal: ctrl.signal }), () => ctrl.abort());
      expect(result).to.deep.equal({ deltas: [text('Sure')], error: null });
    });

    it('yields nothing more once aborted, though the rest of the reply has arrived', async () => {
      fake.reply({ text: ['Sure', ' thing', ' here.'], calls: [{ id: 'call_N', name: 'end_call', arguments: ['{}'] }] });
      const ctrl = new AbortController();
      const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 100));
      const result = await collect(model(), request({ signal: ctrl.signal }), async () => (await settle(), ctrl.abort()));
      expect(result).to.deep.equal({ deltas: [text('Sure')], error: null });
    });

    it('ends quietly while waiting for the first token', async () => {
      fake.reply({ text: ['Late.'], firstTokenDelayMs: 30_000 });
      const ctrl = new AbortController();
      setTimeout(() => ctrl.abort(), 100);
      expect(await collect(model(), request({ signal: ctrl.signal }))).to.deep.equal({ deltas: [], error: null });
    });

    it('sends nothing when already aborted', async () => {
      const ctrl = new AbortController();
      ctrl.abort();
      expect(await collect(model(), request({ signal: ctrl.signal }))).to.deep.equal({ deltas: [], error: null });
      expect(fake.requests).to.have.length(0);
    });
  });

  describe('the key', () => {
    it('appears in no error, however the server echoes it, and in no log line', async () => {
      await open('openai', 'sk-the-right-one');
      const wrong = model();
      const failures = [(await collect(wrong)).error];
      await fake.close();
      await open('openai');
      fake.reply({ status: 500 }, { text: ['x'], errorAfter: 2 }, { text: ['x'], stallAfter: 2 }, { text: ['x'], cutAfter: 2 }, { text: ['Fine.'] });
      for (let i = 0; i < 4; i += 1) failures.push((await collect(model({ stallMs: 200 }))).error);
      expect((await collect(model())).error).to.equal(null);
      expect(failures.map((f) => f?.failure)).to.deep.equal(['refused', 'unavailable', 'unavailable', 'stalled', 'dropped']);
      for (const f of failures) {
        for (const shown of [f!.message, String(f), f!.stack ?? '', JSON.stringify(f), inspect(f)]) expect(shown).to.not.include(KEY);
      }
      expect(inspect(wrong, { showHidden: true, depth: 5 })).to.not.include(KEY);
      expect(JSON.stringify(wrong)).to.not.include(KEY);
      // The usage chunks were logged (so the log was written to), without the key.
      expect(logLines.some((l) => l.includes('"chat usage"'))).to.equal(true);
      for (const line of logLines) expect(line).to.not.include(KEY);
    });
  });
});
