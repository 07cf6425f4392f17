// The sandbox's 555-0131, on both stores: after the agent's opening the callee asks where its order is, and the
// scripted agent answers through the call's first client tool, served here by a local tool server: svc POSTs the
// signed request (the question as the tool's first string parameter), the answer is said in the agent's next turn,
// and the use is on the record and on the call's and the key's live streams, between the question and the answer,
// as the record lists it (never the tool's URL or its answer). Without a tool, or when the tool fails, the agent
// says it will follow up; a use whose question the call's end cut off is dropped with it; another key sees none
// of it.
import { expect } from 'chai';
import { SvcClient, verifyToolRequest, type LiveEvent } from '../../sdk/src/index.js';
import { lexiconFor } from '../../server/src/conversation/lexicon.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import { FakeToolServer } from '../support/fake-tool-server.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';
import { until } from '../support/until.js';

const ASKS = '+14155550131';
const OBJECTIVE = 'Confirm the delivery address for order A-1042.';
const TOKEN = 'tok_receiver_own_token_77c1';
const ANSWER = 'Your order shipped on Monday and arrives on Thursday';
const INTERNAL = 'carrier margin 41 percent';
const PARAMETERS = { type: 'object', properties: { orderId: { type: 'integer' }, question: { type: 'string', description: "The callee's question." } } };
const EN = lexiconFor('en');

/** Collects a stream's events until it ends or is aborted. */
function collect(open: (signal: AbortSignal) => AsyncGenerator<LiveEvent>) {
  const abort = new AbortController();
  const got: LiveEvent[] = [];
  const done = (async () => {
    try {
      for await (const e of open(abort.signal)) got.push(e);
    } catch (err) {
      if (!abort.signal.aborted) throw err;
    }
  })();
  return { got, done, stop: () => (abort.abort(), done) };
}

