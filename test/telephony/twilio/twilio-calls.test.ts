// Calls on the Twilio carrier, end to end against a fake Twilio REST API: the engine dials through Calls.json,
// the fake drives signed status, answering-machine and recording callbacks into the service's /twilio routes,
// and the engine takes each call to its status; the jobs runner keeps hang-ups and recording downloads going. The
// agent is a stand-in live agent over the recorded turns.
import { expect } from 'chai';
import { appendTurn } from '../../../server/src/voice-agent/recorded-turns.js';
import { AMD_WAIT_MS } from '../../../server/src/telephony/twilio/twilio-carrier.js';
import { CallEngine } from '../../../server/src/engine/call-engine.js';
import { encodeWav } from '../../../server/src/recording/encode-wav.js';
import type { JobRunner } from '../../../server/src/jobs/job-runner.js';
import { RECORDING_WINDOW_MS } from '../../../server/src/telephony/twilio/twilio-jobs.js';
import type { EngineServer } from '../../support/engine.js';
import { FakeTwilio, TOO_MANY_REQUESTS } from '../../support/fake-twilio.js';
import type { TestTenant } from '../../support/server.js';
import { forEachStore } from '../../support/stores.js';
import { startTwilioEngine, type TwilioEngine } from './twilio-engine.js';

const WAV = encodeWav(
  Int16Array.from({ length: 8000 }, (_, i) => Math.round(8000 * Math.sin(i / 5))),
  8000,
);

