// The /twilio callback routes: only requests signed with X-Twilio-Signature over the public URL and the posted
// parameters get through; anything else is refused with 403 and changes nothing on the call.
import { expect } from 'chai';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks.js';
import type { LiveAgent } from '../../../server/src/conversation/agent.js';
import { configuredTelephony } from '../../../server/src/telephony/configured-telephony.js';
import { configuredTwilioRest } from '../../../server/src/telephony/twilio/twilio-rest.js';
import { createJobRunner } from '../../../server/src/jobs/job-runner.js';
import { twilioJobHandlers } from '../../../server/src/telephony/twilio/twilio-jobs.js';
import { twilioCallbacks } from '../../../server/src/telephony/twilio/callbacks.js';
import type { CallRow } from '../../../server/src/store/calls-repo.js';
import { startEngineServer, type EngineServer } from '../../support/engine.js';
import { FAKE_AUTH_TOKEN, FakeTwilio } from '../../support/fake-twilio.js';
import { startServer, type TestServer, type TestTenant } from '../../support/server.js';
import { forEachStore } from '../../support/stores.js';

const agent: LiveAgent = { name: 'live-test', live: true, turns: async () => [], optedOut: async () => false };

forEachStore('Twilio callback routes', (kind) => {
  let fake: FakeTwilio;
  let srv: EngineServer;
  let alice: TestTenant;
  let id: string;
  let sid: string;
  let before: CallRow;

  beforeEach(async () => {
    fake = await FakeTwilio.start();
    srv = await startEngineServer(kind, fake.env(), { carrier: (deps) => configuredTelephony(deps).carrier, agent });
    alice = await srv.tenant();
    const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask about Sunday.' } });
    id = res.body.callId;
    await srv.engine.tick(); // dials
    await srv.engine.tick(); // reads the empty inbox; next due at the watchdog
    before = await srv.row(id);
    sid = before.carrier_ref!;
  });
  afterEach(async () => {
    await srv.close();
    await fake.close();
  });

  const statusUrl = () => `${srv.baseUrl}/twilio/status/${id}`;
  const answered = () => ({ AccountSid: fake.accountSid, CallSid: sid, CallStatus: 'in-progress', To: '+14155550123', From: alice.callerId });

  async function expectNothingChanged() {
    const events = await srv.deps.store.db.selectFrom('carrier_events').selectAll().execute();
    expect(events).to.deep.equal([]);
    await srv.engine.tick();
    const row = await srv.row(id);
    expect(row).to.include({ status: 'dialing', next_run_at: before.next_run_at, recording_path: null, engine_state: before.engine_state });
  }

  it('takes a signed status callback into the carrier inbox (204)', async () => {
    expect(await fake.send(statusUrl(), answered())).to.deep.equal({ status: 204, body: '' });
    const events = await srv.deps.store.db.selectFrom('carrier_events').select(['call_id', 'carrier_ref', 'kind', 'at', 'payload_json']).execute();
    expect(events).to.have.length(1);
    expect(events[0]).to.include({ call_id: id, carrier_ref: sid, kind: 'answered' });
    expect(Number(events[0].at)).to.equal(srv.clock.now());
    expect(JSON.parse(events[0].payload_json!)).to.deep.equal({ source: 'status', params: { CallSid: sid, CallStatus: 'in-progress' } });
  });

  it('refuses a callback without X-Twilio-Signature with 403 and changes nothing', async () => {
    expect(await fake.send(statusUrl(), answered(), null)).to.deep.equal({ status: 403, body: '{"error":"invalid_signature"}' });
    await expectNothingChanged();
  });

  it('refuses a forged signature (another auth token) with 403 and changes nothing', async () => {
    const forged = getExpectedTwilioSignature('not-the-auth-token', statusUrl(), answered());
    expect((await fake.send(statusUrl(), answered(), forged)).status).to.equal(403);
    await expectNothingChanged();
  });

  it('refuses parameters changed after signing, and a signature made for another URL, with 403', async () => {
    const signed = getExpectedTwilioSignature(FAKE_AUTH_TOKEN, statusUrl(), { ...answered(), CallStatus: 'ringing' });
    expect((await fake.send(statusUrl(), answered(), signed)).status).to.equal(403);
    const elsewhere = getExpectedTwilioSignature(FAKE_AUTH_TOKEN, `${srv.baseUrl}/twilio/status/00000000-0000-4000-8000-000000000000`, answered());
    expect((await fake.send(statusUrl(), answered(), elsewhere)).status).to.equal(403);
    await expectNothingChanged();
  });

  it('refuses a forged machine-detection verdict and a forged recording callback with 403, fetching nothing', async () => {
    const amd = { AccountSid: fake.accountSid, CallSid: sid, AnsweredBy: 'machine_start' };
    expect((await fake.send(`${srv.baseUrl}/twilio/amd/${id}`, amd, 'bm90IGEgc2lnbmF0dXJl')).status).to.equal(403);
    const rec = {
      AccountSid: fake.accountSid,
      CallSid: sid,
      RecordingSid: `RE${'0'.repeat(32)}`,
      RecordingStatus: 'completed',
      RecordingUrl: `${fake.baseUrl}/2010-04-01/Accounts/${fake.accountSid}/Recordings/RE${'0'.repeat(32)}`,
    };
    expect((await fake.send(`${srv.baseUrl}/twilio/recording/${id}`, rec, null)).status).to.equal(403);
    expect(fake.requests).to.have.length(1); // the create, nothing fetched
    await expectNothingChanged();
  });

  it('answers 404 for an unknown call and 409 for a CallSid that is not the call’s, storing nothing', async () => {
    const unknown = `${srv.baseUrl}/twilio/status/00000000-0000-4000-8000-000000000000`;
    expect(await fake.send(unknown, answered())).to.deep.equal({ status: 404, body: '{"error":"not_found"}' });
    expect(await fake.send(statusUrl(), { ...answered(), CallSid: `CA${'f'.repeat(32)}` })).to.deep.equal({ status: 409, body: '{"error":"call_sid_mismatch"}' });
    await expectNothingChanged();
  });

  it('never sends the account credentials to a recording URL outside the Twilio API (400)', async () => {
    const rec = {
      AccountSid: fake.accountSid,
      CallSid: sid,
      RecordingSid: `RE${'0'.repeat(32)}`,
      RecordingStatus: 'completed',
      RecordingUrl: `http://127.0.0.1:9/2010-04-01/Accounts/${fake.accountSid}/Recordings/RE${'0'.repeat(32)}`,
    };
    expect(await fake.send(`${srv.baseUrl}/twilio/recording/${id}`, rec)).to.deep.equal({ status: 400, body: '{"error":"recording_url_not_twilio"}' });
    await expectNothingChanged();
  });

  it('takes a recording callback that is not completed (absent, failed) with 204, fetching nothing', async () => {
    for (const status of ['absent', 'failed']) {
      const rec = { AccountSid: fake.accountSid, CallSid: sid, RecordingSid: `RE${'0'.repeat(32)}`, RecordingStatus: status, ErrorCode: '0' };
      expect(await fake.send(`${srv.baseUrl}/twilio/recording/${id}`, rec), status).to.deep.equal({ status: 204, body: '' });
    }
    expect(fake.requests).to.have.length(1); // the create only
    await expectNothingChanged();
  });

  it("takes a transfer's callbacks signed like the rest: the person's line under its own CallSid, never the call's", async () => {
    const legSid = `CA${'1'.repeat(32)}`;
    const leg = `${srv.baseUrl}/twilio/leg/${id}`;
    const handover = `${srv.baseUrl}/twilio/handover/${id}`;
    const ringing = { AccountSid: fake.accountSid, CallSid: legSid, CallStatus: 'ringing' };
    expect(await fake.send(leg, ringing, null)).to.deep.equal({ status: 403, body: '{"error":"invalid_signature"}' });
    expect(await fake.send(handover, { AccountSid: fake.accountSid, CallSid: legSid, Digits: '1' }, null)).to.deep.equal({ status: 403, body: '{"error":"invalid_signature"}' });
    // The call's own sid is no person's line; a sid that is no Call SID is refused.
    expect(await fake.send(leg, { ...ringing, CallSid: sid, CallStatus: 'in-progress' })).to.deep.equal({ status: 409, body: '{"error":"call_sid_mismatch"}' });
    expect(await fake.send(handover, { AccountSid: fake.accountSid, CallSid: 'CAnope', Digits: '1' })).to.deep.equal({ status: 400, body: '{"error":"invalid_call_sid"}' });
    await expectNothingChanged();
    expect(await fake.send(`${srv.baseUrl}/twilio/leg/0198a1b2-0000-7000-8000-00000000dead`, ringing)).to.deep.equal({ status: 404, body: '{"error":"not_found"}' });
    // The person's status and key go to the inbox under the person's sid, apart from the call's line.
    expect(await fake.send(leg, { ...ringing, CallStatus: 'in-progress', SequenceNumber: '1' })).to.deep.equal({ status: 204, body: '' });
    const key = await fake.send(handover, { AccountSid: fake.accountSid, CallSid: legSid, Digits: '1' });
    expect(key.status).to.equal(200);
    expect(key.body).to.include(`<Conference beep="false" startConferenceOnEnter="true" endConferenceOnExit="true" waitUrl="">svc-${id}</Conference>`);
    const events = await srv.deps.store.db.selectFrom('carrier_events').select(['call_id', 'carrier_ref', 'kind', 'payload_json']).orderBy('created_at').execute();
    expect(events.map((e) => [e.call_id, e.carrier_ref, e.kind, JSON.parse(e.payload_json!).source])).to.deep.equal([
      [id, legSid, 'answered', 'status'],
      [id, legSid, 'answered', 'handover'],
    ]);
    expect((await srv.row(id)).status).to.equal('dialing');
  });

  it('accepts only POST with a form body (405 with Allow, 415)', async () => {
    const get = await fetch(statusUrl());
    expect(get.status).to.equal(405);
    expect(get.headers.get('allow')).to.equal('POST');
    const json = await fetch(statusUrl(), { method: 'POST', headers: { 'content-type': 'application/json', 'x-twilio-signature': 'x' }, body: '{}' });
    expect(json.status).to.equal(415);
    await expectNothingChanged();
  });
});

