// The call record's timed turns and the evidence that points into them, on both stores: in spoken order, the transcript's own lines, times in seconds
// from the answer that line up with the recording — speech inside every turn, silence between them — and cut at
// the call's end where the call was cut.
import { expect } from 'chai';
import { WaveFile } from 'wavefile';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';

interface Turn {
  speaker: 'agent' | 'callee';
  text: string;
  startSec: number;
  endSec: number;
}

/** Root-mean-square level of the samples from `fromSec` to `toSec`. */
function rms(samples: Int16Array, rate: number, fromSec: number, toSec: number): number {
  const from = Math.round(fromSec * rate);
  const to = Math.min(samples.length, Math.round(toSec * rate));
  let sum = 0;
  for (let i = from; i < to; i++) sum += samples[i]! ** 2;
  return Math.sqrt(sum / Math.max(1, to - from));
}

forEachStore('timed turns', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startEngineServer(kind, { SVC_MAX_CALL_DURATION_SEC: '120' });
    alice = await srv.tenant({ rateLimit: 100 });
  });
  afterEach(() => srv.close());

  const place = async (to: string) => {
    const res = await alice.api.post('/v1/agent/calls', {
      body: {
        to,
        objective: 'Ask whether the shop is open on Sunday and until what time.',
        fields: [{ name: 'open_sunday', type: 'boolean' }, { name: 'closing_time' }, { name: 'staff_count', type: 'number' }],
      },
    });
    return res.body.callId as string;
  };
  const record = async (id: string) => (await alice.api.get(`/v1/agent/calls/${id}`)).body;

  it('lists every turn of the transcript in order, with times that line up with the recording: speech in each, silence between', async () => {
    const id = await place('+14155550123');
    expect((await record(id)).turns).to.equal(null); // not before the call has ended
    await srv.drive(id);
    const call = await record(id);
    const turns = call.turns as Turn[];
    expect(turns.map((t) => `${t.speaker === 'agent' ? 'Agent' : 'Callee'}: ${t.text}`).join('\n')).to.equal(call.transcript);
    expect(turns[0].startSec).to.equal(0);
    for (const [i, t] of turns.entries()) {
      expect(t.endSec, `turn ${i}`).to.be.above(t.startSec);
      if (i > 0) expect(t.startSec, `turn ${i}`).to.be.at.least(turns[i - 1].endSec);
    }
    expect(turns.at(-1)!.endSec).to.be.at.most(call.durationSec);

    const wav = new WaveFile((await alice.api.get(`/v1/agent/calls/${id}/recording`)).body as Buffer);
    const rate = (wav.fmt as { sampleRate: number }).sampleRate;
    const samples = wav.getSamples(false, Int16Array) as unknown as Int16Array;
    for (const [i, t] of turns.entries()) {
      expect(rms(samples, rate, t.startSec, t.endSec), `speech in turn ${i}: ${t.text}`).to.be.above(300);
      const next = turns[i + 1];
      if (next) expect(rms(samples, rate, t.endSec, next.startSec), `silence after turn ${i}`).to.equal(0);
    }
    // After the last turn the recording is silent to its end.
    expect(rms(samples, rate, turns.at(-1)!.endSec, call.durationSec)).to.equal(0);
  });

  it('gives every extracted value its evidence: a callee turn that holds the quote exactly; null for a null value', async () => {
    const id = await place('+14155550123');
    await srv.drive(id);
    const call = await record(id);
    // Three fields: the simulated callee always knows one and not another.
    expect(Object.keys(call.evidence)).to.deep.equal(['open_sunday', 'closing_time', 'staff_count']);
    let cited = 0;
    let unknown = 0;
    for (const [name, value] of Object.entries(call.extracted)) {
      const ev = call.evidence[name];
      if (value === null) {
        expect(ev, name).to.equal(null);
        unknown++;
        continue;
      }
      cited++;
      expect(call.turns[ev.turn].speaker, name).to.equal('callee');
      expect(call.turns[ev.turn].text, name).to.include(ev.quote);
      expect(call.transcript.split('\n')[ev.turn], name).to.equal(`Callee: ${call.turns[ev.turn].text}`);
    }
    expect([cited > 0, unknown > 0]).to.deep.equal([true, true]);
  });

  it('cuts the turns where the call was cut: a call stopped at the maximum duration ends its last turn there', async () => {
    const id = await place('+14155550115');
    await srv.drive(id, 200);
    const call = await record(id);
    expect(call.durationSec).to.equal(120);
    const turns = call.turns as Turn[];
    expect(turns.length).to.be.above(5);
    expect(turns.at(-1)!.endSec).to.equal(120);
    expect(turns.at(-1)!.startSec).to.be.below(120);
  });

  it('cuts the turns at a cancel of a live call', async () => {
    const id = await place('+14155550123');
    let row = await srv.row(id);
    while (row.status !== 'in_progress') {
      if (row.next_run_at! > srv.clock.now()) srv.clock.ms = row.next_run_at!;
      await srv.engine.tick();
      row = await srv.row(id);
    }
    srv.clock.ms = row.started_at! + 5500;
    await alice.api.post(`/v1/agent/calls/${id}/cancel`);
    await srv.drive(id);
    const call = await record(id);
    expect(call.durationSec).to.equal(5.5);
    expect((call.turns as Turn[]).at(-1)!.endSec).to.be.at.most(5.5);
    expect((call.turns as Turn[]).every((t) => t.startSec < 5.5)).to.equal(true);
  });

  it('has no turns for calls never answered', async () => {
    for (const to of ['+14155550111', '+14155550112', '+14155550113']) {
      const id = await place(to);
      await srv.drive(id);
      expect((await record(id)).turns, to).to.equal(null);
    }
  });
});