forEachStore('calls on the Twilio carrier', (kind) => {
  let fake: FakeTwilio;
  let h: TwilioEngine | undefined;
  let srv: EngineServer;
  let alice: TestTenant;
  let jobs: JobRunner;

  beforeEach(async () => {
    fake = await FakeTwilio.start();
    h = undefined;
  });
  afterEach(async () => {
    await h?.close();
    await fake.close();
  });

  async function setUp(env: Record<string, string> = {}) {
    h = await startTwilioEngine(kind, fake, env);
    ({ srv, alice, jobs } = h);
  }

  const jobRows = () => srv.deps.store.db.selectFrom('jobs').selectAll().orderBy('created_at').execute();
  const creates = () => fake.requests.filter((r) => r.line.endsWith('/Calls.json')).length;

  /** Places a call and lets the engine dial it; returns the call id and Twilio's call sid. */
  const placeAndDial = (to = '+14155550123') => h!.placeAndDial({ to, fields: [{ name: 'open_sunday', type: 'boolean', description: 'whether the shop is open on Sunday' }] });

  it("asks Twilio to press the placement's sendDigits once the call is answered, and for no keys without them", async () => {
    await setUp();
    await h!.placeAndDial({ sendDigits: '1234w#' });
    expect(fake.calls[0].params.SendDigits).to.deep.equal(['1234w#']);
    await h!.placeAndDial();
    expect(fake.calls[1].params).not.to.have.property('SendDigits');
  });

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
      TimeLimit: ['660'],
    });
    expect(p.Twiml[0]).to.match(
      new RegExp(
        `^<\\?xml version="1.0" encoding="UTF-8"\\?><Response><Connect><Stream url="${base.replace('http', 'ws')}/twilio/media/${id}"><Parameter name="token" value="[A-Za-z0-9_-]{43}"/></Stream></Connect></Response>$`,
      ),
    );
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
    // The turns as the media bridge timed them, seconds from the answer.
    expect((await alice.api.get(`/v1/agent/calls/${id}`)).body.turns).to.deep.equal([
      { speaker: 'callee', text: 'Hello?', startSec: 0, endSec: 0.9 },
      { speaker: 'agent', text: 'Hi, I am an assistant calling for a customer.', startSec: 1.5, endSec: 3.5 },
      { speaker: 'agent', text: 'Could you tell me whether the shop is open on Sunday?', startSec: 3.6, endSec: 6 },
      { speaker: 'callee', text: 'Yes, we are.', startSec: 6.5, endSec: 7.5 },
    ]);
    expect(fake.call(sid).updates, 'the line ended by itself: no hang-up').to.deep.equal([]);

    // Twilio's recording is ready after the call: a job fetches it with the account's credentials, stores it, serves it.
    expect((await fake.recordingReady(sid, WAV)).status).to.equal(204);
    expect((await srv.row(id)).recording_path, 'not before the job has fetched it').to.equal(null);
    expect(await jobs.tick()).to.equal(1);
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

  it('leaves a voicemail message: dials with DetectMessageEnd, and when the greeting ends has Twilio say it in the call’s language and hang up', async () => {
    await setUp();
    const message = 'Hello, your Sunday order is ready. Please call us back.';
    const res = await alice.api.post('/v1/agent/calls', {
      body: { to: '+14155550123', objective: 'Tell the customer their order is ready.', language: 'en-GB', voicemail: { action: 'leave_message', message: `${message} <&>` } },
    });
    await srv.engine.tick();
    const id = res.body.callId as string;
    const sid = (await srv.row(id)).carrier_ref!;
    expect(fake.calls[0].params.MachineDetection).to.deep.equal(['DetectMessageEnd']);
    const pickedUpAt = srv.clock.now() + 5000;
    srv.clock.ms = pickedUpAt;
    await fake.status(sid, 'in-progress');
    await srv.engine.tick();
    expect((await srv.row(id)).status, 'held for the verdict, which comes when the greeting ends').to.equal('dialing');
    srv.clock.advance(9000);
    await fake.amd(sid, 'machine_end_beep');
    await srv.engine.tick();
    expect(fake.call(sid).updates).to.deep.equal([{ Twiml: `<?xml version="1.0" encoding="UTF-8"?><Response><Say language="en-GB">${message} &lt;&amp;&gt;</Say><Hangup/></Response>` }]);
    await fake.status(sid, 'completed'); // Twilio hangs up after saying it
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'voicemail', voicemail_left: 1, answered_by: 'machine', started_at: pickedUpAt, error: null });
    const call = (await alice.api.get(`/v1/agent/calls/${id}`)).body;
    expect(call.turns).to.have.length(1);
    expect(call.turns[0]).to.deep.include({ speaker: 'agent', text: `${message} <&>`, startSec: 9 });
    expect(call.durationSec).to.equal(call.turns[0].endSec + 0.5);
  });

  it('hangs up on a fax even when a message was to be left', async () => {
    await setUp();
    const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Tell them.', voicemail: { action: 'leave_message', message: 'Hi.' } } });
    await srv.engine.tick();
    const id = res.body.callId as string;
    const sid = (await srv.row(id)).carrier_ref!;
    await fake.status(sid, 'in-progress');
    await fake.amd(sid, 'fax');
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'voicemail', voicemail_left: 0, answered_by: 'fax', duration_sec: 0 });
    expect(fake.call(sid).updates).to.deep.equal([{ Status: 'completed' }]);
  });

  // machine_start alone does not end the call (machine-screening.test.ts); a confirmed machine's verdict does.
  for (const answeredBy of ['machine_end_beep', 'fax']) {
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

  it('reports the voicemail at once and keeps hanging up as a job while Twilio fails; a refusal ends the hang-up', async () => {
    await setUp();
    const first = await placeAndDial();
    await fake.status(first.sid, 'in-progress');
    await fake.amd(first.sid, 'machine_end_beep');
    fake.updateFailures = [
      { status: 503, code: 20503, message: 'Service Unavailable' },
      { ...TOO_MANY_REQUESTS, retryAfter: '5' },
    ];
    await srv.engine.tick();
    expect(await srv.row(first.id)).to.include({ status: 'voicemail', answered_by: 'machine' });
    expect(fake.call(first.sid).updates, 'the first hang-up failed').to.deep.equal([]);
    const [job] = await jobRows();
    expect(job).to.include({ kind: 'twilio.hang_up', state: 'pending', attempts: 0, call_id: null });
    srv.clock.ms = job.run_at!;
    await jobs.tick();
    expect(await jobRows()).to.have.length(1);
    expect((await jobRows())[0]).to.include({ state: 'pending', attempts: 1, last_error: 'Twilio answered 429 (code 20429): Too Many Requests' });
    expect((await jobRows())[0].run_at!, "Twilio's Retry-After is honoured").to.be.at.least(srv.clock.now() + 5000);
    srv.clock.ms = (await jobRows())[0].run_at!;
    await jobs.tick();
    expect((await jobRows())[0]).to.include({ state: 'done', attempts: 2, run_at: null });
    expect(fake.call(first.sid).updates).to.deep.equal([{ Status: 'completed' }]);

    const second = await placeAndDial();
    await fake.status(second.sid, 'in-progress');
    await fake.amd(second.sid, 'machine_end_silence');
    fake.updateFailures = [{ status: 400, code: 21220, message: 'Call is not in-progress. Cannot redirect.' }];
    await srv.engine.tick();
    expect(await srv.row(second.id)).to.include({ status: 'voicemail' });
    expect(await jobRows(), 'a refusal means the line is not live: nothing more to do').to.have.length(1);
  });

  it('stops hanging up once Twilio reports the line ended, without asking again', async () => {
    await setUp({ SVC_MAX_CALL_DURATION_SEC: '60' });
    const { id, sid } = await placeAndDial();
    await fake.status(sid, 'in-progress');
    await fake.amd(sid, 'human');
    fake.updateFailures = [{ status: 500, code: 20500, message: 'Internal Server Error' }];
    expect(await srv.drive(id)).to.include({ status: 'completed', duration_sec: 60 });
    const updates = fake.requests.filter((r) => r.line.includes(`/Calls/${sid}.json`)).length;
    expect(updates).to.equal(1);
    await fake.status(sid, 'completed');
    srv.clock.ms = (await jobRows())[0].run_at!;
    await jobs.tick();
    expect((await jobRows())[0]).to.include({ state: 'done' });
    expect(fake.requests.filter((r) => r.line.includes(`/Calls/${sid}.json`)).length).to.equal(updates);
  });

  it("gives a hang-up up once Twilio's TimeLimit has ended the call by itself", async () => {
    await setUp({ SVC_MAX_CALL_DURATION_SEC: '60' });
    const { id, sid } = await placeAndDial();
    await fake.status(sid, 'in-progress');
    await fake.amd(sid, 'human');
    fake.updateFailures = Array.from({ length: 100 }, () => ({ status: 503, code: 20503, message: 'Service Unavailable' }));
    await srv.drive(id);
    for (let i = 0; i < 100 && (await jobRows())[0].state === 'pending'; i++) {
      srv.clock.ms = (await jobRows())[0].run_at!;
      await jobs.tick();
    }
    const [job] = await jobRows();
    expect(job.state).to.equal('failed');
    expect(job.last_error).to.match(/^Twilio did not take the hang-up for 120 s \(its TimeLimit has ended the call\): Twilio answered 503/);
    expect(srv.clock.now() - job.created_at).to.be.at.least(120_000);
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

  it('cancels a ringing call through the REST API: Twilio is told to end it, and the call ends canceled, unbilled', async () => {
    await setUp();
    const { id, sid } = await placeAndDial();
    await fake.status(sid, 'ringing');
    srv.clock.advance(3000);
    const res = await alice.api.post(`/v1/agent/calls/${id}/cancel`);
    expect([res.status, res.body.status]).to.deep.equal([202, 'dialing']);
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'canceled', duration_sec: 0, billed_minutes: 0, started_at: null });
    expect(fake.call(sid).updates).to.deep.equal([{ Status: 'completed' }]);
    expect(creates()).to.equal(1);
  });

  it('hangs up a live call at the cancel through the REST API and completes it with the turns said by then', async () => {
    await setUp();
    const { id, sid } = await placeAndDial();
    const t0 = srv.clock.now();
    await fake.status(sid, 'in-progress');
    await fake.amd(sid, 'human');
    await appendTurn(srv.deps.store.db, id, 0, { speaker: 'agent', text: 'Hello, I am calling about Sunday.', startMs: 0, endMs: 2000 });
    await srv.engine.tick();
    expect((await srv.row(id)).status).to.equal('in_progress');
    srv.clock.ms = t0 + 5000;
    expect((await alice.api.post(`/v1/agent/calls/${id}/cancel`)).status).to.equal(202);
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'completed', duration_sec: 5, ended_at: t0 + 5000 });
    expect(row.transcript).to.equal('Agent: Hello, I am calling about Sunday.');
    expect(fake.call(sid).updates).to.deep.equal([{ Status: 'completed' }]);
  });

  it('dials again after Twilio throttles the create (429), on a back-off that honours Retry-After, placing the call once', async () => {
    await setUp();
    fake.createFailures = [TOO_MANY_REQUESTS, { ...TOO_MANY_REQUESTS, retryAfter: '7' }];
    const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask about Sunday.' } });
    const id: string = res.body.callId;
    const t0 = srv.clock.now();
    await srv.engine.tick();
    // Nothing was placed: the call waits dialing, with no attempt standing, its back-off as its own durable state.
    const first = await srv.row(id);
    expect(first).to.include({ status: 'dialing', dial_attempted_at: null, carrier_ref: null });
    expect(first.next_run_at! - t0, 'a second, ±20%').to.be.within(800, 1200);
    expect(JSON.parse(first.engine_state!)).to.deep.equal({ line: null, throttle: { since: t0, tries: 1 } });
    srv.clock.ms = first.next_run_at!;
    await srv.engine.tick();
    const second = await srv.row(id);
    expect(second.next_run_at, 'Retry-After: 7 is longer than the 2 s back-off').to.equal(srv.clock.now() + 7000);
    expect(creates()).to.equal(2);
    // A worker that starts afresh (the first one gone) resumes the wait and dials once it is over.
    const fresh = new CallEngine({ ...(srv.engine as any).deps, owner: 'worker-after-restart' });
    await fresh.tick();
    expect(creates(), 'not before the wait is over').to.equal(2);
    srv.clock.ms = second.next_run_at!;
    await fresh.tick();
    expect(creates()).to.equal(3);
    expect(fake.calls).to.have.length(1);
    expect(await srv.row(id)).to.include({ status: 'dialing', carrier_ref: fake.calls[0].sid, dial_attempted_at: srv.clock.now() });
  });

  it('fails a call Twilio throttles for as long as the watchdog waits with carrier_throttled, nothing placed', async () => {
    await setUp({ SVC_ENGINE_WATCHDOG_SEC: '30' });
    fake.createFailures = Array.from({ length: 50 }, () => TOO_MANY_REQUESTS);
    const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask about Sunday.', webhookUrl: 'https://hooks.example.com/h' } });
    const row = await srv.drive(res.body.callId);
    expect(row).to.include({ status: 'failed', error: 'carrier_throttled', carrier_ref: null, started_at: null, duration_sec: 0, billed_minutes: 0, answered_by: null });
    expect(fake.calls).to.have.length(0);
    expect(row.ended_at! - row.created_at).to.be.at.least(30_000);
    const events = await srv.deps.store.db.selectFrom('webhook_events').select('event').where('call_id', '=', row.id).execute();
    expect(events.map((e) => e.event)).to.deep.equal(['call.failed']);
  });

  it('fetches a recording Twilio is not ready to give on a back-off, and the call says nothing of it until it is stored', async () => {
    await setUp();
    const { id, sid } = await placeAndDial();
    await fake.status(sid, 'in-progress');
    await fake.amd(sid, 'human');
    await srv.engine.tick();
    await fake.status(sid, 'completed');
    await srv.drive(id);
    fake.recordingFailures = [
      { status: 404, code: 20404, message: 'The requested resource was not found' },
      { ...TOO_MANY_REQUESTS, retryAfter: '120' },
    ];
    expect((await fake.recordingReady(sid, WAV)).status).to.equal(204);
    const again = fake.lastRecordingCallback!;
    expect((await fake.send(again.url, again.params)).status, 'Twilio repeats a callback: still one job').to.equal(204);
    const tried: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      await jobs.tick();
      const [job] = await jobRows();
      tried.push(job.last_error);
      expect((await alice.api.get(`/v1/agent/calls/${id}`)).body.recordingUrl, `after try ${i + 1}`).to.equal(i < 2 ? null : `${srv.baseUrl}/v1/agent/calls/${id}/recording`);
      if (job.run_at) srv.clock.ms = job.run_at;
    }
    expect(tried).to.deep.equal(['Twilio answered 404 (code 20404): The requested resource was not found', 'Twilio answered 429 (code 20429): Too Many Requests', null]);
    expect(await jobRows()).to.have.length(1);
    expect((await jobRows())[0]).to.include({ kind: 'twilio.fetch_recording', state: 'done', attempts: 3, call_id: id });
    const got = await alice.api.get(`/v1/agent/calls/${id}/recording`);
    expect(Buffer.compare(got.body as Buffer, WAV)).to.equal(0);
  });

  it('gives a recording up after 90 minutes of failures, leaving the call without one', async () => {
    await setUp();
    const { id, sid } = await placeAndDial();
    await fake.status(sid, 'completed');
    await srv.drive(id);
    fake.recordingFailures = Array.from({ length: 200 }, () => ({ status: 503, code: 20503, message: 'Service Unavailable' }));
    await fake.recordingReady(sid, WAV);
    const start = srv.clock.now();
    for (let i = 0; i < 100 && (await jobRows())[0].state === 'pending'; i++) {
      await jobs.tick();
      const [job] = await jobRows();
      if (job.run_at) srv.clock.ms = job.run_at;
    }
    const [job] = await jobRows();
    expect(job.state).to.equal('failed');
    expect(job.last_error).to.equal('no recording after 90 minutes: Twilio answered 503 (code 20503): Service Unavailable');
    expect(srv.clock.now() - start).to.be.at.least(RECORDING_WINDOW_MS);
    expect(job.attempts, 'tried many times over the window').to.be.at.least(10);
    expect((await srv.row(id)).recording_path).to.equal(null);
  });

  const verdicts: [string | null, string | null, string][] = [
    ['human', 'human', 'completed'],
    ['unknown', 'unknown', 'completed'],
    [null, 'unknown', 'completed'],
    ['machine_end_beep', 'machine', 'voicemail'],
    ['fax', 'fax', 'voicemail'],
  ];
  for (const [amd, answeredBy, status] of verdicts) {
    it(`says who answered: AnsweredBy ${amd ?? '(no verdict in time)'} is ${answeredBy}`, async () => {
      await setUp();
      const { id, sid } = await placeAndDial();
      await fake.status(sid, 'in-progress');
      if (amd) await fake.amd(sid, amd);
      else srv.clock.advance(AMD_WAIT_MS);
      await srv.engine.tick();
      await fake.status(sid, 'completed');
      expect(await srv.drive(id)).to.include({ status, answered_by: answeredBy });
      expect((await alice.api.get(`/v1/agent/calls/${id}`)).body.answeredBy).to.equal(answeredBy);
    });
  }

  it('says nobody answered a call that was never picked up', async () => {
    await setUp();
    const { id, sid } = await placeAndDial();
    await fake.status(sid, 'no-answer');
    expect(await srv.drive(id)).to.include({ status: 'no_answer', answered_by: null });
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
