// The LLM analyst against a local fake of the chat-completions protocol: what it sends, what it makes of good
// and bad replies, and how it degrades (timeouts, HTTP errors, unusable output) without a throw or a leaked key.
import { inspect } from 'node:util';
import { expect } from 'chai';
import type { AnalysisInput } from '../../server/src/analysis/analyst.js';
import { LlmAnalyst } from '../../server/src/analysis/llm-analyst.js';
import type { FieldDefinition } from '../../server/src/generated/types.gen.js';
import { startFakeChatCompletions, type FakeChatCompletions } from '../support/fake-chat-completions.js';

const OPT_OUT_SCHEMA = { type: 'boolean', description: 'True when the callee asked not to be called again (to be taken off the list, to stop calling).' };
const KEY = 'sk-test-Zq8vL3mN5pR7tW9yB2dF4hJ6';
const OBJECTIVE = 'Ask whether the shop is open on Sunday and until what time.';
const fields: FieldDefinition[] = [
  { name: 'open_sunday', type: 'boolean', description: 'whether the shop is open on Sunday' },
  { name: 'closing_time', description: 'the closing time on Sunday' },
  { name: 'staff_count', type: 'number', description: ' how many people work there ' },
  { name: 'manager_name', type: 'string' },
];
const transcript = ['Callee: Hello, Corner Shop.', 'Agent: Hi! Are you open on Sunday, and until what time?', 'Callee: Yes, we are open until 6 pm. There are four of us.'].join('\n');

function input(overrides: Partial<AnalysisInput['brief']> = {}): AnalysisInput {
  return {
    brief: { callId: 'call_8c1f2a', to: '+14155550123', objective: OBJECTIVE, context: 'We deliver groceries.', fields, language: 'en-GB', voice: 'alloy', ...overrides },
    transcript,
    endReason: 'hung_up',
  };
}

const good = {
  summary: 'The shop is open on Sunday until 6 pm; four people work there.',
  extracted: { open_sunday: true, closing_time: '6 pm', staff_count: 4, manager_name: null },
  evidence: {
    open_sunday: { turn: 2, quote: 'Yes, we are open' },
    closing_time: { turn: 2, quote: 'until 6 pm' },
    staff_count: { turn: 2, quote: 'There are four of us.' },
    manager_name: null,
  },
};
const DEGRADED_INVALID = `Objective: ${OBJECTIVE.slice(0, -1)}. The call was completed, but the analysis model's answer was not usable, so no summary was written and no fields were extracted.`;
const DEGRADED_UNAVAILABLE = `Objective: ${OBJECTIVE.slice(0, -1)}. The call was completed, but the analysis service did not answer, so no summary was written and no fields were extracted.`;
const NULLS = { open_sunday: null, closing_time: null, staff_count: null, manager_name: null };
const QUOTE = {
  type: ['object', 'null'],
  description: 'Where the value was said; null when the value is null.',
  properties: {
    turn: { type: 'integer', description: 'The number in brackets of the transcript line in which the callee gave the value.' },
    quote: { type: 'string', description: 'The words of that line that give the value, copied exactly.' },
  },
  required: ['turn', 'quote'],
  additionalProperties: false,
};

