// The opt-out spoken in a call, on both stores: on the sandbox's 555-0118 the simulated callee asks not to be called
// again, the scripted agent apologises and ends the call, and as the call ends (in the same transaction) the record
// says optOut: true and the number goes on the account's list (reason callee_request, source call, the call's id).
// From then on nothing dials it: a placement is 400, a scheduled call and a redial of a chain end canceled,
// undialled. Another account's list is untouched. And in every language the sandbox speaks, the callee's words are
// what the rule-based analyst reads as an opt-out.
import { expect } from 'chai';
import { RuleBasedAnalyst, OPTED_OUT } from '../../server/src/analysis/rule-based-analyst.js';
import { heardOptOut } from '../../server/src/analysis/opt-out.js';
import { DEFAULT_LANGUAGES } from '../../server/src/placement/language.js';
import { formatTranscript } from '../../server/src/conversation/conversation.js';
import { lexiconFor } from '../../server/src/conversation/lexicon.js';
import { ScriptedAgent } from '../../server/src/voice-agent/scripted-agent.js';
import { insertTestCall } from '../support/calls.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';

const OPTS_OUT = '+14155550118';
const FIELDS = [{ name: 'open_sunday', type: 'boolean' }];

forEachStore('the opt-out spoken in a call', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startEngineServer(kind);
    alice = await srv.tenant({ rateLimit: 100 });
  });
  afterEach(() => srv.close());

  const place = (extra: Record<string, unknown> = {}, tenant = alice) =>
    tenant.api.post('/v1/agent/calls', { body: { to: OPTS_OUT, objective: 'Ask whether the shop is open on Sunday.', fields: FIELDS, webhookUrl: 'http://127.0.0.1:9/hooks', ...extra } });
  const listed = async (tenant = alice) => (await tenant.api.get('/v1/agent/do-not-call')).body.numbers;

  it('ends the call politely, says optOut on the record and the event, and lists the number with the call that heard it', async () => {
    const res = await place();
    const id = res.body.callId as string;
    const row = await srv.drive(id);
    expect([row.status, row.opt_out, row.error]).to.deep.equal(['completed', 1, null]);
    const lex = lexiconFor('en');
    const lines = row.transcript!.split('\n');
    expect(lines).to.have.length(4);
    expect(lex.callee.optOut.map((l) => `Callee: ${l}`)).to.include(lines[2]);
    expect(lines[3]).to.equal(`Agent: ${lex.agent.optOutAck}`);
    const record = (await alice.api.get(`/v1/agent/calls/${id}`)).body;
    expect(record).to.deep.include({ status: 'completed', optOut: true, extracted: { open_sunday: null }, nextCallId: null });
    expect(record.summary.endsWith(OPTED_OUT)).to.equal(true);
    expect(await listed()).to.deep.equal([{ number: OPTS_OUT, reason: 'callee_request', source: 'call', callId: id, addedAt: new Date(row.ended_at!).toISOString() }]);
    const events = await srv.deps.store.db.selectFrom('webhook_events').select(['event', 'body']).where('call_id', '=', id).orderBy('created_at').execute();
    expect(events.map((e) => [e.event, JSON.parse(e.body).optOut])).to.deep.equal([
      ['call.in_progress', false],
      ['call.completed', true],
    ]);
  });

  it('refuses a placement to the number from then on (400 destination_opted_out)', async () => {
    await srv.drive((await place()).body.callId);
    const again = await place();
    expect([again.status, again.body.error]).to.deep.equal([400, 'destination_opted_out']);
  });

  it('ends a redial chain to the number: its queued redial and a scheduled call end canceled, undialled', async () => {
    // A chain already under way: its redial is queued, due in an hour.
    const first = await insertTestCall(srv.deps.store, alice, { status: 'no_answer', to_number: OPTS_OUT, redial_json: JSON.stringify({ onNoAnswer: 1, onVoicemail: 0, afterMinutes: 60 }) });
    const redial = await insertTestCall(srv.deps.store, alice, {
      status: 'queued',
      to_number: OPTS_OUT,
      previous_call_id: first.id,
      redial_json: JSON.stringify({ onNoAnswer: 0, onVoicemail: 0, afterMinutes: 60 }),
      next_run_at: srv.clock.now() + 3600_000,
      scheduled_at: srv.clock.now() + 3600_000,
      started_at: null,
      ended_at: null,
      duration_sec: null,
      billed_minutes: null,
      summary: null,
      transcript: null,
      extracted_json: null,
    });
    await srv.deps.store.db.updateTable('calls').set({ next_call_id: redial.id }).where('id', '=', first.id).execute();
    const scheduled = (await place({ startAt: new Date(srv.clock.now() + 2 * 3600_000).toISOString(), redial: { onNoAnswer: 2, afterMinutes: 30 } })).body.callId as string;
    // Meanwhile the callee, reached on another call, asks not to be called again.
    await srv.drive((await place()).body.callId);
    for (const id of [redial.id, scheduled]) {
      const row = await srv.drive(id);
      expect([row.status, row.error, row.dial_attempted_at, row.next_call_id]).to.deep.equal(['canceled', 'destination_opted_out', null, null]);
      expect(await srv.dials(id)).to.equal(0);
    }
  });

  it("keeps an entry already on the list as it was, and never touches another account's list", async () => {
    const bob = await srv.tenant({ rateLimit: 100 });
    const res = await place();
    const id = res.body.callId as string;
    // Listed by the client while the call is live: the ending keeps that entry, and the call still says optOut.
    while ((await srv.row(id)).status !== 'in_progress') {
      const next = (await srv.row(id)).next_run_at!;
      if (next > srv.clock.now()) srv.clock.ms = next;
      await srv.engine.tick();
    }
    expect((await alice.api.post('/v1/agent/do-not-call', { body: { number: OPTS_OUT, reason: 'Asked by email.' } })).status).to.equal(201);
    const row = await srv.drive(id);
    expect([row.status, row.opt_out]).to.deep.equal(['completed', 1]);
    expect((await listed()).map((e: { source: string; reason: string; callId: string | null }) => [e.source, e.reason, e.callId])).to.deep.equal([['api', 'Asked by email.', null]]);
    expect(await listed(bob)).to.deep.equal([]);
    expect((await place({}, bob)).status).to.equal(202);
  });

  it('says optOut false, and lists nothing, on a call in which no one asked', async () => {
    const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' } });
    const row = await srv.drive(res.body.callId);
    expect([row.status, row.opt_out]).to.deep.equal(['completed', 0]);
    expect((await alice.api.get(`/v1/agent/calls/${row.id}`)).body.optOut).to.equal(false);
    expect(await listed()).to.deep.equal([]);
  });
});

