// A placement's `tools`: every bad shape is 400 invalid_tools with the spec's body naming the tool and what is wrong
// (and places nothing); a good one is stored with its defaults resolved and shown on the record without its url;
// another key cannot read it; a batch's calls take tools as placeCall does; svc's own tools' names are all refused.
import { expect } from 'chai';
import { loadDocument } from '../../server/src/contract/openapi-document.js';
import { CALL_TOOLS } from '../../server/src/voice-agent/tools.js';
import { withTransfer } from '../../server/src/voice-agent/transfer.js';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { fieldNamedIn, refusedFor } from '../support/problems.js';

const ok = { to: '+14155550123', objective: 'Ask whether the shop has the blue kettle in stock.' };
const PARAMETERS = { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] };
const tool = { name: 'check_stock', description: 'Checks whether a product is in stock.', parameters: PARAMETERS, url: 'https://tools.example.com/stock?token=tok_own_9' };
/** invalid_tools' meaning, from the spec's ErrorToken descriptions: every message starts with it. */
const MEANING =
  '`tools` is not an array of at most 10 tools with different names, each `{ "name": 1 to 64 letters, digits, _ or - (not one of svc\'s own tools: end_call, record_opt_out, voicemail_detected, press_keys, wait_on_hold, keep_listening, transfer_call), "description": 1 to 1024 characters, "parameters"?: a JSON Schema of type object, at most 8 KiB, "url": as webhookUrl, "timeoutMs"?: 100 to 20000 }`.';
const HINT = 'For local development, start the service with SVC_WEBHOOK_ALLOW_PRIVATE=1 to allow http and loopback or private hosts.';

