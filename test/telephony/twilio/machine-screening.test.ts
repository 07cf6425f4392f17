// Machine detection on the Twilio carrier, against the fake Twilio whose verdicts come from the callee's greeting
// the way Twilio's thresholds decide them (amdFromGreeting): machine_start is only a suspicion. A person whose
// greeting is long gets it too, and is a person once they answer the agent; a machine is confirmed by its greeting's
// end (DetectMessageEnd's machine_end_*) or by the agent hearing a voicemail greeting (voicemail_detected). The
// agent's side is its turns and tool, written to the store as the media bridge writes them.
import { expect } from 'chai';
import { pino } from 'pino';
import { updateKey } from '../../../server/src/accounts/developer-settings.js';
import type { LiveLine } from '../../../server/src/telephony/live-line.js';
import { recordVoicemailDetected } from '../../../server/src/telephony/machine-screen.js';
import { AMD_WAIT_MS } from '../../../server/src/telephony/twilio/twilio-carrier.js';
import { appendTurn } from '../../../server/src/voice-agent/recorded-turns.js';
import { VOICEMAIL_DETECTED } from '../../../server/src/voice-agent/tools.js';
import type { EngineServer } from '../../support/engine.js';
import { FakeTwilio } from '../../support/fake-twilio.js';
import type { TestTenant } from '../../support/server.js';
import { forEachStore } from '../../support/stores.js';
import { startTwilioEngine, type TwilioEngine } from './twilio-engine.js';

const AMD_PARAMS = ['MachineDetection', 'AsyncAmd', 'AsyncAmdStatusCallback', 'AsyncAmdStatusCallbackMethod'];

