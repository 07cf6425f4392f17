// Voicemail drop on both stores: the placement's voicemail field checked (400 invalid_voicemail), and on the
// sandbox's voicemail number a call that leaves a message waits for the greeting and the beep, says the message in
// the call's language, hangs up and ends voicemail with voicemailLeft, the message in its turns and its recording,
// its time with the machine billed. Without the field, or with hangup, the call hangs up on the machine, as in v1.
import { expect } from 'chai';
import { WaveFile } from 'wavefile';
import { sandboxGreeting } from '../../server/src/telephony/sandbox/sandbox-carrier.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';

const VOICEMAIL = '+14155550112';
const MESSAGE = 'Hello, this is the bakery assistant calling about your Sunday order. Please call us back at your convenience.';

function levels(wav: WaveFile) {
  const rate = (wav.fmt as { sampleRate: number }).sampleRate;
  const samples = wav.getSamples(false, Int16Array) as unknown as Int16Array;
  const window = (fromSec: number, toSec: number) => samples.subarray(Math.round(fromSec * rate), Math.round(toSec * rate));
  const rms = (fromSec: number, toSec: number) => {
    const w = window(fromSec, toSec);
    return Math.sqrt(w.reduce((sum, x) => sum + x * x, 0) / Math.max(1, w.length));
  };
  /** The dominant pitch of a stretch, by its rising zero crossings. */
  const hz = (fromSec: number, toSec: number) => {
    const w = window(fromSec, toSec);
    let rising = 0;
    for (let i = 1; i < w.length; i++) if (w[i - 1]! < 0 && w[i]! >= 0) rising++;
    return rising / (toSec - fromSec);
  };
  return { rms, hz, seconds: samples.length / rate };
}

