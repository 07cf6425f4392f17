// The client's own tools with the cascaded agent: a session joined to a line as the agent joins any, with its chat
// model the OpenAI-compatible adapter against the fake chat-completions stream (which refuses, as OpenAI does, a
// conversation whose tool calls are not answered right after them), a voice and ears of the test's own, and a
// local tool server standing for the client's. The model is offered the call's tools, its call becomes the signed
// request, the answer goes back as the tool message and the use is on the record; a slow tool has the callee hear
// the filler in the agent's voice, and a callee who speaks meanwhile is answered once the tool has, with the
// tool's answer right after the call that asked for it.
import { expect } from 'chai';
import { pino } from 'pino';
import { verifyToolRequest } from '../../../sdk/src/index.js';
import { OpenAiCompatibleChatModel } from '../../../server/src/chat-model/openai-compatible.js';
import { lineBriefOf } from '../../../server/src/conversation/conversation.js';
import type { RecognitionStream, SpeechRecognizer } from '../../../server/src/speech/recognizer.js';
import type { SpeechSynthesizer } from '../../../server/src/speech/voice.js';
import type { AgentHangUp, Consultation, LineEnd, LiveLine } from '../../../server/src/telephony/live-line.js';
import { CascadedAgent } from '../../../server/src/voice-agent/cascaded/cascaded-agent.js';
import type { CascadedSession } from '../../../server/src/voice-agent/cascaded/cascaded-session.js';
import type { EarEvent, Ears } from '../../../server/src/voice-agent/cascaded/ears.js';
import { ClientTools } from '../../../server/src/voice-agent/client-tools.js';
import { recordedTurns } from '../../../server/src/voice-agent/recorded-turns.js';
import { startFakeChatStream, type FakeChatStream } from '../../support/fake-chat-stream.js';
import { FakeToolServer } from '../../support/fake-tool-server.js';
import { forEachStore } from '../../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../../support/server.js';
import { until } from '../../support/until.js';

const GREETING = 'Hello, I am calling about a kettle.';
const ASK = 'Do you have the blue kettle?';
const PARAMETERS = { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] };

/** Ears that hear what the test says: each turn is reported with the next frame. */
class ScriptedEars implements Ears {
  nowMs = 0;
  readonly speaking = false;
  private readonly due: EarEvent[] = [];
  say(text: string): void {
    this.due.push({ type: 'speech_started', atMs: this.nowMs }, { type: 'turn_ended', text, startMs: this.nowMs, endMs: this.nowMs + 1000 });
  }
  push(frame: Buffer): EarEvent[] {
    this.nowMs += frame.length / 8;
    return this.due.splice(0);
  }
  interim(): EarEvent[] {
    return [];
  }
  recognized(): EarEvent[] {
    return [];
  }
  agentSpeaking(): void {}
  lineEnded(): EarEvent[] {
    return [];
  }
}

/** A line whose audio plays at once: every mark comes back as soon as it is sent. */
class InstantLine implements LiveLine {
  session: CascadedSession | null = null;
  playedBytes = 0;
  hungUp: AgentHangUp | null = null;
  play(payload: string): void {
    this.playedBytes += Buffer.from(payload, 'base64').length;
  }
  mark(name: string): void {
    setImmediate(() => this.session?.marked(name));
  }
  clear(): void {}
  sendDigits(): void {}
  async hangUp(reason: AgentHangUp): Promise<void> {
    this.hungUp = reason;
  }
  async transfer(): Promise<void> {}
  consult(): Consultation {
    return { outcome: Promise.resolve('failed'), stillThere: async () => false, join: async () => undefined, release: async () => undefined };
  }
}

const recognizer: SpeechRecognizer = {
  name: 'silent',
  open: async (): Promise<RecognitionStream> => ({ send() {}, flush() {}, close: async () => undefined }),
};