describe('the opt-out in every language of the sandbox', () => {
  for (const language of DEFAULT_LANGUAGES) {
    it(`${language}: the callee asks, the agent apologises in kind, and the rule-based analyst reads the opt-out`, async () => {
      const lex = lexiconFor(language);
      for (const [i, callId] of ['c-1', 'c-2', 'c-3', 'c-4', 'c-5', 'c-6'].entries()) {
        const brief = { callId, to: OPTS_OUT, objective: 'Ask whether the shop is open on Sunday.', context: null, fields: [], language, voice: 'alloy' };
        const turns = await new ScriptedAgent().converse(brief);
        expect(
          turns.map((t) => t.speaker),
          `${language} ${i}`,
        ).to.deep.equal(['callee', 'agent', 'callee', 'agent']);
        expect(lex.callee.optOut).to.include(turns[2].text);
        expect(turns[3].text).to.equal(lex.agent.optOutAck);
        const analysis = await new RuleBasedAnalyst().analyse({ brief, transcript: formatTranscript(turns), endReason: 'hung_up' });
        expect(analysis.optOut, `${language}: ${turns[2].text}`).to.equal(true);
      }
      // Each of the callee's ways of asking is heard; the agent's own apology is not an opt-out.
      for (const line of lex.callee.optOut) expect(heardOptOut(`Callee: ${line}`, language), line).to.equal(true);
      expect(heardOptOut(`Agent: ${lex.agent.optOutAck}`, language)).to.equal(false);
      expect(heardOptOut(`Callee: ${lex.callee.bye[0]}`, language)).to.equal(false);
    });
  }

  it('hears English in a call of another language, curly apostrophes too, and only what the callee said', () => {
    expect(heardOptOut('Callee: Please don’t call me again.', 'fr-FR')).to.equal(true);
    expect(heardOptOut("Agent: Should we stop calling you?\nCallee: No, that's fine.", 'en-US')).to.equal(false);
  });
});
