// The client's own tools on a realtime call over the Twilio carrier, as main.ts composes them, against a fake Twilio,
// a fake realtime model that calls a function by name, and a local tool server standing for the client's: the
// session offers the call's tools, the model's call becomes a signed POST the SDK's verifiers accept, the answer is
// the function's output, and every use is on the record, written by the process that holds the line. Failures
// (statuses, answers that are not JSON or too large, a redirect, an answer cut off, a refused connection, a
// timeout) are answered to the model as `{ error }` and the call goes on; a slow tool has the callee hear svc's
// filler; a tool still working when the callee hangs up is given up and recorded so. The use is on the call's live
// stream as the record lists it.
import { expect } from 'chai';
import { SvcClient, verifyToolRequest, verifyWebhook, type LiveEvent, type StreamToolCall } from '../../../sdk/src/index.js';
import { fillerFor } from '../../../server/src/voice-agent/filler.js';
import type { EngineServer } from '../../support/engine.js';
import { FakeMediaPeer, FRAME_BYTES, muLawTone } from '../../support/fake-media-peer.js';
import type { FakeRealtime, RealtimeStep } from '../../support/fake-realtime.js';
import { FakeToolServer } from '../../support/fake-tool-server.js';
import { FakeTwilio } from '../../support/fake-twilio.js';
import { freePort } from '../../support/free-port.js';
import { forEachStore } from '../../support/stores.js';
import { startRealtimeTwilio, type RealtimeTwilio } from './realtime-twilio.js';

const HELLO = 'Hello, I am an AI assistant calling for a customer.';
const ASK = 'Do you have the blue kettle?';
const TOOL_TOKEN = 'tok_receiver_own_token_5f3a';
const PARAMETERS = { type: 'object', properties: { sku: { type: 'string', description: 'The product code.' } }, required: ['sku'] };

