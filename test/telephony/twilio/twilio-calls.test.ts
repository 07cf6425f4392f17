// Calls on the Twilio carrier, end to end against a fake Twilio REST API: the engine dials through Calls.json,
// the fake drives signed status, answering-machine and recording callbacks into the service's /twilio routes,
// and the engine takes each call to its status. The agent is a stand-in live agent over the recorded turns.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveAgent } from '../../../server/src/voice-agent/agent.js';
import { appendTurn, recordedTurns } from '../../../server/src/voice-agent/recorded-turns.js';
import { AMD_WAIT_MS } from '../../../server/src/telephony/twilio/twilio-carrier.js';
import { configuredTelephony } from '../../../server/src/telephony/configured-telephony.js';
import { encodeWav } from '../../../server/src/recording/encode-wav.js';
import { startEngineServer, type EngineServer } from '../../support/engine.js';
import { FakeTwilio } from '../../support/fake-twilio.js';
import type { TestTenant } from '../../support/server.js';
import { forEachStore } from '../../support/stores.js';

const WAV = encodeWav(Int16Array.from({ length: 8000 }, (_, i) => Math.round(8000 * Math.sin(i / 5))), 8000);

forEachStore('calls on the Twilio carrier', (kind) => {
  let fake: FakeTwilio;
  let srv: EngineServer;
  let alice: TestTenant;
  let dataDir: string;

  beforeEach(async () => {
    fake = await FakeTwilio.start();
    dataDir = await mkdtemp(join(tmpdir(), 'svc-twilio-'));
  });
  afterEach(async () => {
    await srv?.close();
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function setUp(env: Record<string, string> = {}) {
    const agent: LiveAgent = { name: 'live-test', live: true, turns: (callId) => recordedTurns(srv.deps.store.db, callId) };
    srv = await startEngineServer(kind, { ...fake.env(), SVC_DATA_DIR: dataDir, ...env }, { carrier: (store, config) => configuredTelephony(config, store).carrier, agent });
    alice = await srv.tenant();
  }

  /** Places a call and lets the engine dial it; returns the call id and Twilio's call sid. */
  async function placeAndDial(to = '+14155550123'): Promise<{ id: string; sid: string }> {
    const res = await alice.api.post('/v1/agent/calls', {
      body: { to, objective: 'Ask whether the shop is open on Sunday.', fields: [{ name: 'open_sunday', type: 'boolean', description: 'whether the shop is open on Sunday' }] },
    });
    expect(res.status).to.equal(202);
    await srv.engine.tick();
    const row = await srv.row(res.body.callId);
    expect(row.status).to.equal('dialing');
    return { id: res.body.callId, sid: row.carrier_ref! };
  }

  it('dials through Calls.json with the caller id, the media stream, every status event, async AMD and the recording', async () => {
    await setUp();
    const { id, sid } = await placeAndDial();
    expect(fake.calls).to.have.length(1);
    expect(fake.requests).to.deep.equal([{ line: `POST /2010-04-01/Accounts/${fake.accountSid}/Calls.json`, authorized: true }]);
    const p = fake.calls[0].params;
    expect(sid).to.equal(fake.calls[0].sid);
    const base = srv.baseUrl;
    expect(p).to.deep.include({
      To: ['+14155550123'],
      From: [alice.callerId],
      StatusCallback: [`${base}/twilio/status/${id}`],
      StatusCallbackMethod: ['POST'],
      StatusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
      MachineDetection: ['Enable'],
      AsyncAmd: ['true'],
      AsyncAmdStatusCallback: [`${base}/twilio/amd/${id}`],
      AsyncAmdStatusCallbackMethod: ['POST'],
      Record: ['true'],
      RecordingStatusCallback: [`${base}/twilio/recording/${id}`],
      RecordingStatusCallbackMethod: ['POST'],
      RecordingStatusCallbackEvent: ['completed'],
    });
    expect(p.Twiml[0]).to.match(new RegExp(`^<\\?xml version="1.0" encoding="UTF-8"\\?><Response><Connect><Stream url="${base.replace('http', 'ws')}/twilio/media/${id}"><Parameter name="token" value="[A-Za-z0-9_-]{43}"/></Stream></Connect></Response>$`));
  });

  it('goes dialing → in_progress → completed with the turns, their analysis and the recording fetched from Twilio', async () => {
    await setUp();
    const { id, sid } = await placeAndDial();
    const t0 = srv.clock.now();
    for (const s of ['initiated', 'ringing']) expect(await fake.status(sid, s)).to.deep.equal({ status: 204, body: '' });
    await srv.engine.tick();
    expect((await srv.row(id)).status).to.equal('dialing');
    srv.clock.advance(4000);
    expect((await fake.status(sid, 'in-progress')).status).to.equal(204);
    await srv.engine.tick();
    expect((await srv.row(id)).status, 'held for the machine-detection verdict').to.equal('dialing');
    srv.clock.advance(2300);
    expect((await fake.amd(sid, 'human')).status).to.equal(204);
    await srv.engine.tick();
    expect(await srv.row(id)).to.include({ status: 'in_progress', started_at: t0 + 4000 });
    await appendTurn(srv.deps.store.db, id, 0, { speaker: 'callee', text: 'Hello?', startMs: 0, endMs: 900 });
    await appendTurn(srv.deps.store.db, id, 1, { speaker: 'agent', text: 'Hi, I am an assistant calling for a customer.', startMs: 1500, endMs: 3500 });
    await appendTurn(srv.deps.store.db, id, 2, { speaker: 'agent', text: 'Could you tell me whether the shop is open on Sunday?', startMs: 3600, endMs: 6000 });
    await appendTurn(srv.deps.store.db, id, 3, { speaker: 'callee', text: 'Yes, we are.', startMs: 6500, endMs: 7500 });
    srv.clock.advance(40_000 - 2300);
    expect((await fake.status(sid, 'completed')).status).to.equal(204);
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'completed', started_at: t0 + 4000, ended_at: t0 + 44_000, duration_sec: 40, error: null, recording_path: null });
    expect(row.transcript).to.equal('Callee: Hello?\nAgent: Hi, I am an assistant calling for a customer.\nAgent: Could you tell me whether the shop is open on Sunday?\nCallee: Yes, we are.');
    expect(JSON.parse(row.extracted_json!)).to.deep.equal({ open_sunday: true });
    expect(fake.call(sid).updates, 'the line ended by itself: no hang-up').to.deep.equal([]);

    // Twilio's recording is ready after the call: fetched with the account's credentials, stored, served.
    expect((await fake.recordingReady(sid, WAV)).status).to.equal(204);
    expect(fake.requests.at(-1)).to.deep.include({ authorized: true });
    expect(fake.requests.at(-1)!.line).to.match(new RegExp(`^GET /2010-04-01/Accounts/${fake.accountSid}/Recordings/RE[0-9a-f]{32}\\.wav$`));
    expect((await srv.row(id)).recording_path).to.equal(`recordings/${id}.wav`);
    const got = await alice.api.get(`/v1/agent/calls/${id}/recording`);
    expect(got.status).to.equal(200);
    expect(got.headers.get('content-type')).to.equal('audio/wav');
    expect(Buffer.compare(got.body as Buffer, WAV)).to.equal(0);
    expect((await alice.api.get(`/v1/agent/calls/${id}`)).body.recordingUrl).to.equal(`${srv.baseUrl}/v1/agent/calls/${id}/recording`);
  });

  it('maps busy to declined, no-answer to no_answer, failed to failed carrier_unreachable and canceled to failed carrier_rejected', async () => {
    await setUp();
    const cases = [
      ['busy', { status: 'declined', error: null }],
      ['no-answer', { status: 'no_answer', error: null }],
      ['failed', { status: 'failed', error: 'carrier_unreachable' }],
      ['canceled', { status: 'failed', error: 'carrier_rejected' }],
    ] as const;
    for (const [twilioStatus, expected] of cases) {
      const { id, sid } = await placeAndDial();
      await fake.status(sid, 'ringing');
      srv.clock.advance(20_000);
      expect((await fake.status(sid, twilioStatus)).status).to.equal(204);
      const row = await srv.drive(id);
      expect(row, twilioStatus).to.include({ ...expected, started_at: null, duration_sec: 0, transcript: null });
      expect(fake.call(sid).updates, twilioStatus).to.deep.equal([]);
    }
  });

  for (const answeredBy of ['machine_start', 'fax']) {
    it(`ends a call answered by ${answeredBy} as voicemail and hangs the line up`, async () => {
      await setUp();
      const { id, sid } = await placeAndDial();
      srv.clock.advance(5000);
      await fake.status(sid, 'in-progress');
      srv.clock.advance(3000);
      await fake.amd(sid, answeredBy);
      const row = await srv.drive(id);
      expect(row).to.include({ status: 'voicemail', started_at: null, duration_sec: 0, error: null, transcript: null });
      expect(fake.call(sid).updates).to.deep.equal([{ Status: 'completed' }]);
      // Twilio then reports the line completed; the call stays voicemail.
      expect((await fake.status(sid, 'completed')).status).to.equal(204);
      await srv.engine.tick();
      expect((await srv.row(id)).status).to.equal('voicemail');
    });
  }

  it('reports the voicemail once the hang-up got through: an outage retries the step, a refusal does not hold it', async () => {
    await setUp();
    const first = await placeAndDial();
    await fake.status(first.sid, 'in-progress');
    await fake.amd(first.sid, 'machine_end_beep');
    fake.failNextUpdate = { status: 503, code: 20503, message: 'Service Unavailable' };
    await srv.engine.tick();
    expect((await srv.row(first.id)).status, 'still dialing after the failed hang-up').to.equal('dialing');
    expect(await srv.drive(first.id)).to.include({ status: 'voicemail' });
    expect(fake.call(first.sid).updates).to.deep.equal([{ Status: 'completed' }]);

    const second = await placeAndDial();
    await fake.status(second.sid, 'in-progress');
    await fake.amd(second.sid, 'machine_start');
    fake.failNextUpdate = { status: 400, code: 21220, message: 'Call is not in-progress. Cannot redirect.' };
    await srv.engine.tick();
    expect(await srv.row(second.id)).to.include({ status: 'voicemail' });
  });

  it('takes a machine-detection verdict that arrives before the pick-up callback', async () => {
    await setUp();
    const human = await placeAndDial();
    const machine = await placeAndDial();
    const t0 = srv.clock.now();
    await fake.amd(human.sid, 'human');
    await fake.amd(machine.sid, 'machine_end_silence');
    await srv.engine.tick();
    expect((await srv.row(human.id)).status).to.equal('dialing');
    expect((await srv.row(machine.id)).status).to.equal('dialing');
    srv.clock.advance(10);
    await fake.status(human.sid, 'in-progress');
    await fake.status(machine.sid, 'in-progress');
    await srv.engine.tick();
    expect(await srv.row(human.id)).to.include({ status: 'in_progress', started_at: t0 + 10 });
    expect(await srv.row(machine.id)).to.include({ status: 'voicemail' });
  });

  it('ends an answered call whose line then fails as failed call_dropped, with the transcript so far', async () => {
    await setUp();
    const { id, sid } = await placeAndDial();
    await fake.status(sid, 'in-progress');
    await fake.amd(sid, 'human');
    await srv.engine.tick();
    await appendTurn(srv.deps.store.db, id, 0, { speaker: 'agent', text: 'Hello, I am calling about Sunday.', startMs: 0, endMs: 2000 });
    srv.clock.advance(5000);
    await fake.status(sid, 'failed');
    expect(await srv.drive(id)).to.include({ status: 'failed', error: 'call_dropped', duration_sec: 5, transcript: 'Agent: Hello, I am calling about Sunday.' });
  });

  it('lets the answer through when no machine-detection verdict comes within AMD_WAIT_MS of the pick-up', async () => {
    await setUp();
    const { id, sid } = await placeAndDial();
    const pickedUp = srv.clock.now();
    await fake.status(sid, 'in-progress');
    await srv.engine.tick();
    const held = await srv.row(id);
    expect(held).to.include({ status: 'dialing', next_run_at: pickedUp + AMD_WAIT_MS });
    srv.clock.ms = pickedUp + AMD_WAIT_MS;
    await srv.engine.tick();
    expect(await srv.row(id)).to.include({ status: 'in_progress', started_at: pickedUp });
  });

  it('hangs up through the REST API at the maximum call duration', async () => {
    await setUp({ SVC_MAX_CALL_DURATION_SEC: '60' });
    const { id, sid } = await placeAndDial();
    const t0 = srv.clock.now();
    await fake.status(sid, 'in-progress');
    await fake.amd(sid, 'human');
    await appendTurn(srv.deps.store.db, id, 0, { speaker: 'agent', text: 'Hello, I am calling about Sunday.', startMs: 0, endMs: 2000 });
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'completed', duration_sec: 60, ended_at: t0 + 60_000 });
    expect(fake.call(sid).updates).to.deep.equal([{ Status: 'completed' }]);
  });

  it('fails a call Twilio refuses on create with carrier_rejected, and never dials it again', async () => {
    await setUp();
    fake.failNextCreate = { status: 400, code: 21211, message: "The 'To' number +14155550123 is not a valid phone number." };
    const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask about Sunday.' } });
    const row = await srv.drive(res.body.callId);
    expect(row).to.include({ status: 'failed', error: 'carrier_rejected', carrier_ref: null });
    for (let i = 0; i < 3; i++) {
      srv.clock.advance(60_000);
      await srv.engine.tick();
    }
    expect(fake.requests.map((r) => r.line)).to.deep.equal([`POST /2010-04-01/Accounts/${fake.accountSid}/Calls.json`]);
    expect((await srv.row(res.body.callId)).status).to.equal('failed');
  });

  it('fails a call whose create meets a Twilio outage (5xx) with dial_failed, dialled once', async () => {
    await setUp();
    fake.failNextCreate = { status: 503, code: 20503, message: 'Service Unavailable' };
    const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask about Sunday.' } });
    expect(await srv.drive(res.body.callId)).to.include({ status: 'failed', error: 'dial_failed' });
    expect(fake.requests).to.have.length(1);
  });
});