describe('Twilio callback routes and secrets', () => {
  let fake: FakeTwilio;
  let srv: EngineServer;
  afterEach(async () => {
    await srv.close();
    await fake.close();
  });

  it('log refusals and a failed recording fetch (by its job) without the auth token or the Basic credentials', async () => {
    fake = await FakeTwilio.start();
    srv = await startEngineServer('sqlite', fake.env(), { carrier: (deps) => configuredTelephony(deps).carrier, agent });
    const alice = await srv.tenant();
    const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask about Sunday.' } });
    await srv.engine.tick();
    const id: string = res.body.callId;
    const sid = (await srv.row(id)).carrier_ref!;
    // The same routes on a second server whose logger the test reads; signatures still name the public URL.
    const lines: string[] = [];
    const logger = pino({ level: 'debug' }, new Writable({ write: (chunk, _e, cb) => void (lines.push(String(chunk)), cb()) }));
    const rest = configuredTwilioRest(srv.deps.config);
    const app = new Koa().use(twilioCallbacks({ ...srv.deps, logger }, rest));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const local = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const publicUrl = `${srv.baseUrl}/twilio/recording/${id}`;
      const missing = `RE${'9'.repeat(32)}`;
      const rec = {
        AccountSid: fake.accountSid,
        CallSid: sid,
        RecordingSid: missing,
        RecordingStatus: 'completed',
        RecordingUrl: `${fake.baseUrl}/2010-04-01/Accounts/${fake.accountSid}/Recordings/${missing}`,
      };
      const signature = getExpectedTwilioSignature(FAKE_AUTH_TOKEN, publicUrl, rec);
      expect(await fake.send(`${local}/twilio/recording/${id}`, rec, signature)).to.deep.equal({ status: 204, body: '' });
      expect((await fake.send(`${local}/twilio/status/${id}`, { CallSid: sid, CallStatus: 'completed' }, 'forged')).status).to.equal(403);
    } finally {
      server.close();
    }
    const jobs = createJobRunner({ store: srv.deps.store, clock: srv.clock, logger, handlers: twilioJobHandlers({ ...srv.deps, rest, logger }) });
    expect(await jobs.tick()).to.equal(1);
    const log = lines.join('');
    expect(lines).to.have.length(2);
    expect(log).to.include('job to be tried again').and.include('Twilio answered 404 (code 20404)');
    expect(log).to.include('missing or invalid X-Twilio-Signature');
    expect(log).to.not.include(FAKE_AUTH_TOKEN);
    expect(log).to.not.include(Buffer.from(`${fake.accountSid}:${FAKE_AUTH_TOKEN}`).toString('base64'));
    expect((await srv.row(id)).recording_path).to.equal(null);
  });
});

describe('Twilio callback routes with the sandbox carrier', () => {
  let srv: TestServer;
  afterEach(() => srv.close());

  it('are not mounted: a signed-looking callback is an unknown path (404)', async () => {
    srv = await startServer('sqlite');
    const res = await fetch(`${srv.baseUrl}/twilio/status/00000000-0000-4000-8000-000000000000`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'x' },
      body: 'CallSid=CA1&CallStatus=completed',
    });
    expect(res.status).to.equal(404);
  });
});
