// Sandbox calls analysed by the LLM analyst against the local chat-completions fake, through the real engine:
// the call record carries what the endpoint answered, SVC_ANALYST=openai wires it from the settings, and an
// endpoint that keeps failing still ends the call completed, with null fields and the reason in the log. Of a
// client tool's use (the sandbox's 555-0131) the analyst is told only what was said.
import { expect } from 'chai';
import { pino } from 'pino';
import { LlmAnalyst } from '../../server/src/analysis/llm-analyst.js';
import { startEngineServer, type EngineParts, type EngineServer } from '../support/engine.js';
import { startFakeChatCompletions, type FakeChatCompletions } from '../support/fake-chat-completions.js';
import { FakeToolServer } from '../support/fake-tool-server.js';
import { forEachStore } from '../support/stores.js';

const KEY = 'sk-test-Hq2wE4rT6yU8iO0pA1sD3fG5';
const TO = '+14155550123';
const OBJECTIVE = 'Ask whether the shop is open on Sunday and until what time.';
const fields = [
  { name: 'open_sunday', type: 'boolean', description: 'whether the shop is open on Sunday' },
  { name: 'closing_time', description: 'the closing time on Sunday' },
  { name: 'staff_count', type: 'number', description: 'how many people work there' },
];
const answer = { summary: 'Open on Sunday until 5 pm, with three staff.', extracted: { open_sunday: true, closing_time: '5 pm', staff_count: 3 } };

/** The transcript's numbered lines as the analyst sent them: `[i] Speaker: text`. */
function sentLines(body: any): { turn: number; speaker: string; text: string }[] {
  const user: string = body.messages[1].content;
  return [...user.matchAll(/^\[(\d+)\] (Agent|Callee): (.*)$/gm)].map((m) => ({ turn: Number(m[1]), speaker: m[2], text: m[3] }));
}

/** A reply whose every value cites the first words of the callee's first reply, or, with `bogus`, words never said. */
const quoting =
  (bogus = false) =>
  (body: any) => {
    const reply = sentLines(body).filter((l) => l.speaker === 'Callee')[1];
    const quote = bogus ? 'We close at five on Sundays.' : reply.text.split(' ').slice(0, 3).join(' ');
    return { content: JSON.stringify({ ...answer, evidence: Object.fromEntries(fields.map((f) => [f.name, { turn: reply.turn, quote }])) }) };
  };