describe('LLM analyst (OpenAI-compatible chat completions)', () => {
  let fake: FakeChatCompletions;
  let analyst: LlmAnalyst;
  beforeEach(async () => {
    fake = await startFakeChatCompletions();
    analyst = new LlmAnalyst({ baseUrl: `${fake.baseUrl}/`, apiKey: KEY, model: 'gpt-4o-mini', timeoutMs: 5000 });
  });
  afterEach(() => fake.close());

  it('posts the model, the bearer key and a strict json_schema built from the fields to <base>/chat/completions', async () => {
    fake.reply({ content: JSON.stringify(good) });
    await analyst.analyse(input());
    expect(fake.requests).to.have.length(1);
    const [req] = fake.requests;
    expect(req.method).to.equal('POST');
    expect(req.path).to.equal('/v1/chat/completions');
    expect(req.headers.authorization).to.equal(`Bearer ${KEY}`);
    expect(req.headers['content-type']).to.equal('application/json');
    expect(Object.keys(req.body).sort()).to.deep.equal(['messages', 'model', 'response_format']);
    expect(req.body.model).to.equal('gpt-4o-mini');
    expect(req.body.response_format).to.deep.equal({
      type: 'json_schema',
      json_schema: {
        name: 'call_analysis',
        strict: true,
        schema: {
          type: 'object',
          properties: {
            summary: { type: 'string', description: 'Plain-English summary of the call: the objective, the outcome and what was learnt.' },
            opt_out: OPT_OUT_SCHEMA,
            extracted: {
              type: 'object',
              properties: {
                open_sunday: { type: ['boolean', 'null'], description: 'whether the shop is open on Sunday' },
                closing_time: { type: ['string', 'null'], description: 'the closing time on Sunday' },
                staff_count: { type: ['number', 'null'], description: 'how many people work there' },
                manager_name: { type: ['string', 'null'] },
              },
              required: ['open_sunday', 'closing_time', 'staff_count', 'manager_name'],
              additionalProperties: false,
            },
            evidence: {
              type: 'object',
              properties: Object.fromEntries(['open_sunday', 'closing_time', 'staff_count', 'manager_name'].map((name) => [name, QUOTE])),
              required: ['open_sunday', 'closing_time', 'staff_count', 'manager_name'],
              additionalProperties: false,
            },
          },
          required: ['summary', 'opt_out', 'extracted', 'evidence'],
          additionalProperties: false,
        },
      },
    });
  });

  it('tells the model the objective, context, language, fields, ending and transcript, never the number called or the call id', async () => {
    fake.reply({ content: JSON.stringify(good) });
    await analyst.analyse(input());
    const { messages } = fake.requests[0].body;
    expect(messages.map((m: { role: string }) => m.role)).to.deep.equal(['system', 'user']);
    expect(messages[0].content).to.include('Answer with JSON only, matching the given schema.');
    expect(messages[1].content).to.equal(
      [
        `Objective: ${OBJECTIVE}`,
        'Context: We deliver groceries.',
        'Language of the call: en-GB',
        'How the call ended: the conversation came to its end',
        'Fields to extract:',
        '- open_sunday (boolean): whether the shop is open on Sunday',
        '- closing_time (string): the closing time on Sunday',
        '- staff_count (number): how many people work there',
        '- manager_name (string)',
        'Transcript:',
        ...transcript.split('\n').map((line, i) => `[${i}] ${line}`),
      ].join('\n'),
    );
    const sent = JSON.stringify(fake.requests[0]);
    for (const secret of ['4155550123', 'call_8c1f2a', 'alloy']) expect(sent).not.to.include(secret);
  });

  it('returns the model’s summary and extracted values, typed as declared and null when not found', async () => {
    fake.reply({ content: JSON.stringify(good) });
    const result = await analyst.analyse(input());
    expect(result).to.deep.equal({ ...good, optOut: false });
  });

  it('drops a value whose quote is not in the turn it names, or that comes without one, and says which', async () => {
    const claimed = {
      ...good,
      evidence: {
        open_sunday: { turn: 2, quote: 'Yes, we are open' }, // verbatim: kept
        closing_time: { turn: 1, quote: 'until 6 pm' }, // the agent's question is turn 1; the words are in turn 2
        staff_count: { turn: 2, quote: 'There are 4 of us.' }, // not the exact words
        manager_name: { turn: 0, quote: 'Corner Shop' }, // a null value has no evidence, whatever the model says
      },
    };
    fake.reply({ content: JSON.stringify(claimed) });
    const result = await analyst.analyse(input());
    expect(result).to.deep.equal({
      optOut: false,
      summary: good.summary,
      extracted: { open_sunday: true, closing_time: null, staff_count: null, manager_name: null },
      evidence: { open_sunday: { turn: 2, quote: 'Yes, we are open' }, closing_time: null, staff_count: null, manager_name: null },
      dropped: ['closing_time', 'staff_count'],
    });
    fake.reply({ content: JSON.stringify({ ...good, evidence: { ...good.evidence, open_sunday: null, staff_count: { turn: 9, quote: 'four' } } }) });
    const again = await analyst.analyse(input());
    expect(again.extracted).to.deep.equal({ open_sunday: null, closing_time: '6 pm', staff_count: null, manager_name: null });
    expect(again.dropped).to.deep.equal(['open_sunday', 'staff_count']);
  });

  it('without fields asks for the summary alone and gives extracted null', async () => {
    fake.reply({ content: JSON.stringify({ summary: 'The shop confirmed its Sunday hours.' }) });
    const result = await analyst.analyse({ ...input({ fields: [], context: null }), endReason: 'max_duration' });
    expect(result).to.deep.equal({ optOut: false, summary: 'The shop confirmed its Sunday hours.', extracted: null, evidence: null });
    const { body } = fake.requests[0];
    expect(body.response_format.json_schema.schema).to.deep.equal({
      type: 'object',
      properties: { summary: { type: 'string', description: 'Plain-English summary of the call: the objective, the outcome and what was learnt.' }, opt_out: OPT_OUT_SCHEMA },
      required: ['summary', 'opt_out'],
      additionalProperties: false,
    });
    expect(body.messages[1].content).to.include('\nContext: (none)\n');
    expect(body.messages[1].content).to.include('\nHow the call ended: cut short at the maximum call duration\nFields to extract: none\n');
  });

  it('retries once after a reply that is not JSON, and returns the second reply', async () => {
    fake.reply({ content: 'Sure! Here is the analysis: {"summary": ' }, { content: JSON.stringify(good) });
    const result = await analyst.analyse(input());
    expect(result).to.deep.equal({ ...good, optOut: false });
    expect(fake.requests).to.have.length(2);
    expect(fake.requests[1].body).to.deep.equal(fake.requests[0].body);
  });

  it('retries once after a reply missing a field, and returns the second reply', async () => {
    const { manager_name: _, ...missing } = good.extracted;
    fake.reply({ content: JSON.stringify({ ...good, extracted: missing }) }, { content: JSON.stringify(good) });
    expect(await analyst.analyse(input())).to.deep.equal({ ...good, optOut: false });
    expect(fake.requests).to.have.length(2);
  });

  it('after two unusable replies completes with nulls for every field, a summary saying so, and both reasons', async () => {
    fake.reply(
      { content: JSON.stringify({ summary: 'Open.', extracted: { ...good.extracted, open_sunday: 'yes', staff_count: '4', extra: 1 }, evidence: good.evidence }) },
      { refusal: 'I cannot help with that.' },
    );
    const result = await analyst.analyse(input());
    expect(result).to.deep.equal({
      optOut: false,
      summary: DEGRADED_INVALID,
      extracted: NULLS,
      evidence: NULLS,
      degraded:
        'attempt 1: the reply did not match the schema (/extracted must not have other properties; /extracted/open_sunday must be boolean or null; ' +
        '/extracted/staff_count must be number or null); attempt 2: the model refused to answer',
    });
    expect(fake.requests).to.have.length(2);
  });

  it('an empty summary is unusable output', async () => {
    fake.reply({ content: JSON.stringify({ ...good, summary: '  ' }) }, { content: '' });
    const result = await analyst.analyse(input());
    expect(result.degraded).to.equal('attempt 1: the reply had an empty summary; attempt 2: the reply was not JSON');
    expect(result.extracted).to.deep.equal(NULLS);
  });

  it('abandons a request that gets no answer at the timeout, tries once more, then degrades', async () => {
    analyst = new LlmAnalyst({ baseUrl: fake.baseUrl, apiKey: KEY, model: 'gpt-4o-mini', timeoutMs: 150 });
    fake.reply('hang', 'hang');
    const started = Date.now();
    const result = await analyst.analyse(input());
    // A bound, not a measurement: without the deadline this would never return.
    expect(Date.now() - started).to.be.below(5000);
    expect(result).to.deep.equal({
      optOut: false,
      summary: DEGRADED_UNAVAILABLE,
      extracted: NULLS,
      evidence: NULLS,
      degraded: 'attempt 1: no answer within 150 ms; attempt 2: no answer within 150 ms',
    });
    expect(fake.requests).to.have.length(2);
  });

  it('a timeout followed by a good reply succeeds on the retry', async () => {
    // Long enough for the good reply on a busy machine; the hung request still times out.
    analyst = new LlmAnalyst({ baseUrl: fake.baseUrl, apiKey: KEY, model: 'gpt-4o-mini', timeoutMs: 1000 });
    fake.reply('hang', { content: JSON.stringify(good) });
    expect(await analyst.analyse(input())).to.deep.equal({ ...good, optOut: false });
    expect(fake.requests).to.have.length(2);
  });

  it('retries an HTTP 500 once, then degrades; the key the provider echoes stays out of the result', async () => {
    fake.reply({ status: 500 }, { status: 500 });
    const result = await analyst.analyse(input());
    expect(result).to.deep.equal({ optOut: false, summary: DEGRADED_UNAVAILABLE, extracted: NULLS, evidence: NULLS, degraded: 'attempt 1: HTTP 500; attempt 2: HTTP 500' });
    expect(JSON.stringify(result)).not.to.include(KEY);
  });

  it('an HTTP 429 followed by a good reply succeeds on the retry', async () => {
    fake.reply({ status: 429 }, { content: JSON.stringify(good) });
    expect(await analyst.analyse(input())).to.deep.equal({ ...good, optOut: false });
    expect(fake.requests).to.have.length(2);
  });

  it('an endpoint that refuses connections degrades with the error code, and no key or address', async () => {
    const closed = await startFakeChatCompletions();
    await closed.close();
    analyst = new LlmAnalyst({ baseUrl: closed.baseUrl, apiKey: KEY, model: 'gpt-4o-mini', timeoutMs: 5000 });
    const result = await analyst.analyse({ ...input({ fields: [] }), endReason: 'minute_cap' });
    expect(result).to.deep.equal({
      optOut: false,
      summary: `Objective: ${OBJECTIVE.slice(0, -1)}. The call was cut short when the account's minute allowance ran out, but the analysis service did not answer, so no summary was written.`,
      extracted: null,
      evidence: null,
      degraded: 'attempt 1: the request failed (ECONNREFUSED); attempt 2: the request failed (ECONNREFUSED)',
    });
  });

  it('never shows its key when serialised or inspected', () => {
    expect(JSON.stringify(analyst)).not.to.include(KEY);
    expect(inspect(analyst, { showHidden: true, depth: 5 })).not.to.include(KEY);
    expect(analyst.name).to.equal('openai');
  });
});