forEachStore('machine detection on the Twilio carrier', (kind) => {
  let fake: FakeTwilio;
  let h: TwilioEngine;
  let srv: EngineServer;
  let alice: TestTenant;

  beforeEach(async () => {
    fake = await FakeTwilio.start();
    h = await startTwilioEngine(kind, fake);
    ({ srv, alice } = h);
  });
  afterEach(async () => {
    await h?.close();
    await fake.close();
  });

  const placeAndDial = (extra: Record<string, unknown> = {}) => h.placeAndDial(extra);

  /** A turn as the media bridge's ledger writes it, in call-time ms from the pick-up. */
  let seq = 0;
  beforeEach(() => (seq = 0));
  const turn = (id: string, speaker: 'agent' | 'callee', text: string, startMs: number, endMs: number) => appendTurn(srv.deps.store.db, id, seq++, { speaker, text, startMs, endMs });

  /** The model calls voicemail_detected, wired as the realtime agent wires it. */
  async function voicemailDetected(id: string): Promise<void> {
    const ctx = {
      callId: id,
      line: {} as LiveLine,
      logger: pino({ level: 'silent' }),
      endCall() {},
      recordOptOut: async () => {},
      recordVoicemail: () => recordVoicemailDetected(srv.deps.store.db, id, srv.clock.now()),
    };
    expect(await VOICEMAIL_DETECTED.run({}, ctx), 'the model is not answered: it says nothing more').to.equal(undefined);
  }

  it('takes a person with a 3 s greeting (machine_start) who answers the agent for a person: completed, answeredBy human', async () => {
    const { id, sid } = await placeAndDial();
    expect(fake.call(sid).params.MachineDetection).to.deep.equal(['Enable']);
    srv.clock.advance(4000);
    const pickedUpAt = srv.clock.now();
    await fake.status(sid, 'in-progress');
    const verdict = await fake.amdFromGreeting(sid, [{ speech: 3000 }]);
    expect(verdict).to.include({ answeredBy: 'machine_start', atMs: 2400 });
    srv.clock.advance(2400);
    await srv.engine.tick();
    expect(await srv.row(id), 'a suspicion holds the answer; nothing is hung up').to.include({ status: 'dialing', answered_by: null });
    expect(fake.call(sid).updates).to.deep.equal([]);
    // The greeting, in two turns (a pause inside it): its second part begins after the verdict but answers nobody.
    await turn(id, 'callee', "Thanks for calling Tony's,", 0, 1200);
    await turn(id, 'callee', 'this is Mark, how can I help you?', 1500, 3000);
    srv.clock.advance(1000);
    await srv.engine.tick();
    expect((await srv.row(id)).status).to.equal('dialing');
    await turn(id, 'agent', 'Hi Mark, I am an AI assistant calling for a customer: are you open on Sunday?', 3600, 7000);
    await turn(id, 'callee', 'Yes, from ten to four.', 7600, 9000);
    srv.clock.advance(1000);
    await srv.engine.tick();
    expect(await srv.row(id)).to.include({ status: 'in_progress', answered_by: 'human', started_at: pickedUpAt });
    srv.clock.advance(5000);
    await fake.status(sid, 'completed');
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'completed', answered_by: 'human', error: null });
    expect(row.transcript).to.equal(
      `Callee: Thanks for calling Tony's,\nCallee: this is Mark, how can I help you?\nAgent: Hi Mark, I am an AI assistant calling for a customer: are you open on Sunday?\nCallee: Yes, from ten to four.`,
    );
    expect(fake.call(sid).updates, 'never hung up on').to.deep.equal([]);
  });

  it('hangs up on a machine_start the agent confirms as a voicemail greeting (voicemail_detected), without speaking', async () => {
    const { id, sid } = await placeAndDial({ voicemail: { action: 'hangup' } });
    await fake.status(sid, 'in-progress');
    const verdict = await fake.amdFromGreeting(sid, [{ speech: 6000 }, { beep: true }]);
    expect(verdict).to.include({ answeredBy: 'machine_start', atMs: 2400 });
    await srv.engine.tick();
    expect((await srv.row(id)).status).to.equal('dialing');
    await turn(id, 'callee', 'You have reached 555 0123. Please leave a message after the tone.', 0, 6000);
    await voicemailDetected(id);
    expect((await srv.row(id)).voicemail_detected_at).to.be.a('number');
    expect((await srv.row(id)).next_run_at, 'made due at once').to.be.at.most(srv.clock.now());
    await srv.engine.tick();
    const row = await srv.row(id);
    expect(row).to.include({ status: 'voicemail', answered_by: 'machine', voicemail_left: 0, duration_sec: 0, error: null });
    expect(fake.call(sid).updates, 'hung up; nothing said').to.deep.equal([{ Status: 'completed' }]);
  });

  it('takes a machine_start that nothing settles within AMD_WAIT_MS of the pick-up for a machine, and hangs up', async () => {
    const { id, sid } = await placeAndDial();
    await fake.status(sid, 'in-progress');
    await fake.amdFromGreeting(sid, [{ speech: 4000 }]);
    await srv.engine.tick();
    await turn(id, 'callee', 'Hi, this is Sam, leave me a message.', 0, 4000);
    srv.clock.advance(AMD_WAIT_MS - 1);
    await srv.engine.tick();
    expect((await srv.row(id)).status, 'still screening just before the bound').to.equal('dialing');
    srv.clock.advance(1);
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'voicemail', answered_by: 'machine', duration_sec: 0 });
    expect(fake.call(sid).updates).to.deep.equal([{ Status: 'completed' }]);
  });

  it('leaves the message after the beep (machine_end_beep with DetectMessageEnd): voicemail, voicemailLeft true', async () => {
    const message = 'Hi, this is the shop: your order is ready for pick-up.';
    const { id, sid } = await placeAndDial({ voicemail: { action: 'leave_message', message } });
    expect(fake.call(sid).params.MachineDetection).to.deep.equal(['DetectMessageEnd']);
    srv.clock.advance(3000);
    const pickedUpAt = srv.clock.now();
    await fake.status(sid, 'in-progress');
    // The fake sends the verdict at once; Twilio sends it at MachineDetectionDuration, so the clock goes there first.
    srv.clock.advance(6500);
    const verdict = await fake.amdFromGreeting(sid, [{ speech: 2000 }, { silence: 500 }, { speech: 4000 }, { beep: true }]);
    expect(verdict).to.include({ answeredBy: 'machine_end_beep', atMs: 6500 });
    await srv.engine.tick();
    const twiml = fake.call(sid).updates.map((u) => u.Twiml);
    expect(twiml, 'the message is said once the greeting has ended').to.deep.equal([`<?xml version="1.0" encoding="UTF-8"?><Response><Say language="en-US">${message}</Say><Hangup/></Response>`]);
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'voicemail', voicemail_left: 1, answered_by: 'machine', started_at: pickedUpAt });
  });

  it('asks Twilio for no detection on a call placed with machineDetection off, and answers at the pick-up', async () => {
    const { id, sid } = await placeAndDial({ machineDetection: 'off' });
    for (const p of AMD_PARAMS) expect(fake.call(sid).params, p).not.to.have.property(p);
    expect(await fake.amdFromGreeting(sid, [{ speech: 3000 }]), 'Twilio sends no verdict').to.equal(null);
    srv.clock.advance(4000);
    await fake.status(sid, 'in-progress');
    await srv.engine.tick();
    expect(await srv.row(id)).to.include({ status: 'in_progress', answered_by: 'unknown', started_at: srv.clock.now(), machine_detection: 'off' });
  });

  it("follows the key's default (off), which a call's machineDetection on overrides", async () => {
    expect(await updateKey(srv.deps.store.db, alice.keyId, { machine_detection: 'off' })).to.equal(true);
    const off = await placeAndDial();
    for (const p of AMD_PARAMS) expect(fake.call(off.sid).params, p).not.to.have.property(p);
    const on = await placeAndDial({ machineDetection: 'on' });
    expect(fake.call(on.sid).params.MachineDetection).to.deep.equal(['Enable']);
    expect(fake.call(on.sid).params.AsyncAmd).to.deep.equal(['true']);
    expect((await srv.row(on.id)).machine_detection).to.equal(null);
  });

  it('refuses a machineDetection other than on or off with invalid_machine_detection', async () => {
    const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask.', machineDetection: 'sometimes' } });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal('invalid_machine_detection');
  });
});