forEachStore('LLM analyst in the call engine', (kind) => {
  let fake: FakeChatCompletions;
  let srv: EngineServer | undefined;
  beforeEach(async () => {
    fake = await startFakeChatCompletions();
  });
  afterEach(async () => {
    await srv?.close();
    srv = undefined;
    await fake.close();
  });

  async function placeAndDrive(env: Record<string, string>, parts: EngineParts, body: Record<string, unknown> = {}) {
    srv = await startEngineServer(kind, env, parts);
    const alice = await srv.tenant({ rateLimit: 1000 });
    const placed = await alice.api.post('/v1/agent/calls', { body: { to: TO, objective: OBJECTIVE, fields, ...body } });
    expect(placed.status).to.equal(202);
    const callId = placed.body.callId as string;
    await srv.drive(callId);
    const res = await alice.api.get(`/v1/agent/calls/${callId}`);
    expect(res.status).to.equal(200);
    return { ...res.body, callId };
  }

  it('a completed sandbox call carries the summary, extracted values and evidence the endpoint returned', async () => {
    fake.reply(quoting());
    const analyst = new LlmAnalyst({ baseUrl: fake.baseUrl, apiKey: KEY, model: 'gpt-4o-mini', timeoutMs: 5000 });
    const call = await placeAndDrive({}, { analyst });
    expect(call.status).to.equal('completed');
    expect(call.summary).to.equal(answer.summary);
    expect(call.extracted).to.deep.equal(answer.extracted);
    expect(fake.requests).to.have.length(1);
    // Numbered as the call record's turns: each line's number is its turn's index, and each quote is in its turn.
    const sent = sentLines(fake.requests[0].body);
    expect(sent.map((l) => `${l.speaker}: ${l.text}`).join('\n')).to.equal(call.transcript);
    expect(sent.map((l) => l.turn)).to.deep.equal(call.turns.map((_t: unknown, i: number) => i));
    for (const f of fields) {
      const ev = call.evidence[f.name];
      expect(call.turns[ev.turn].speaker).to.equal('callee');
      expect(call.turns[ev.turn].text.startsWith(ev.quote)).to.equal(true);
    }
    expect(call.transcript).to.match(/^Callee: /);
    expect(JSON.stringify(fake.requests[0].body)).not.to.include(TO.slice(1));
    expect(JSON.stringify(fake.requests[0].body)).not.to.include(call.callId);
  });

  it('drops every value whose quote was never said, with a warning naming the fields, never the words', async () => {
    fake.reply(quoting(true));
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const analyst = new LlmAnalyst({ baseUrl: fake.baseUrl, apiKey: KEY, model: 'gpt-4o-mini', timeoutMs: 5000 });
    const call = await placeAndDrive({}, { analyst, logger });
    expect(call.status).to.equal('completed');
    expect(call.extracted).to.deep.equal({ open_sunday: null, closing_time: null, staff_count: null });
    expect(call.evidence).to.deep.equal({ open_sunday: null, closing_time: null, staff_count: null });
    const warning = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'values dropped: their quotes are not in the turns they were said in');
    expect(warning).to.deep.include({ level: 40, callId: call.callId, analyst: 'openai', fields: ['open_sunday', 'closing_time', 'staff_count'] });
    expect(lines.join('\n')).not.to.include('We close at five');
  });

  it("is told of a client tool's use only what the agent said of its answer: not the rest of the answer, the tool, its URL or the use", async () => {
    const tools = await FakeToolServer.start();
    try {
      const said = 'Your order arrives on Thursday';
      tools.reply({ body: { answer: said, internal: 'margin 41 percent', tracking: 'trk_9f8e7d6c' } });
      fake.reply(quoting());
      const analyst = new LlmAnalyst({ baseUrl: fake.baseUrl, apiKey: KEY, model: 'gpt-4o-mini', timeoutMs: 5000 });
      const tool = {
        name: 'order_lookup',
        description: 'Reads the order from the CRM, internal notes included.',
        parameters: { type: 'object', properties: { question: { type: 'string' } } },
        url: `${tools.url}/crm?token=tok_receiver_3e1d`,
      };
      const call = await placeAndDrive({}, { analyst }, { to: '+14155550131', tools: [tool] });
      expect(call.status).to.equal('completed');
      expect(call.toolCalls.map((u: { status: string }) => u.status)).to.deep.equal(['ok']);
      expect(fake.requests).to.have.length(1);
      // The transcript the analyst read is the record's: the answer as the agent said it, and nothing else of the use.
      const sent = sentLines(fake.requests[0].body);
      expect(sent.map((l) => `${l.speaker}: ${l.text}`).join('\n')).to.equal(call.transcript);
      const body = JSON.stringify(fake.requests[0].body);
      expect(body).to.include(said);
      for (const unsaid of ['margin 41 percent', 'trk_9f8e7d6c', 'order_lookup', 'Reads the order from the CRM', 'tok_receiver_3e1d', tools.url, 'latencyMs', 'toolCalls']) {
        expect(body, unsaid).to.not.include(unsaid);
      }
    } finally {
      await tools.close();
    }
  });

  it('SVC_ANALYST=openai makes the engine analyse with the configured endpoint, key and model', async () => {
    fake.reply(quoting());
    const call = await placeAndDrive({ SVC_ANALYST: 'openai', SVC_LLM_API_KEY: KEY, SVC_LLM_BASE_URL: fake.baseUrl, SVC_LLM_MODEL: 'qwen2.5-7b-instruct' }, {});
    expect(call.summary).to.equal(answer.summary);
    expect(call.extracted).to.deep.equal(answer.extracted);
    expect(fake.requests).to.have.length(1);
    expect(fake.requests[0].headers.authorization).to.equal(`Bearer ${KEY}`);
    expect(fake.requests[0].body.model).to.equal('qwen2.5-7b-instruct');
  });

  it('an endpoint failing twice still completes the call, with null fields and the reason logged without the key', async () => {
    fake.reply({ status: 500 }, { content: '{"summary": "Open"' });
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const analyst = new LlmAnalyst({ baseUrl: fake.baseUrl, apiKey: KEY, model: 'gpt-4o-mini', timeoutMs: 5000 });
    const call = await placeAndDrive({}, { analyst, logger });
    expect(call.status).to.equal('completed');
    expect(call.error).to.equal(null);
    expect(call.extracted).to.deep.equal({ open_sunday: null, closing_time: null, staff_count: null });
    expect(call.summary).to.equal(
      `Objective: ${OBJECTIVE.slice(0, -1)}. The call was completed, but the analysis model's answer was not usable, so no summary was written and no fields were extracted.`,
    );
    expect(fake.requests).to.have.length(2);
    const degraded = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'call analysis degraded');
    expect(degraded).to.have.length(1);
    expect(degraded[0]).to.include({ level: 40, callId: call.callId, analyst: 'openai', reason: 'attempt 1: HTTP 500; attempt 2: the reply was not JSON' });
    for (const line of lines) expect(line).not.to.include(KEY);
  });
});
