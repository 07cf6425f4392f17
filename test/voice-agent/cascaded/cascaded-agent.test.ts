// The cascaded agent joining live lines end to end, on each store: CascadedAgent.join writes through the line's
// records (line-records.ts), so what the engine reads back as a call ends — the turns, the opt-out, the agent's
// failure, the line opened and closed, the latency — is asserted from the store, with the session's real providers
// at the vendors' fakes (session-rig.ts).
import { expect } from 'chai';
import type { Logger } from 'pino';
import { addNumber, createAccount, createKey } from '../../../server/src/accounts/accounts-repo.js';
import { apologyText } from '../../../server/src/voice-agent/apology.js';
import { CascadedAgent } from '../../../server/src/voice-agent/cascaded/cascaded-agent.js';
import { heardText } from '../../../server/src/voice-agent/cascaded/cascaded-session.js';
import type { LineBrief, TimedTurn } from '../../../server/src/conversation/conversation.js';
import type { LiveLine } from '../../../server/src/telephony/live-line.js';
import { insertTestCall } from '../../support/calls.js';
import type { TestTenant } from '../../support/server.js';
import { forEachStore, freshStore, type TestStore } from '../../support/stores.js';
import { BRIEF, KEYS, Rig } from './session-rig.js';

forEachStore('the cascaded agent on a live line, through its records', (kind) => {
  let ts: TestStore;
  let rig: Rig;
  let callId: string;

  beforeEach(async function () {
    this.timeout(30_000);
    ts = await freshStore(kind);
    const now = Date.now();
    const accountId = await createAccount(ts.store.db, { name: 'acme', planMinutes: 1000, defaultCallerId: '+14155550100' }, now);
    await addNumber(ts.store.db, accountId, '+14155550100', now);
    const key = await createKey(ts.store.db, { accountId, name: 'acme' }, now);
    const tenant = { accountId, keyId: key.row.id, key: key.key, callerId: '+14155550100' } as TestTenant;
    callId = (await insertTestCall(ts.store, tenant, { status: 'in_progress', summary: null, transcript: null, extracted_json: null, ended_at: null, duration_sec: null })).id;
  });

  afterEach(async () => {
    await rig?.close();
    await ts?.drop();
    const logs = rig?.logs.join('\n') ?? '';
    for (const key of KEYS) expect(logs).not.to.contain(key);
  });

  const row = () => ts.store.db.selectFrom('calls').select(['opt_out', 'agent_failure', 'line_opened_at', 'line_closed_at', 'latency_json']).where('id', '=', callId).executeTakeFirstOrThrow();

  const join = (agent: CascadedAgent) => (brief: LineBrief, line: LiveLine, logger: Logger) => agent.join(brief, line, logger);

  it('records the turns as heard and the opt-out the model recorded, and the line closed once the goodbye has played', async function () {
    this.timeout(30_000);
    const ASK = 'Please take me off your list.';
    const SORRY = 'I am sorry, you will not be called again. Goodbye.';
    rig = await Rig.start({ callee: [{ text: ASK, atMs: 300 }], brief: { ...BRIEF, callId } });
    const agent = new CascadedAgent(ts.store.db, rig.agentOptions());
    rig.chat.reply({ calls: [{ id: 'call_opt_1', name: 'record_opt_out', arguments: ['{}'] }] }, { text: [SORRY], calls: [{ id: 'call_end_1', name: 'end_call', arguments: ['{}'] }] });
    const session = rig.begin(join(agent));
    expect(await rig.done()).to.equal('end_call');
    expect(session.keepingLastWords).to.equal(false);
    expect(rig.line.hungUp).to.equal('end_call');
    const turns = await agent.turns(callId);
    expect(turns.map((t) => [t.speaker, t.text])).to.deep.equal([
      ['callee', ASK],
      ['agent', SORRY],
    ]);
    expect(turns[1]!.endMs - turns[1]!.startMs).to.equal(Math.round(rig.line.agentAudio.length / 8));
    expect(await agent.optedOut(callId)).to.equal(true);
    expect(await agent.failure(callId)).to.equal(null);
    const r = await row();
    expect(Number(r.line_opened_at)).to.be.greaterThan(0);
    expect(Number(r.line_closed_at)).to.be.at.least(Number(r.line_opened_at));
    const latency = JSON.parse(r.latency_json!) as { turns: Array<{ atMs: number; stages: Record<string, number> }>; bargeIns: unknown[] };
    expect(latency.turns).to.have.length(1);
    expect(latency.turns[0]!.atMs).to.equal(turns[0]!.endMs);
    expect(latency.turns[0]!.stages).to.have.all.keys('endpointMs', 'ownMs', 'modelMs', 'voiceMs');
    expect(latency.bargeIns).to.deep.equal([]);
  });

  // The callee hangs up a second and a half into a reply of four. The recogniser takes its time to answer
  // CloseStream, so the session is closing for that long before it writes the reply it holds (its audio neither
  // played through nor cut), and the engine reads the turns in between: it waits for them.
  for (const voiceDone of [true, false]) {
    it(`records a reply the callee hung up on ${voiceDone ? 'whole, its voice done' : 'as far as it was heard, its voice still at work'}, and the engine waits for it`, async function () {
      this.timeout(30_000);
      const ASK = 'Is the shop open on Sunday?';
      const REPLY = 'Yes, it is open on Sunday from ten in the morning until four in the afternoon, and on Saturday until six.';
      rig = await Rig.start({ callee: [{ text: ASK, atMs: 300 }], brief: { ...BRIEF, callId }, deepgram: { closeDelayMs: 400 } });
      const agent = new CascadedAgent(ts.store.db, rig.agentOptions());
      rig.chat.reply({ text: [REPLY] });
      // Two seconds of the voice's audio (24 kHz PCM16), then it holds the rest.
      if (!voiceDone) rig.speech.play({ holdAfterBytes: 2 * 48_000 });
      rig.begin(join(agent));
      await rig.line.until('a second and a half of the reply heard', () => rig.line.heardBytes >= 8 * 1500);
      const ended = rig.line.calleeHangsUp();
      await rig.deepgram.until(() => rig.deepgram.connections[0]!.received.some((m) => m.type === 'CloseStream'));
      const read = await agent.turns(callId);
      expect(await ended).to.equal('line_ended');
      const written = await agent.turns(callId);
      expect(read).to.deep.equal(written);
      expect(written.map((t) => t.speaker)).to.deep.equal(['callee', 'agent']);
      const [asked, reply] = written as [TimedTurn, TimedTurn];
      expect(asked.text).to.equal(ASK);
      if (voiceDone) expect(reply.text).to.equal(REPLY);
      else {
        // The words of a second and a half at the speaking rate, and the turn ends where the callee stopped hearing it.
        expect(reply.text).to.equal(heardText({ text: REPLY, synthesized: false, sentBytes: 0 }, reply.endMs - reply.startMs));
        expect(reply.text.split(' ').length).to.be.within(2, REPLY.split(' ').length - 1);
        expect(reply.endMs - reply.startMs).to.be.within(1500, 2000);
      }
    });
  }

  it('records the agent unavailable when the chat model fails twice, after the callee heard the apology', async function () {
    this.timeout(30_000);
    rig = await Rig.start({ callee: [{ text: 'Hello?', atMs: 300 }], brief: { ...BRIEF, callId } });
    const agent = new CascadedAgent(ts.store.db, rig.agentOptions());
    rig.chat.reply({ status: 500 }, { status: 503 });
    rig.begin(join(agent));
    expect(await rig.done()).to.equal('agent_lost');
    expect(rig.line.hungUp).to.equal('agent_lost');
    expect(rig.line.signals.slice(-2)).to.deep.equal(['marked svc_apology', 'hangUp agent_lost']);
    expect(rig.chat.requests).to.have.length(2);
    expect(await agent.failure(callId)).to.equal('agent_unavailable');
    expect(await agent.optedOut(callId)).to.equal(false);
    const turns = await agent.turns(callId);
    expect(turns.map((t) => [t.speaker, t.text])).to.deep.equal([
      ['callee', 'Hello?'],
      ['agent', apologyText('en-US')],
    ]);
    expect(Number((await row()).line_closed_at)).to.be.greaterThan(0);
  });
});