forEachStore('a placement with client tools', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant({ rateLimit: 1000 });
  });
  afterEach(() => srv.close());

  const calls = async () => (await srv.deps.store.db.selectFrom('calls').select('id').execute()).length;

  const rejections: Array<[string, unknown, string]> = [
    ['tools that are not an array', { name: 'x' }, '`tools` must be array,null'],
    ['eleven tools', Array.from({ length: 11 }, (_, i) => ({ ...tool, name: `t${i}` })), '`tools` must NOT have more than 10 items'],
    ['two tools of one name', [tool, { ...tool, url: 'https://tools.example.com/other' }], '`tools` must not repeat a name'],
    ['a name with a space', [{ ...tool, name: 'check stock' }], '`tools.0.name` must match pattern "^[a-zA-Z0-9_-]{1,64}$"'],
    ['a name of 65 characters', [{ ...tool, name: 'a'.repeat(65) }], '`tools.0.name` must match pattern "^[a-zA-Z0-9_-]{1,64}$"'],
    [
      "svc's own end_call",
      [tool, { ...tool, name: 'end_call' }],
      "`tools.1.name` must not be one of svc's own tools' names (end_call, record_opt_out, voicemail_detected, press_keys, wait_on_hold, keep_listening, transfer_call)",
    ],
    ['no description', [{ ...tool, description: undefined }], "`tools.0` must have required property 'description'"],
    ['a description of 1025 characters', [{ ...tool, description: 'a'.repeat(1025) }], '`tools.0.description` must NOT have more than 1024 characters'],
    ['a blank description', [{ ...tool, description: '  ' }], '`tools.0.description` must match pattern "\\S"'],
    ['parameters that are an array', [{ ...tool, parameters: [] }], '`tools.0.parameters` must be object'],
    ['parameters without a type', [{ ...tool, parameters: { properties: {} } }], "`tools.0.parameters` must have required property 'type'"],
    ['parameters of type string', [{ ...tool, parameters: { type: 'string' } }], '`tools.0.parameters.type` must be equal to one of the allowed values: object'],
    [
      'parameters the meta-schema refuses',
      [{ ...tool, parameters: { type: 'object', properties: { sku: { type: 'strng' } } } }],
      '`tools.0.parameters` is not a valid JSON Schema: /properties/sku/type must be equal to one of the allowed values',
    ],
    [
      'parameters with a $ref to nothing',
      [{ ...tool, parameters: { type: 'object', properties: { sku: { $ref: '#/$defs/nope' } } } }],
      "`tools.0.parameters` does not compile as a JSON Schema: can't resolve reference #/$defs/nope from id #",
    ],
    [
      'parameters with a pattern that is no regular expression',
      [{ ...tool, parameters: { type: 'object', properties: { sku: { type: 'string', pattern: '(' } } } }],
      '`tools.0.parameters` does not compile as a JSON Schema: Invalid regular expression: /(/u: Unterminated group',
    ],
    ['parameters over 8 KiB', [{ ...tool, parameters: { type: 'object', description: 'x'.repeat(8200) } }], '`tools.0.parameters` is 8234 bytes as JSON, more than 8192'],
    ['no url', [{ ...tool, url: undefined }], "`tools.0` must have required property 'url'"],
    ['a timeout under 100 ms', [{ ...tool, timeoutMs: 99 }], '`tools.0.timeoutMs` must be >= 100'],
    ['a timeout over 20 s', [{ ...tool, timeoutMs: 20_001 }], '`tools.0.timeoutMs` must be <= 20000'],
    ['a timeout that is not an integer', [{ ...tool, timeoutMs: 250.5 }], '`tools.0.timeoutMs` must be integer'],
    ['a property tools do not have', [{ ...tool, secret: 'x' }], '`tools.0` must NOT have additional properties'],
  ];
  for (const [what, tools, detail] of rejections) {
    it(`refuses ${what} with 400 invalid_tools, naming it, and places nothing`, async () => {
      const res = await alice.api.post('/v1/agent/calls', { body: { ...ok, tools } });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal(refusedFor({ error: 'invalid_tools', message: `${MEANING} (${detail}.)`, field: fieldNamedIn(detail) }));
      expect(await calls()).to.equal(0);
    });
  }

  it("refuses a tool url under webhookUrl's rules, with their reasons naming the tool's url", async () => {
    for (const [url, message] of [
      ['http://tools.example.com/stock', `tools.0.url must use https. ${HINT}`],
      ['https://10.0.0.7/stock', `tools.0.url must point at a public address. ${HINT}`],
      ['https://localhost/stock', `tools.0.url must not point at localhost. ${HINT}`],
      ['https://user:pw@tools.example.com/stock', 'tools.0.url must not contain credentials.'],
    ]) {
      const res = await alice.api.post('/v1/agent/calls', { body: { ...ok, tools: [{ ...tool, url }] } });
      expect(res.status, url).to.equal(400);
      expect(res.body, url).to.deep.equal(refusedFor({ error: 'invalid_tools', message, field: 'tools.0.url' }));
    }
    expect(await calls()).to.equal(0);
  });

  it('orders invalid_tools after invalid_recording_notice and before unknown_field and the voice', async () => {
    const bad = [{ ...tool, name: 'end_call' }];
    expect((await alice.api.post('/v1/agent/calls', { body: { ...ok, recordingNotice: 'yes', tools: bad } })).body.error).to.equal('invalid_recording_notice');
    expect((await alice.api.post('/v1/agent/calls', { body: { ...ok, tools: bad, extra: 1, voice: 'gravel' } })).body.error).to.equal('invalid_tools');
  });

  it('stores the tools with their defaults, shows them on the record without their urls, and no other key reads them', async () => {
    const bare = { name: 'opening-hours', description: 'The opening hours of a day.', url: 'https://tools.example.com/hours' };
    const res = await alice.api.post('/v1/agent/calls', { body: { ...ok, tools: [{ ...tool, timeoutMs: 2500 }, bare] } });
    expect(res.status).to.equal(202);
    const id = res.body.callId as string;
    const row = await srv.deps.store.db.selectFrom('calls').select(['tools_json', 'tool_calls_json']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.tools_json!)).to.deep.equal([
      { ...tool, timeoutMs: 2500 },
      { ...bare, parameters: { type: 'object', properties: {} }, timeoutMs: 5000 },
    ]);
    expect(row.tool_calls_json).to.equal(null);
    const record = await alice.api.get(`/v1/agent/calls/${id}`);
    expect(record.body.tools).to.deep.equal([
      { name: 'check_stock', description: tool.description, parameters: PARAMETERS, timeoutMs: 2500 },
      { name: 'opening-hours', description: bare.description, parameters: { type: 'object', properties: {} }, timeoutMs: 5000 },
    ]);
    expect(record.body.toolCalls).to.deep.equal([]);
    expect(JSON.stringify(record.body)).not.to.include('tools.example.com');
    const mallory = await srv.tenant();
    expect((await mallory.api.get(`/v1/agent/calls/${id}`)).body).to.deep.equal({ error: 'not_found', message: `No call ${id} for this API key.` });
  });

  it('shows a call placed without tools as tools null and toolCalls empty', async () => {
    const res = await alice.api.post('/v1/agent/calls', { body: ok });
    const record = await alice.api.get(`/v1/agent/calls/${res.body.callId}`);
    expect(record.body).to.deep.include({ tools: null, toolCalls: [] });
  });

  it("checks a batch's calls' tools as placeCall does, and keeps them with each call", async () => {
    const bad = await alice.api.post('/v1/agent/batches', {
      body: {
        calls: [
          { ...ok, tools: [tool] },
          { ...ok, tools: [{ ...tool, name: 'record_opt_out' }] },
        ],
      },
    });
    expect(bad.status).to.equal(400);
    expect(bad.body.errors).to.deep.equal([
      {
        index: 1,
        error: 'invalid_tools',
        message: `${MEANING} (\`tools.0.name\` must not be one of svc's own tools' names (end_call, record_opt_out, voicemail_detected, press_keys, wait_on_hold, keep_listening, transfer_call).)`,
      },
    ]);
    const good = await alice.api.post('/v1/agent/batches', { body: { calls: [{ ...ok, tools: [tool] }], defaults: {} } });
    expect(good.status).to.equal(202);
    const [item] = await srv.deps.store.db.selectFrom('batch_items').select('call_json').execute();
    expect(JSON.parse(item!.call_json).tools).to.deep.equal([{ ...tool, timeoutMs: 5000 }]);
  });
});

describe('the names svc keeps for its own tools', () => {
  it("include every tool of svc's own registry, so a client's tool never takes the name of one", () => {
    const doc = loadDocument() as unknown as { components: { schemas: { ClientTool: { properties: { name: { 'x-reserved-names': string[] } } } } } };
    const reserved = doc.components.schemas.ClientTool.properties.name['x-reserved-names'];
    for (const offered of CALL_TOOLS.offered) expect(reserved).to.include(offered.name);
    // transfer_call, offered on a call placed with a transfer, in either mode.
    for (const mode of ['cold', 'warm'] as const) for (const offered of withTransfer({ to: '+14155550142', mode, when: 'x' }, CALL_TOOLS).offered) expect(reserved).to.include(offered.name);
  });
});