forEachStore("the sandbox's callee who asks a question (555-0131)", (kind) => {
  let srv: EngineServer;
  let tools: FakeToolServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startEngineServer(kind, { SVC_STREAM_POLL_MS: '20' });
    tools = await FakeToolServer.start();
    alice = await srv.tenant({ rateLimit: 100 });
  });
  afterEach(async () => {
    await srv.close();
    await tools.close();
  });

  const tool = (name: string) => ({ name, description: 'Looks up an order for the callee.', parameters: PARAMETERS, url: `${tools.url}/${name}?token=${TOKEN}` });
  const place = async (extra: Record<string, unknown>, tenant = alice) => {
    const res = await tenant.api.post('/v1/agent/calls', {
      body: { to: ASKS, objective: OBJECTIVE, fields: [{ name: 'address_confirmed', type: 'boolean' }], metadata: { order: 'A-1042' }, ...extra },
    });
    expect(res.status).to.equal(202);
    return res.body.callId as string;
  };
  const secret = async () => (await srv.deps.store.db.selectFrom('api_keys').select('webhook_secret').where('id', '=', alice.keyId).executeTakeFirstOrThrow()).webhook_secret;

  it("answers the question through the call's first tool: the signed POST, the answer said next, the use on the record and on both streams", async () => {
    tools.reply({ body: { answer: ANSWER, internal: INTERNAL } });
    const bob = await srv.tenant({ rateLimit: 100 });
    const sdk = (t: TestTenant) => new SvcClient({ apiKey: t.key, baseUrl: srv.baseUrl });
    const aliceAll = collect((signal) => sdk(alice).streamEvents({ signal }));
    const bobAll = collect((signal) => sdk(bob).streamEvents({ signal }));
    const id = await place({ tools: [tool('order_status'), tool('refund')] });
    const call = collect((signal) => sdk(alice).streamCall(id, { signal }));
    await srv.drive(id);
    await call.done;

    // One request, to the first tool, signed with the key's secret; the question is its first string parameter.
    expect(tools.hits).to.have.length(1);
    const hit = tools.hits[0];
    expect([hit.method, hit.path]).to.deep.equal(['POST', `/order_status?token=${TOKEN}`]);
    const request = verifyToolRequest(hit.raw, hit.headers['x-svc-signature'] as string, await secret());
    const question = request.arguments.question as string;
    expect(EN.callee.question).to.include(question);
    expect(request).to.deep.equal({ event: 'tool.call', callId: id, tool: 'order_status', arguments: { question }, metadata: { order: 'A-1042' } });

    const record = (await alice.api.get(`/v1/agent/calls/${id}`)).body;
    expect(record.status).to.equal('completed');
    // The question right after the opening, the tool's answer (its `answer`, nothing else of it) said next.
    expect(record.turns.slice(2, 4).map((t: { speaker: string; text: string }) => [t.speaker, t.text])).to.deep.equal([
      ['callee', question],
      ['agent', EN.agent.toolAnswer(`${ANSWER}.`)],
    ]);
    expect(record.transcript).to.not.include(INTERNAL);
    const heard = new Date(Date.parse(record.startedAt) + record.turns[2].endSec * 1000).toISOString();
    expect(record.toolCalls).to.have.length(1);
    const [use] = record.toolCalls;
    expect(use).to.deep.equal({ name: 'order_status', arguments: { question }, status: 'ok', latencyMs: use.latencyMs, error: null, at: heard });
    expect(use.latencyMs).to.be.a('number').and.at.least(0);

    // The call's stream: the use between the question and its answer, as the record lists it, with its place.
    const names = call.got.map((e) => (e.event === 'status' ? e.data.status : e.event === 'turn' ? `turn ${e.data.index}` : `tool_call ${e.data.index}`));
    expect(names.slice(0, 8)).to.deep.equal(['queued', 'dialing', 'in_progress', 'turn 0', 'turn 1', 'turn 2', 'tool_call 0', 'turn 3']);
    expect(names.at(-1)).to.equal('completed');
    const streamed = call.got.find((e) => e.event === 'tool_call')!;
    expect(streamed.id).to.equal('3.3.1');
    expect(streamed.data).to.deep.equal({ id: `${id}:tool_call:0`, callId: id, batchId: null, index: 0, ...use, timestamp: heard });
    for (const e of call.got) expect(JSON.stringify(e)).to.not.include(TOKEN).and.not.include(INTERNAL).and.not.include('127.0.0.1');

    // The key's stream has it too; another key's has nothing of the call, and reads no record of it.
    await until("the key's stream has the use", () => aliceAll.got.some((e) => e.event === 'tool_call'));
    expect(aliceAll.got.find((e) => e.event === 'tool_call')!.data).to.deep.equal(streamed.data);
    await until("the key's stream has the end", () => aliceAll.got.some((e) => e.event === 'status' && e.data.status === 'completed'));
    expect(bobAll.got.filter((e) => e.data.callId === id)).to.deep.equal([]);
    expect((await bob.api.get(`/v1/agent/calls/${id}`)).status).to.equal(404);
    await Promise.all([aliceAll.stop(), bobAll.stop()]);
  });

  it('says it will follow up when the call has no tools, and when the tool fails; the failure is on the record', async () => {
    const bare = await place({});
    await srv.drive(bare);
    const record = (await alice.api.get(`/v1/agent/calls/${bare}`)).body;
    expect([record.status, record.turns[3].text, record.toolCalls]).to.deep.equal(['completed', EN.agent.followUp, []]);

    tools.reply({ status: 500, body: { answer: 'not this' } });
    const failing = await place({ tools: [tool('order_status')] });
    await srv.drive(failing);
    const failed = (await alice.api.get(`/v1/agent/calls/${failing}`)).body;
    expect(failed.turns[3].text).to.equal(EN.agent.followUp);
    expect(failed.toolCalls.map((u: { status: string; error: string }) => [u.status, u.error])).to.deep.equal([['failed', 'the tool answered HTTP 500']]);
    expect(tools.hits).to.have.length(1);
  });

  it("drops a use whose question the call's end cut off, from the record and the streams", async () => {
    tools.reply({ body: { answer: ANSWER } });
    const id = await place({ tools: [tool('order_status')] });
    for (let i = 0; i < 50 && (await srv.row(id)).status !== 'in_progress'; i++) {
      const r = await srv.row(id);
      if (r.next_run_at !== null && r.next_run_at > srv.clock.now()) srv.clock.ms = r.next_run_at;
      await srv.engine.tick();
    }
    const written = await srv.deps.store.db.selectFrom('call_tool_calls').select('at').where('call_id', '=', id).execute();
    expect(written).to.have.length(1);
    // Canceled before the question is heard.
    srv.clock.ms = Number(written[0].at) - 500;
    expect((await alice.api.post(`/v1/agent/calls/${id}/cancel`)).status).to.equal(202);
    await srv.drive(id);
    const record = (await alice.api.get(`/v1/agent/calls/${id}`)).body;
    expect([record.status, record.toolCalls]).to.deep.equal(['completed', []]);
    expect(await srv.deps.store.db.selectFrom('call_tool_calls').select('seq').where('call_id', '=', id).execute()).to.deep.equal([]);
    const replay = collect((signal) => new SvcClient({ apiKey: alice.key, baseUrl: srv.baseUrl }).streamCall(id, { signal }));
    await replay.done;
    expect(replay.got.map((e) => e.event)).to.not.include('tool_call');
  });
});
