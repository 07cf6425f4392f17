// The sandbox's business lines in the text sandbox, through the engine on both stores: the key menu (555-0125) is
// gone through with the keys that fit the objective, two levels deep, its prompts and the keys on the record; the
// spoken menu (555-0126) with the option said; the queue (555-0127) waited on for its minute of music, the record's
// holdSec that minute; a hold budget shorter than the music ends the call there, completed, endReason hold_timeout,
// the summary saying so. The recording carries the keys as DTMF tones and the hold as music.
import { expect } from 'chai';
import { WaveFile } from 'wavefile';
import { CONNECTING, HOLD_ANNOUNCEMENT, KEY_MENU, menuPrompt, SPOKEN_MENU } from '../../server/src/conversation/sandbox-menus.js';
import { decodeDtmf } from '../../server/src/telephony/dtmf-decoder.js';
import { resample } from '../../server/src/speech/audio.js';
import { forEachStore } from '../support/stores.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';

const FIELDS = [{ name: 'delivery_day', description: 'the day the delivery arrives' }];

forEachStore("the sandbox's business lines in the text sandbox", (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startEngineServer(kind);
    alice = await srv.tenant({ rateLimit: 100 });
  });
  afterEach(() => srv.close());

  async function call(to: string, extra: Record<string, unknown> = {}) {
    const res = await alice.api.post('/v1/agent/calls', { body: { to, objective: 'Ask when my delivery will arrive.', fields: FIELDS, ...extra } });
    expect(res.status).to.equal(202);
    const row = await srv.drive(res.body.callId);
    return { row, record: (await alice.api.get(`/v1/agent/calls/${res.body.callId}`)).body };
  }
  const lines = (record: { transcript: string }) => record.transcript.split('\n');

  it('goes through the key menu with the keys that fit the objective, then talks to the person; the recording has the keys as tones', async function () {
    // The recording is rendered at the first request: the synthesiser loads then.
    this.timeout(60_000);
    const { record } = await call('+14155550125');
    expect(record).to.include({ status: 'completed', holdSec: 0, endReason: 'hung_up', hold: null });
    expect(lines(record).slice(0, 5)).to.deep.equal([
      `Callee: ${menuPrompt(KEY_MENU, 'keys')}`,
      'Agent: [pressed 2]',
      `Callee: ${menuPrompt(KEY_MENU.options[1]!.next!, 'keys')}`,
      'Agent: [pressed 1]',
      `Callee: ${CONNECTING}`,
    ]);
    // The person picks up and speaks first; the agent introduces itself to them.
    expect(lines(record)[5]).to.match(/^Callee: /);
    expect(lines(record)[6]).to.match(/^Agent: Hello, this is an AI assistant/);
    // Each key turn lasts its tone and the gap after it.
    const keys = record.turns.filter((t: { text: string }) => t.text.startsWith('[pressed'));
    for (const k of keys) expect(Math.round((k.endSec - k.startSec) * 1000)).to.equal(200);
    expect(record.extracted).to.have.all.keys('delivery_day');
    expect(record.summary).to.match(/^Objective: Ask when my delivery will arrive\. The call was completed; the agent asked 1 of 1 questions/);

    const wav = new WaveFile((await alice.api.get(`/v1/agent/calls/${record.id}/recording`)).body as Buffer);
    const samples = resample(Int16Array.from(wav.getSamples(false, Int16Array) as unknown as Int16Array), (wav.fmt as { sampleRate: number }).sampleRate, 8000);
    const heard = decodeDtmf(samples).filter((h) => h.key !== '?');
    expect(heard.map((h) => h.key)).to.deep.equal(['2', '1']);
    for (const [i, h] of heard.entries()) expect(h.startMs / 1000).to.be.within(keys[i].startSec - 0.01, keys[i].startSec + 0.01);
  });

  it('says the option the spoken menu asks for, then talks to the person', async () => {
    const { record } = await call('+14155550126', { objective: 'Ask about a charge on my last bill.' });
    expect(record).to.include({ status: 'completed', holdSec: 0, endReason: 'hung_up' });
    expect(lines(record).slice(0, 3)).to.deep.equal([`Callee: ${menuPrompt(SPOKEN_MENU, 'spoken')}`, 'Agent: Billing.', `Callee: ${CONNECTING}`]);
    expect(lines(record)[4]).to.match(/^Agent: Hello, this is an AI assistant/);
    // The option said to the menu is no introduction and no question: the field is still asked and read.
    expect(record.summary).to.include('the agent asked 1 of 1 questions');
  });

  it('waits on hold through the queue’s minute of music in silence, then talks to the person; holdSec is that minute', async function () {
    this.timeout(60_000);
    const { record } = await call('+14155550127');
    expect(record).to.include({ status: 'completed', holdSec: 60, endReason: 'hung_up' });
    expect(lines(record).slice(0, 2)).to.deep.equal([`Callee: ${HOLD_ANNOUNCEMENT}`, 'Agent: [waiting on hold]']);
    const [announcement, wait, hello] = record.turns;
    const msOf = (sec: number) => Math.round(sec * 1000);
    expect(msOf(wait.startSec)).to.equal(msOf(announcement.endSec) + 600);
    expect(msOf(wait.endSec) - msOf(wait.startSec)).to.equal(60_000);
    expect(hello.speaker).to.equal('callee');
    expect(msOf(hello.startSec)).to.equal(msOf(wait.endSec) + 600);
    expect(record.durationSec).to.be.above(60);
    // The music is in the recording where the wait is, a tone at a time; no words over it.
    const wav = new WaveFile((await alice.api.get(`/v1/agent/calls/${record.id}/recording`)).body as Buffer);
    const rate = (wav.fmt as { sampleRate: number }).sampleRate;
    const all = wav.getSamples(false, Int16Array) as unknown as Int16Array;
    const level = (fromSec: number, toSec: number) => {
      let sum = 0;
      for (let i = Math.floor(fromSec * rate); i < Math.floor(toSec * rate); i++) sum += all[i]! * all[i]!;
      return Math.sqrt(sum / ((toSec - fromSec) * rate));
    };
    for (let s = Math.ceil(wait.startSec); s + 1 < wait.endSec; s += 10) expect(level(s, s + 1), `second ${s}`).to.be.within(5000, 6000);
  });

  it('hangs up when the hold outlasts hold.maxWaitSec: completed, hold_timeout, the summary saying so, billed to there', async () => {
    const { row, record } = await call('+14155550127', { hold: { maxWaitSec: 30 } });
    expect(record).to.include({ status: 'completed', holdSec: 30, endReason: 'hold_timeout', error: null });
    expect(record.hold).to.deep.equal({ maxWaitSec: 30 });
    expect(lines(record)).to.deep.equal([`Callee: ${HOLD_ANNOUNCEMENT}`, 'Agent: [waiting on hold]']);
    const wait = record.turns[1];
    expect(record.durationSec).to.equal(wait.endSec);
    expect(Math.round((wait.endSec - wait.startSec) * 1000)).to.equal(30_000);
    expect(row.billed_minutes).to.equal(1);
    expect(record.summary).to.equal(
      'Objective: Ask when my delivery will arrive. The call was ended after waiting on hold for longer than its hold limit (hold.maxWaitSec); the agent asked 0 of 1 questions and got 0 answers. Not asked before the call ended: the day the delivery arrives.',
    );
    expect(record.extracted).to.deep.equal({ delivery_day: null });
  });

  it('says why every other completed call ended, and none for a call that did not complete', async () => {
    expect((await call('+14155550123')).record).to.include({ endReason: 'hung_up', holdSec: 0 });
    expect((await call('+14155550115')).record).to.include({ endReason: 'max_duration', holdSec: 0 });
    expect((await call('+14155550116')).record).to.include({ status: 'failed', endReason: null, holdSec: 0 });
    expect((await call('+14155550111')).record).to.include({ status: 'no_answer', endReason: null, holdSec: null });
  });
});