forEachStore('voicemail drop', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startEngineServer(kind);
    alice = await srv.tenant({ rateLimit: 100 });
  });
  afterEach(() => srv.close());

  const place = (to: string, extra: Record<string, unknown> = {}) =>
    alice.api.post('/v1/agent/calls', { body: { to, objective: 'Tell the customer their Sunday order is ready.', webhookUrl: 'http://127.0.0.1:9/hooks', ...extra } });
  const events = async (id: string) => (await srv.deps.store.db.selectFrom('webhook_events').select('event').where('call_id', '=', id).orderBy('created_at').execute()).map((e) => e.event);

  const invalid: [string, unknown][] = [
    ['leave_message without a message', { action: 'leave_message' }],
    ['an empty message', { action: 'leave_message', message: '' }],
    ['a blank message', { action: 'leave_message', message: '   ' }],
    ['a message of 1001 characters', { action: 'leave_message', message: 'a'.repeat(1001) }],
    ['hangup with a message', { action: 'hangup', message: 'Hello' }],
    ['an unknown action', { action: 'shout' }],
    ['a string', 'hangup'],
    ['an array', [{ action: 'hangup' }]],
    ['an unknown property', { action: 'leave_message', message: 'Hi', voice: 'coral' }],
  ];
  for (const [what, voicemail] of invalid) {
    it(`refuses ${what} with 400 invalid_voicemail, placing nothing`, async () => {
      const res = await place('+14155550123', { voicemail });
      expect([res.status, res.body.error]).to.deep.equal([400, 'invalid_voicemail']);
      expect(await srv.deps.store.db.selectFrom('calls').select('id').execute()).to.have.length(0);
    });
  }

  it('accepts a message of exactly 1000 characters, and hangup, and null', async () => {
    for (const voicemail of [{ action: 'leave_message', message: 'a'.repeat(1000) }, { action: 'hangup' }, null]) {
      expect((await place('+14155550123', { voicemail })).status, JSON.stringify(voicemail)?.slice(0, 40)).to.equal(202);
    }
  });

  it('leaves the message after the greeting and the beep, then ends voicemail with voicemailLeft, the message in its turns and recording', async () => {
    const placed = await place(VOICEMAIL, { voicemail: { action: 'leave_message', message: MESSAGE } });
    const id = placed.body.callId as string;
    const placedAt = srv.clock.now();
    const row = await srv.drive(id);
    expect(row.status).to.equal('voicemail');
    const call = (await alice.api.get(`/v1/agent/calls/${id}`)).body;
    const greeting = sandboxGreeting('en-US');
    expect(call).to.deep.include({ status: 'voicemail', voicemailLeft: true, answeredBy: 'machine', error: null, summary: null, extracted: null });
    expect(Date.parse(call.startedAt)).to.equal(placedAt + 15_000); // the machine picks up after 15 s of ringing
    const turns = call.turns as { speaker: string; text: string; startSec: number; endSec: number }[];
    expect(turns.map((t) => [t.speaker, t.text])).to.deep.equal([
      ['callee', greeting.text],
      ['agent', MESSAGE],
    ]);
    expect(turns[1].startSec).to.be.above(greeting.beepEndMs / 1000); // the message starts after the beep
    expect(call.durationSec).to.equal(turns[1].endSec + 0.5); // hung up half a second after the message
    expect(row.billed_minutes).to.equal(Math.ceil(call.durationSec / 60));
    expect(call.transcript).to.equal(`Callee: ${greeting.text}\nAgent: ${MESSAGE}`);

    const wav = levels(new WaveFile((await alice.api.get(`/v1/agent/calls/${id}/recording`)).body as Buffer));
    expect(wav.seconds).to.be.closeTo(call.durationSec, 0.01);
    expect(wav.rms(0, greeting.endMs / 1000)).to.be.above(300); // the greeting
    expect(wav.hz(greeting.beepStartMs / 1000 + 0.05, greeting.beepEndMs / 1000 - 0.05)).to.be.closeTo(1000, 30); // the beep
    expect(wav.rms(greeting.beepEndMs / 1000 + 0.01, turns[1].startSec)).to.equal(0); // silence, then
    expect(wav.rms(turns[1].startSec, turns[1].endSec)).to.be.above(300); // the message
    expect(await events(id)).to.deep.equal(['call.voicemail']);
    expect(await srv.dials(id)).to.equal(1);
  });

  it('greets in the call’s language and leaves the message in it', async () => {
    const message = 'Bonjour, votre commande de dimanche est prête. Merci de nous rappeler.';
    const placed = await place(VOICEMAIL, { language: 'fr-FR', voicemail: { action: 'leave_message', message } });
    await srv.drive(placed.body.callId);
    const call = (await alice.api.get(`/v1/agent/calls/${placed.body.callId}`)).body;
    expect(call.turns.map((t: { text: string }) => t.text)).to.deep.equal([sandboxGreeting('fr-FR').text, message]);
    expect(sandboxGreeting('fr-FR').text).to.match(/messagerie/);
    expect(call.voicemailLeft).to.equal(true);
  });

  for (const voicemail of [undefined, { action: 'hangup' }]) {
    it(`hangs up on the machine as in v1 with voicemail ${JSON.stringify(voicemail)}: no message, nothing connected`, async () => {
      const placed = await place(VOICEMAIL, voicemail ? { voicemail } : {});
      const row = await srv.drive(placed.body.callId);
      const call = (await alice.api.get(`/v1/agent/calls/${placed.body.callId}`)).body;
      expect(call).to.deep.include({ status: 'voicemail', voicemailLeft: false, durationSec: 0, startedAt: null, transcript: null, turns: null, recordingUrl: null, answeredBy: 'machine' });
      expect(row.billed_minutes).to.equal(0);
    });
  }

  it('takes a leave_message to a person like any call: answered and completed, no message left', async () => {
    const placed = await place('+14155550123', { voicemail: { action: 'leave_message', message: MESSAGE } });
    await srv.drive(placed.body.callId);
    const call = (await alice.api.get(`/v1/agent/calls/${placed.body.callId}`)).body;
    expect(call).to.deep.include({ status: 'completed', voicemailLeft: false, answeredBy: 'human' });
    expect(call.transcript).to.not.include(MESSAGE);
  });

  it('a cancel while the message is being left cuts it: voicemail, voicemailLeft false, billed to the cancel', async () => {
    const placed = await place(VOICEMAIL, { voicemail: { action: 'leave_message', message: MESSAGE } });
    const id = placed.body.callId as string;
    // Step until the greeting has ended and the message is under way.
    for (let i = 0; i < 20; i++) {
      const r = await srv.row(id);
      if (r.engine_state?.includes('"voicemail":{')) break;
      if (r.next_run_at! > srv.clock.now()) srv.clock.ms = r.next_run_at!;
      await srv.engine.tick();
    }
    const state = JSON.parse((await srv.row(id)).engine_state!) as { voicemail: { pickedUpAt: number; turns: { startMs: number }[] } };
    const cancelAt = state.voicemail.pickedUpAt + state.voicemail.turns[1].startMs + 2000;
    srv.clock.ms = cancelAt;
    const res = await alice.api.post(`/v1/agent/calls/${id}/cancel`);
    expect([res.status, res.body.status]).to.deep.equal([202, 'dialing']);
    const row = await srv.drive(id);
    expect(row.status).to.equal('voicemail');
    expect(row.voicemail_left).to.equal(0);
    expect(row.duration_sec).to.equal((cancelAt - state.voicemail.pickedUpAt) / 1000);
    expect(await events(id)).to.deep.equal(['call.voicemail']);
  });
});
