// Calls on a line the engine does not script: a carrier that reports by callback (through the carrier inbox) and
// a live agent whose turns the media bridge records. The engine waits for the line to end, or hangs up at the
// call's limit, then finishes the call from what was recorded.
import { expect } from 'chai';
import type { Kysely } from 'kysely';
import type { LiveAgent } from '../../server/src/conversation/agent.js';
import { appendTurn, recordedTurns } from '../../server/src/voice-agent/recorded-turns.js';
import { recordLineEvent } from '../../server/src/telephony/carrier-inbox.js';
import type { Database } from '../../server/src/store/schema.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import { InboxCarrier } from '../support/inbox-carrier.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';

forEachStore('live calls through the engine', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  let carrier: InboxCarrier;
  let db: Kysely<Database>;
  const agent: LiveAgent = { name: 'live-test', live: true, turns: (callId) => recordedTurns(db, callId), optedOut: async () => false };

  afterEach(() => srv.close());

  async function placeAndDial(): Promise<string> {
    const res = await alice.api.post('/v1/agent/calls', {
      body: { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.', fields: [{ name: 'open_sunday', type: 'boolean', description: 'whether the shop is open on Sunday' }] },
    });
    await srv.engine.tick(); // dials
    return res.body.callId;
  }

  async function setUp(env: Record<string, string> = {}, recordsCalls = false) {
    // The carrier needs the store the server opens, so it is built lazily from it.
    srv = await startEngineServer(kind, env, { agent, carrier: ({ store }) => (carrier = new InboxCarrier((db = store.db), { recordsCalls })) });
    alice = await srv.tenant();
  }

  it('completes when the line hangs up, with the recorded turns, their analysis and a rendered recording', async () => {
    await setUp();
    const id = await placeAndDial();
    const t0 = srv.clock.now();
    await recordLineEvent(db, { callId: id, ref: `CA-${id}`, event: { kind: 'answered', at: t0 + 3000 }, payload: { CallStatus: 'in-progress' } }, t0 + 3000);
    srv.clock.advance(3000);
    await srv.engine.tick();
    expect((await srv.row(id)).status).to.equal('in_progress');
    await appendTurn(db, id, 0, { speaker: 'callee', text: 'Hello?', startMs: 0, endMs: 900 });
    await appendTurn(db, id, 1, { speaker: 'agent', text: 'Hi, I am an assistant calling for a customer.', startMs: 1500, endMs: 3500 });
    await appendTurn(db, id, 2, { speaker: 'agent', text: 'Could you tell me whether the shop is open on Sunday?', startMs: 3600, endMs: 6000 });
    await appendTurn(db, id, 3, { speaker: 'callee', text: 'Yes, we are.', startMs: 6500, endMs: 7500 });
    await recordLineEvent(db, { callId: id, ref: `CA-${id}`, event: { kind: 'hung_up', at: t0 + 3000 + 42_000 } }, t0 + 45_000);
    srv.clock.advance(42_000);
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'completed', duration_sec: 42, billed_minutes: 1, started_at: t0 + 3000, ended_at: t0 + 45_000, error: null });
    expect(row.transcript).to.equal('Callee: Hello?\nAgent: Hi, I am an assistant calling for a customer.\nAgent: Could you tell me whether the shop is open on Sunday?\nCallee: Yes, we are.');
    expect(JSON.parse(row.extracted_json!)).to.deep.equal({ open_sunday: true });
    expect(row.summary).to.include('open on Sunday');
    // The recording is rendered from what was said when it is first asked for.
    expect(row.recording_path).to.equal(null);
    expect(JSON.parse(row.recording_request_json!)).to.deep.equal({
      turns: [
        { speaker: 'callee', text: 'Hello?', startMs: 0, endMs: 900 },
        { speaker: 'agent', text: 'Hi, I am an assistant calling for a customer.', startMs: 1500, endMs: 3500 },
        { speaker: 'agent', text: 'Could you tell me whether the shop is open on Sunday?', startMs: 3600, endMs: 6000 },
        { speaker: 'callee', text: 'Yes, we are.', startMs: 6500, endMs: 7500 },
      ],
      totalMs: 42_000,
      language: 'en-US',
    });
    const recording = await alice.api.get(`/v1/agent/calls/${id}/recording`);
    expect([recording.status, recording.headers.get('content-type'), recording.headers.get('content-length')]).to.deep.equal([200, 'audio/wav', String(44 + 42 * 22_050 * 2)]);
    expect(carrier.hangUps).to.deep.equal([]);
  });

  it('hangs up at the maximum call duration when the line does not end, and completes with what was said', async () => {
    await setUp({ SVC_MAX_CALL_DURATION_SEC: '60' });
    const id = await placeAndDial();
    const t0 = srv.clock.now();
    await recordLineEvent(db, { callId: id, ref: `CA-${id}`, event: { kind: 'answered', at: t0 } }, t0);
    await srv.engine.tick();
    await appendTurn(db, id, 0, { speaker: 'agent', text: 'Hello, I am calling about Sunday.', startMs: 0, endMs: 2000 });
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'completed', duration_sec: 60, ended_at: t0 + 60_000 });
    expect(row.transcript).to.equal('Agent: Hello, I am calling about Sunday.');
    expect(row.summary).to.match(/maximum call duration/);
    expect(carrier.hangUps).to.deep.equal([`CA-${id}`]);
  });

  it('renders no recording when the carrier records the line itself, and keeps the one it stored', async () => {
    await setUp({}, true);
    const id = await placeAndDial();
    const t0 = srv.clock.now();
    await recordLineEvent(db, { callId: id, ref: `CA-${id}`, event: { kind: 'answered', at: t0 } }, t0);
    await srv.engine.tick();
    await db.updateTable('calls').set({ recording_path: '/provider/recordings/RE1.wav' }).where('id', '=', id).execute();
    await recordLineEvent(db, { callId: id, ref: `CA-${id}`, event: { kind: 'hung_up', at: t0 + 10_000 } }, t0 + 10_000);
    srv.clock.advance(10_000);
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'completed', duration_sec: 10, recording_path: '/provider/recordings/RE1.wav', recording_request_json: null });
  });

  it('ends a call whose carrier reports a busy line as declined, and one it never reports on by the watchdog', async () => {
    await setUp();
    const busy = await placeAndDial();
    srv.clock.advance(1);
    const silent = await placeAndDial();
    const t0 = srv.clock.now();
    await recordLineEvent(db, { callId: busy, ref: `CA-${busy}`, event: { kind: 'ended', at: t0 + 5000, outcome: 'declined' } }, t0 + 5000);
    srv.clock.advance(5000);
    expect(await srv.drive(busy)).to.include({ status: 'declined', duration_sec: 0, started_at: null });
    expect(await srv.drive(silent)).to.include({ status: 'failed', error: 'carrier_timeout' });
  });
});