forEachStore('client tools with the cascaded agent', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  let chat: FakeChatStream;
  let tools: FakeToolServer;
  let feeding: NodeJS.Timeout | null = null;
  /** What the agent's voice was asked to say, piece by piece. */
  let spoken: string[];

  beforeEach(async () => {
    srv = await startServer(kind, { SVC_WEBHOOK_ALLOW_PRIVATE: '1' });
    alice = await srv.tenant();
    chat = await startFakeChatStream({ flavour: 'openai', apiKey: 'sk-chat-test' });
    tools = await FakeToolServer.start();
    spoken = [];
  });
  afterEach(async () => {
    if (feeding) clearInterval(feeding);
    feeding = null;
    await chat.close();
    await tools.close();
    await srv.close();
  });

  const voice: SpeechSynthesizer = {
    name: 'tone',
    async *speak(text, options) {
      for await (const piece of text) {
        if (options.signal.aborted) return;
        spoken.push(piece);
        yield Buffer.alloc(800, 0x7f);
      }
    },
  };

  /** Places a call with the tool, joins the agent to its line and feeds the line 20 ms of silence every 20 ms. */
  async function join() {
    const tool = { name: 'check_stock', description: 'Checks whether a product is in stock.', parameters: PARAMETERS, url: `${tools.url}/stock` };
    const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask whether the blue kettle is in stock.', tools: [tool], metadata: { order: 'A-17' } } });
    expect(res.status).to.equal(202);
    const id = res.body.callId as string;
    const { db } = srv.deps.store;
    const row = await db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const ears = new ScriptedEars();
    const agent = new CascadedAgent(db, {
      providers: { recognizer, model: new OpenAiCompatibleChatModel({ baseUrl: chat.baseUrl, apiKey: 'sk-chat-test', model: 'gpt-test' }), voice, voiceName: null },
      timing: { greetAfterMs: 0 },
      ears: () => ears,
      clientTools: new ClientTools(db, { allowPrivate: true }),
    });
    const line = new InstantLine();
    const session = agent.join(lineBriefOf(row), line, pino({ level: 'silent' }));
    line.session = session;
    const frame = Buffer.alloc(160, 0xff).toString('base64');
    feeding = setInterval(() => session.heard(frame, null), 20);
    return { id, ears, line, session, done: session.done as Promise<LineEnd> };
  }

  it("offers the call's tools to the model, asks the tool with the signed request, answers the model with its answer, and records the use", async () => {
    tools.reply({ body: { inStock: true, count: 3 } });
    chat.reply(
      { text: [GREETING] },
      { calls: [{ id: 'call_1', name: 'check_stock', arguments: ['{"sku":', '"kettle-blue"}'] }] },
      { text: ['Yes, three are in stock. Goodbye.'], calls: [{ id: 'call_2', name: 'end_call', arguments: ['{}'] }] },
    );
    const { id, ears, line, done } = await join();
    await until('the greeting is said', async () => spoken.includes(GREETING), 5000, 10);
    ears.say(ASK);
    expect(await done).to.equal('end_call');
    expect(line.hungUp).to.equal('end_call');

    expect(chat.requests).to.have.length(3);
    expect(chat.requests[1]!.body.tools.map((t: { function: { name: string } }) => t.function.name)).to.deep.equal([
      'end_call',
      'record_opt_out',
      'voicemail_detected',
      'press_keys',
      'wait_on_hold',
      'keep_listening',
      'check_stock',
    ]);
    expect(chat.requests[1]!.body.tools[6]).to.deep.equal({ type: 'function', function: { name: 'check_stock', description: 'Checks whether a product is in stock.', parameters: PARAMETERS } });
    expect(chat.requests[2]!.body.messages.slice(-2)).to.deep.equal([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'check_stock', arguments: '{"sku":"kettle-blue"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"inStock":true,"count":3}' },
    ]);

    const secret = (await srv.deps.store.db.selectFrom('api_keys').select('webhook_secret').where('id', '=', alice.keyId).executeTakeFirstOrThrow()).webhook_secret;
    expect(tools.hits).to.have.length(1);
    expect(verifyToolRequest(tools.hits[0]!.raw, tools.hits[0]!.headers['x-svc-signature'], secret)).to.deep.equal({
      event: 'tool.call',
      callId: id,
      tool: 'check_stock',
      arguments: { sku: 'kettle-blue' },
      metadata: { order: 'A-17' },
    });
    const row = await srv.deps.store.db.selectFrom('calls').select('tool_calls_json').where('id', '=', id).executeTakeFirstOrThrow();
    const [use] = JSON.parse(row.tool_calls_json!);
    expect(use).to.deep.equal({ name: 'check_stock', arguments: { sku: 'kettle-blue' }, status: 'ok', latencyMs: use.latencyMs, error: null, at: use.at });
  });

  it('says the filler in its own voice while a tool takes long, and answers a callee who spoke meanwhile once the tool has', async () => {
    tools.reply({ delayMs: 1500, body: { inStock: false } });
    const sorry = 'Sorry for the wait: it is out of stock. Goodbye.';
    chat.reply(
      { text: [GREETING] },
      { calls: [{ id: 'call_1', name: 'check_stock', arguments: ['{"sku":"kettle-blue"}'] }] },
      { text: [sorry], calls: [{ id: 'call_2', name: 'end_call', arguments: ['{}'] }] },
    );
    const { id, ears, done } = await join();
    await until('the greeting is said', async () => spoken.includes(GREETING), 5000, 10);
    ears.say(ASK);
    await until('the filler is said', async () => spoken.includes('One moment.'), 5000, 10);
    expect(tools.hits).to.have.length(1);
    ears.say('Are you still there?');
    expect(await done).to.equal('end_call');
    // The model was not asked again until the tool answered, and then with the answer right after its call.
    expect(chat.requests).to.have.length(3);
    expect(chat.requests[2]!.body.messages.map((m: { role: string; content: string | null }) => [m.role, m.content])).to.deep.equal([
      ['system', chat.requests[2]!.body.messages[0].content],
      ['assistant', GREETING],
      ['user', ASK],
      ['assistant', null],
      ['tool', '{"inStock":false}'],
      ['user', 'Are you still there?'],
    ]);
    // The reply goes to the voice sentence by sentence.
    expect(spoken).to.deep.equal([GREETING, 'One moment.', 'Sorry for the wait: it is out of stock.', 'Goodbye.']);
    const turns = await recordedTurns(srv.deps.store.db, id);
    expect(turns.map((t) => [t.speaker, t.text])).to.deep.equal([
      ['agent', GREETING],
      ['callee', ASK],
      ['agent', 'One moment.'],
      ['callee', 'Are you still there?'],
      ['agent', sorry],
    ]);
  });
});
