// Transfers in the text sandbox, on both stores: on 555-0128 the callee asks to speak to a person. A call placed
// without a transfer is declined politely and goes on; a cold one is handed over at once; a warm one calls the
// person first (who takes it), or 555-0129, whose phone rings out, and then the agent says so and goes on. A handed
// over call ends completed where the agent left, with transferredTo and transferredAt on the record and its
// call.completed event, and its line left up; the turns show what the agent did, as bracketed notes the rendered
// recording leaves silent. In every language the sandbox speaks, the lines are the lexicon's.
import { expect } from 'chai';
import { DEFAULT_LANGUAGES } from '../../server/src/placement/language.js';
import { lexiconFor } from '../../server/src/conversation/lexicon.js';
import { scriptedBriefing, scriptedConversation } from '../../server/src/voice-agent/scripted-agent.js';
import { TRANSFER_NOTES } from '../../server/src/voice-agent/transfer.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';

const ASKS_FOR_PERSON = '+14155550128';
const PERSON = '+14155550142';
const NEVER_ANSWERS = '+14155550129';
const OBJECTIVE = 'Ask whether the shop is open on Sunday.';
const FIELDS = [{ name: 'open_sunday', type: 'boolean' }];
const lex = lexiconFor('en');

forEachStore('transfers in the text sandbox', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startEngineServer(kind);
    alice = await srv.tenant({ rateLimit: 100 });
  });
  afterEach(() => srv.close());

  const place = async (extra: Record<string, unknown> = {}) => {
    const res = await alice.api.post('/v1/agent/calls', { body: { to: ASKS_FOR_PERSON, objective: OBJECTIVE, fields: FIELDS, language: 'en-US', webhookUrl: 'http://127.0.0.1:9/hooks', ...extra } });
    expect(res.status).to.equal(202);
    return res.body.callId as string;
  };
  const record = async (id: string) => (await alice.api.get(`/v1/agent/calls/${id}`)).body;
  const completedEvent = async (id: string) => {
    const e = await srv.deps.store.db.selectFrom('webhook_events').select('body').where('call_id', '=', id).where('event', '=', 'call.completed').executeTakeFirstOrThrow();
    return JSON.parse(e.body);
  };
  const hungUpAt = async (id: string) => (await srv.deps.store.db.selectFrom('sandbox_dials').select('hung_up_at').where('call_id', '=', id).executeTakeFirstOrThrow()).hung_up_at;

  it('declines politely without a transfer, and goes on with the objective', async () => {
    const id = await place();
    const row = await srv.drive(id);
    const lines = row.transcript!.split('\n');
    expect(lex.callee.asksForPerson.map((l) => `Callee: ${l}`)).to.include(lines[2]);
    expect(lines[3]).to.match(new RegExp(`^Agent: ${escapeRegExp(lex.agent.declineTransfer)} .+\\?$`));
    const r = await record(id);
    expect(r).to.deep.include({ status: 'completed', transferredTo: null, transferredAt: null, transfer: null });
    expect(r.extracted).to.have.property('open_sunday');
    expect((await completedEvent(id)).transferredTo).to.equal(undefined);
    expect(await hungUpAt(id)).to.not.equal(null);
  });

  it("asks the objective's own question after declining, on a call placed without fields; or has a message confirmed", async () => {
    const id = await place({ fields: [] });
    const lines = (await srv.drive(id)).transcript!.split('\n');
    expect(lex.callee.asksForPerson.map((l) => `Callee: ${l}`)).to.include(lines[2]);
    expect(lines[3]).to.equal(`Agent: ${lex.agent.declineTransfer} I have a quick question: could you tell me whether the shop is open on Sunday?`);
    expect(lines[4]).to.match(/^Callee: \S/);
    expect(lines[5]).to.match(new RegExp(`${escapeRegExp(lex.agent.allDone)} ${escapeRegExp(lex.agent.goodbye)}$`));
    const message = await place({ fields: [], objective: 'Tell them the delivery comes on Friday.' });
    const said = (await srv.drive(message)).transcript!.split('\n');
    expect(said[3]).to.match(new RegExp(`^Agent: ${escapeRegExp(lex.agent.declineTransfer)} .+\\?$`));
    expect(said[4]).to.match(/^Callee: /);
    expect(said.at(-2)).to.equal(`Agent: ${lex.agent.allDone} ${lex.agent.goodbye}`);
  });

  it('hands a cold transfer over at once: completed where the agent left, the line left up, to whom and when on the record and the event', async () => {
    const id = await place({ transfer: { to: PERSON } });
    const row = await srv.drive(id);
    const r = await record(id);
    expect(r).to.deep.include({ status: 'completed', transferredTo: PERSON, transferredAt: r.endedAt, answeredBy: 'human' });
    const lines = r.transcript.split('\n').slice(3);
    expect(lines[0]).to.equal(`Agent: ${lex.agent.transferring}`);
    expect(lex.callee.thankYou.map((l) => `Callee: ${l}`)).to.include(lines[1]);
    expect(lines.slice(2)).to.deep.equal([`Agent: ${TRANSFER_NOTES.transferred}`]);
    expect(r.turns.at(-1)).to.deep.include({ speaker: 'agent', text: '[transferred the call]' });
    expect(r.turns.at(-1).endSec).to.equal(r.durationSec);
    expect(r.summary).to.include('The agent transferred the call to a person');
    expect(r.extracted).to.deep.equal({ open_sunday: null });
    const event = await completedEvent(id);
    expect(event).to.deep.include({ event: 'call.completed', transferredTo: PERSON, transferredAt: r.endedAt });
    // The line is the callee's and the person's now: the sandbox never hung it up.
    expect(await hungUpAt(id)).to.equal(null);
    // The recording is rendered from what was said: the note is silent, not read out.
    const request = JSON.parse(row.recording_request_json!);
    expect(request.turns.map((t: { text: string }) => t.text)).to.not.include('[transferred the call]');
    expect(request.totalMs).to.equal(Math.round(r.durationSec * 1000));
  });

  it('calls the person of a warm transfer first, with the briefing, and joins them once they take the call', async () => {
    const id = await place({ transfer: { to: PERSON, mode: 'warm' } });
    await srv.drive(id);
    const r = await record(id);
    expect(r).to.deep.include({ status: 'completed', transferredTo: PERSON, transferredAt: r.endedAt });
    const lines = r.transcript.split('\n').slice(3);
    expect(lines[0]).to.equal(`Agent: ${lex.agent.holdForTransfer}`);
    expect(lex.callee.willHold.map((l) => `Callee: ${l}`)).to.include(lines[1]);
    expect(lines.slice(2)).to.deep.equal([
      `Agent: [calling the transfer number: "${lex.agent.briefing('Ask whether the shop is open on Sunday')}"]`,
      'Agent: [the person took the call]',
      `Agent: ${lex.agent.connecting}`,
      'Agent: [transferred the call]',
    ]);
    expect(await hungUpAt(id)).to.equal(null);
  });

  it("tells the callee when nobody answers a warm transfer's number (555-0129), and goes on with the objective", async () => {
    const id = await place({ transfer: { to: NEVER_ANSWERS, mode: 'warm' } });
    await srv.drive(id);
    const r = await record(id);
    expect(r).to.deep.include({ status: 'completed', transferredTo: null, transferredAt: null });
    const lines = r.transcript.split('\n');
    expect(lines[6]).to.equal('Agent: [nobody answered the transfer number]');
    expect(lines[7]).to.match(new RegExp(`^Agent: ${escapeRegExp(lex.agent.transferFailed)} .+\\?$`));
    expect(lines.at(-2)).to.match(/goodbye\.$/);
    expect(r.summary).to.match(/^Objective: Ask whether the shop is open on Sunday\. The call was completed; the agent asked 1 of 1 questions/);
    expect((await completedEvent(id)).transferredTo).to.equal(undefined);
  });

  it('dials 555-0129 itself as a number nobody answers', async () => {
    const row = await srv.drive(await place({ to: NEVER_ANSWERS }));
    expect([row.status, row.answered_by]).to.deep.equal(['no_answer', null]);
  });

  it('cuts a transfer short at the maximum duration like any script: no handover, the line hung up', async () => {
    await srv.close();
    srv = await startEngineServer(kind, { SVC_MAX_CALL_DURATION_SEC: '5' });
    alice = await srv.tenant({ rateLimit: 100 });
    const id = await place({ transfer: { to: PERSON } });
    await srv.drive(id);
    expect(await record(id)).to.deep.include({ status: 'completed', transferredTo: null, durationSec: 5 });
    expect(await hungUpAt(id)).to.not.equal(null);
  });
});