forEachStore('client tools on a realtime call', (kind) => {
  let twilio: FakeTwilio;
  let tools: FakeToolServer;
  let h: RealtimeTwilio | undefined;
  let srv: EngineServer;
  let realtime: FakeRealtime;
  let peer: FakeMediaPeer | null = null;

  beforeEach(async () => {
    twilio = await FakeTwilio.start();
    twilio.completeOnHangUp = true;
    tools = await FakeToolServer.start();
    h = undefined;
  });
  afterEach(async () => {
    peer?.close();
    peer = null;
    await h?.close();
    await tools.close();
    await twilio.close();
  });

  const tool = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    description: 'Checks whether a product is in stock.',
    parameters: PARAMETERS,
    url: `${tools.url}/${name}?token=${TOOL_TOKEN}`,
    ...extra,
  });

  /** Places the call with `placed` in its body, answers it, and has the callee say ASK once the greeting has played. */
  async function callAsking(script: RealtimeStep[], placed: Record<string, unknown>) {
    h = await startRealtimeTwilio(kind, twilio, script);
    ({ srv, realtime } = h);
    // The engine's clock just behind the wall's, which times what the line records (its turns, its uses of tools),
    // so the answer (4 s later on the engine's clock) comes before them, as it does on one clock.
    srv.clock.ms = Date.now() - 10_000;
    const { id, sid, url, token } = await h.placeCall(placed);
    await h.answer(sid, id);
    peer = await FakeMediaPeer.connect(url);
    peer.start({ callSid: sid, token });
    await peer.until(() => peer!.mediaBytes === 1600);
    peer.speak(muLawTone(10 * FRAME_BYTES, 300));
    return { id, sid };
  }

  /** The call's end: the model's end_call hangs up, Twilio completes, the engine ends it; its record as the key reads it. */
  async function ended(id: string, sid: string) {
    srv.clock.advance(30_000);
    await twilio.hungUp(sid);
    await srv.drive(id);
    const res = await h!.tenant.api.get(`/v1/agent/calls/${id}`);
    expect(res.status).to.equal(200);
    return res.body;
  }

  /** The call's stream read whole after its end, checked to show the question, the use it led to, then the answer. */
  async function streamedInOrder(id: string): Promise<LiveEvent[]> {
    const streamed: LiveEvent[] = [];
    for await (const e of new SvcClient({ apiKey: h!.tenant.key, baseUrl: srv.baseUrl }).streamCall(id)) streamed.push(e);
    expect(streamed.map((e) => (e.event === 'status' ? e.data.status : `${e.event} ${e.data.index}`))).to.deep.equal([
      'queued',
      'dialing',
      'in_progress',
      'turn 0',
      'turn 1',
      'tool_call 0',
      'turn 2',
      'completed',
    ]);
    return streamed;
  }

  const secretOf = async (keyId: string) => (await srv.deps.store.db.selectFrom('api_keys').select('webhook_secret').where('id', '=', keyId).executeTakeFirstOrThrow()).webhook_secret;

  it("offers the call's tools, POSTs the signed request when the model calls one, gives the model the answer, and keeps the use on the record", async () => {
    tools.reply({ body: { inStock: true, count: 3 } });
    const answer = 'Yes, there are three in stock. Goodbye.';
    const { id, sid } = await callAsking(
      [{ agent: HELLO }, { callee: ASK, afterBytes: 10 * FRAME_BYTES }, { call: 'check_stock', arguments: { sku: 'kettle-blue' } }, { agent: answer }, { endCall: true }],
      { tools: [tool('check_stock', { timeoutMs: 2000 })], metadata: { order: 'A-17' } },
    );
    await peer!.until(() => peer!.mediaBytes === 3200);
    const offered = (realtime.connections[0].session.tools as Array<Record<string, unknown>>).map((t) => t.name);
    expect(offered).to.deep.equal(['end_call', 'record_opt_out', 'voicemail_detected', 'press_keys', 'wait_on_hold', 'keep_listening', 'check_stock']);
    expect((realtime.connections[0].session.tools as unknown[])[6]).to.deep.equal({
      type: 'function',
      name: 'check_stock',
      description: 'Checks whether a product is in stock.',
      parameters: PARAMETERS,
    });

    expect(tools.hits).to.have.length(1);
    const hit = tools.hits[0]!;
    expect(hit).to.include({ method: 'POST', path: `/check_stock?token=${TOOL_TOKEN}` });
    expect(hit.headers).to.include({ 'content-type': 'application/json', 'user-agent': 'svc-tools/1.0' });
    const secret = await secretOf(h!.tenant.keyId);
    const request = { event: 'tool.call', callId: id, tool: 'check_stock', arguments: { sku: 'kettle-blue' }, metadata: { order: 'A-17' } };
    // Signed exactly as a webhook is: the SDK's webhook verifier and its tool-request verifier both accept it.
    expect(verifyToolRequest(hit.raw, hit.headers['x-svc-signature'], secret)).to.deep.equal(request);
    expect(verifyWebhook(hit.raw, hit.headers['x-svc-signature'], secret)).to.deep.equal(request);
    expect(() => verifyToolRequest(hit.raw, hit.headers['x-svc-signature'], 'whsec_another_secret')).to.throw('No v1 signature matches');

    const calls = realtime.connections[0].functionCalls;
    expect(realtime.connections[0].toolOutputs).to.deep.equal([{ callId: calls[0]!.callId, output: '{"inStock":true,"count":3}' }]);

    const record = await ended(id, sid);
    expect(record.status).to.equal('completed');
    expect(record.transcript).to.equal(`Agent: ${HELLO}\nCallee: ${ASK}\nAgent: ${answer}`);
    expect(record.tools).to.deep.equal([{ name: 'check_stock', description: 'Checks whether a product is in stock.', parameters: PARAMETERS, timeoutMs: 2000 }]);
    expect(record.toolCalls).to.have.length(1);
    const [use] = record.toolCalls;
    expect(use).to.deep.equal({ name: 'check_stock', arguments: { sku: 'kettle-blue' }, status: 'ok', latencyMs: use.latencyMs, error: null, at: use.at });
    expect(use.latencyMs).to.be.a('number').and.at.least(0);
    expect(Date.parse(use.at)).to.be.a('number').and.not.NaN;
    // The record's tools never show the url, which carries the receiver's own token.
    expect(JSON.stringify(record)).not.to.include(TOOL_TOKEN);
    // The use is on the call's stream too, as the record lists it, between the question and its answer.
    const streamed = await streamedInOrder(id);
    const shown = streamed[5]!.data as StreamToolCall;
    expect(shown).to.deep.equal({ id: `${id}:tool_call:0`, callId: id, batchId: null, index: 0, ...use, timestamp: shown.timestamp });
    expect(Date.parse(shown.timestamp)).to.be.at.least(Date.parse(use.at));
    expect(JSON.stringify(streamed)).not.to.include(TOOL_TOKEN);

    const mallory = await srv.tenant();
    expect((await mallory.api.get(`/v1/agent/calls/${id}`)).status).to.equal(404);
    const logs = h!.logs.join('\n');
    expect(logs).to.include('client tool answered');
    for (const secretText of [secret, TOOL_TOKEN]) expect(logs).not.to.include(secretText);
  });

  it("streams the callee's question before the use it led to when the transcriber delivers it after the model's call", async () => {
    tools.reply({ body: { inStock: true, count: 3 } });
    const answer = 'Yes, there are three in stock. Goodbye.';
    const { id, sid } = await callAsking(
      [{ agent: HELLO }, { callee: ASK, afterBytes: 10 * FRAME_BYTES, transcriptDelayMs: 600 }, { call: 'check_stock', arguments: { sku: 'kettle-blue' } }, { agent: answer }, { endCall: true }],
      { tools: [tool('check_stock')] },
    );
    // The answer has played before the question's transcript is in.
    await peer!.until(() => peer!.mediaBytes === 3200);
    expect(realtime.connections[0].toolOutputs.map((o) => o.output)).to.deep.equal(['{"inStock":true,"count":3}']);
    expect(realtime.connections[0].sent.filter((e) => e.type === 'conversation.item.input_audio_transcription.completed')).to.deep.equal([]);
    // The model's end_call after its answer: the question's words are still waited for, and the call ends with them.
    const record = await ended(id, sid);
    expect(record.transcript).to.equal(`Agent: ${HELLO}\nCallee: ${ASK}\nAgent: ${answer}`);
    const streamed = await streamedInOrder(id);
    const times = streamed.slice(3, 7).map((e) => Date.parse((e.data as { timestamp: string }).timestamp));
    expect(times).to.deep.equal([...times].sort((a, b) => a - b));
  });

  it('answers the model `{ error }` for every way a tool fails, and the call goes on; each use is on the record as it failed', async () => {
    const closed = await freePort();
    tools.reply(
      { status: 500, body: { message: 'database down' } },
      { body: 'in stock' },
      { body: { blob: 'x'.repeat(17 * 1024) } },
      { status: 302, headers: { location: 'https://example.com/elsewhere' } },
      { cut: true, body: { inStock: true, note: 'a long enough answer to cut in two' } },
      { hold: true },
    );
    const sorry = 'Sorry, I cannot check that right now. Goodbye.';
    const lookup = { call: 'check_stock', arguments: { sku: 'kettle-blue' } } as const;
    // The tool that times out has a short time of its own: the others answer within the default, however busy the
    // machine running the test is.
    const { id, sid } = await callAsking(
      [
        { agent: HELLO },
        { callee: ASK, afterBytes: 10 * FRAME_BYTES },
        lookup,
        lookup,
        lookup,
        lookup,
        lookup,
        { call: 'slow_stock', arguments: { sku: 'kettle-blue' } },
        { call: 'gone', arguments: { sku: 'x' } },
        { agent: sorry },
        { endCall: true },
      ],
      { tools: [tool('check_stock'), tool('slow_stock', { timeoutMs: 300 }), { ...tool('gone'), url: `http://127.0.0.1:${closed}/gone` }] },
    );
    await peer!.until(() => peer!.mediaBytes === 3200);
    const errors = [
      'the tool answered HTTP 500',
      "the tool's answer is not JSON",
      "the tool's answer is larger than 16 KiB",
      'the tool answered HTTP 302 (redirects are not followed)',
      "the tool's answer broke off",
      'the tool did not answer within 300 ms',
      'the tool could not be reached (ECONNREFUSED)',
    ];
    expect(realtime.connections[0].toolOutputs.map((o) => JSON.parse(o.output))).to.deep.equal(errors.map((error) => ({ error })));
    // The held request was dropped when its time was up.
    await tools.until(() => tools.hits[5]?.aborted === true);

    const record = await ended(id, sid);
    expect(record.status).to.equal('completed');
    expect(record.transcript).to.equal(`Agent: ${HELLO}\nCallee: ${ASK}\nAgent: ${sorry}`);
    expect(record.toolCalls.map((c: { name: string; status: string; error: string }) => [c.name, c.status, c.error])).to.deep.equal([
      ['check_stock', 'failed', errors[0]],
      ['check_stock', 'failed', errors[1]],
      ['check_stock', 'failed', errors[2]],
      ['check_stock', 'failed', errors[3]],
      ['check_stock', 'failed', errors[4]],
      ['slow_stock', 'timeout', errors[5]],
      ['gone', 'failed', errors[6]],
    ]);
    // The timeout is timed from the request, the latency from the model's call (a timer may fire a millisecond early).
    expect(record.toolCalls[5].latencyMs).to.be.within(290, 5000);
  });

  it('has the callee hear svc\'s "One moment." while a tool takes long, before its answer', async () => {
    tools.reply({ delayMs: 1500, body: { inStock: false } });
    const answer = 'I am sorry, it is out of stock. Goodbye.';
    const filler = await fillerFor('en-US');
    const { id, sid } = await callAsking(
      [{ agent: HELLO }, { callee: ASK, afterBytes: 10 * FRAME_BYTES }, { call: 'check_stock', arguments: { sku: 'kettle-blue' } }, { agent: answer }, { endCall: true }],
      { tools: [tool('check_stock')] },
    );
    // The filler plays while the tool works, and the model's answer after it.
    await peer!.until(() => peer!.mediaBytes === 1600 + filler.audio.length);
    expect(realtime.connections[0].toolOutputs).to.deep.equal([]);
    await peer!.until(() => peer!.mediaBytes === 1600 + filler.audio.length + 1600);
    expect(realtime.connections[0].toolOutputs.map((o) => o.output)).to.deep.equal(['{"inStock":false}']);
    const record = await ended(id, sid);
    expect(record.transcript).to.equal(`Agent: ${HELLO}\nCallee: ${ASK}\nAgent: One moment.\nAgent: ${answer}`);
    expect(record.toolCalls.map((c: { status: string }) => c.status)).to.deep.equal(['ok']);
    expect(record.toolCalls[0].latencyMs).to.be.within(1490, 5000);
  });

  it('gives up a tool still working when the callee hangs up, and records it so', async () => {
    tools.reply({ hold: true });
    const { id, sid } = await callAsking([{ agent: HELLO }, { callee: ASK, afterBytes: 10 * FRAME_BYTES }, { call: 'check_stock', arguments: { sku: 'kettle-blue' } }], {
      tools: [tool('check_stock', { timeoutMs: 20_000 })],
    });
    await tools.until(() => tools.hits.length === 1);
    peer!.stop();
    expect((await twilio.status(sid, 'completed')).status).to.equal(204);
    const row = await srv.drive(id);
    expect(row.status).to.equal('completed');
    await tools.until(() => tools.hits[0]!.aborted);
    expect(realtime.connections[0].toolOutputs).to.deep.equal([]);
    const [use] = JSON.parse(row.tool_calls_json!);
    expect(use).to.deep.include({ name: 'check_stock', arguments: { sku: 'kettle-blue' }, status: 'failed', error: 'the call ended before the tool answered' });
  });
});