describe('LLM analyst: the opt-out', () => {
  let fake: FakeChatCompletions;
  let analyst: LlmAnalyst;
  beforeEach(async () => {
    fake = await startFakeChatCompletions();
    analyst = new LlmAnalyst({ baseUrl: `${fake.baseUrl}/`, apiKey: KEY, model: 'gpt-4o-mini', timeoutMs: 5000 });
  });
  afterEach(() => fake.close());

  // A callee who asks in words the phrase list does not hold: only the model can tell.
  const paraphrase = `${transcript}\nCallee: Honestly, I would rather you never rang this shop again.`;

  it('reports the opt-out the model reads, however it was put, and tells the model what opt_out means', async () => {
    fake.reply({ content: JSON.stringify({ ...good, opt_out: true }) });
    const result = await analyst.analyse({ ...input(), transcript: paraphrase });
    expect(result.optOut).to.equal(true);
    const system = fake.requests[0].body.messages[0].content as string;
    expect(system).to.include('"opt_out": true when the callee asked not to be called again');
  });

  it('reports an opt-out said in the words of the phrase list even when the model says false', async () => {
    fake.reply({ content: JSON.stringify({ ...good, opt_out: false }) });
    const result = await analyst.analyse({ ...input(), transcript: `${transcript}\nCallee: Please take me off your list.` });
    expect(result.optOut).to.equal(true);
  });

  it('with the model out of reach, still reports an opt-out said in the words of the phrase list', async () => {
    fake.reply({ status: 500 }, { status: 500 });
    const result = await analyst.analyse({ ...input(), transcript: `${transcript}\nCallee: Don't call me again.` });
    expect([result.optOut, result.degraded]).to.deep.equal([true, 'attempt 1: HTTP 500; attempt 2: HTTP 500']);
  });

  it('refuses an opt_out that is not a boolean, and is false when no one asked', async () => {
    fake.reply({ content: JSON.stringify({ ...good, opt_out: 'yes' }) }, { content: JSON.stringify({ ...good, opt_out: false }) });
    const result = await analyst.analyse(input());
    expect(fake.requests).to.have.length(2);
    expect(result.optOut).to.equal(false);
  });
});