describe('the sandbox transfer lines', () => {
  for (const language of DEFAULT_LANGUAGES) {
    it(`are the lexicon's in ${language}, for each mode and the number nobody answers`, () => {
      const l = lexiconFor(language);
      const brief = (transfer: Record<string, string> | null) => ({
        callId: `c-${language}`,
        to: ASKS_FOR_PERSON,
        objective: OBJECTIVE,
        context: null,
        fields: [],
        language,
        voice: 'alloy',
        transfer: transfer as never,
      });
      const texts = (transfer: Record<string, string> | null) => scriptedConversation(brief(transfer)).map((t) => t.text);
      expect(texts(null)).to.satisfy((t: string[]) => t.some((x) => x.startsWith(l.agent.declineTransfer)));
      const cold = texts({ to: PERSON, mode: 'cold', when: 'x' });
      expect([cold.at(-3), l.callee.thankYou.includes(cold.at(-2)!), cold.at(-1)]).to.deep.equal([l.agent.transferring, true, TRANSFER_NOTES.transferred]);
      expect(texts({ to: PERSON, mode: 'warm', when: 'x' }).slice(3)).to.satisfy(
        (t: string[]) => t[0] === l.agent.holdForTransfer && l.callee.willHold.includes(t[1]!) && t[2] === TRANSFER_NOTES.calling(scriptedBriefing(brief(null))) && t.at(-2) === l.agent.connecting,
      );
      expect(texts({ to: NEVER_ANSWERS, mode: 'warm', when: 'x' })).to.include(TRANSFER_NOTES.outcome.no_answer);
      expect(l.callee.asksForPerson.length).to.be.greaterThan(0);
    });
  }
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
