// Barge-in for the cascaded agent: while the agent's audio plays, the callee's speech cuts it off once it has lasted
// minSpeechMs, or on the recogniser's first real word, and a cough, an "mm-hm" or a noisy line does not. First the
// rules on events at exact call times, then on real audio heard by VoiceActivity: espeak-ng's speech, a cough, white
// noise.
import { expect } from 'chai';
import type { FvadModule } from '@echogarden/fvad-wasm';
import { type BargeIn, BargeInDetector, hasWords } from '../../../server/src/voice-agent/cascaded/barge-in-detector.js';
import { loadFvad, VoiceActivity } from '../../../server/src/voice-agent/cascaded/voice-activity.js';
import { cough, Line, speak, VOICES, whiteNoise } from './line-audio.js';

describe('barge-in detection', () => {
  it('barges in once the speech over the agent has lasted minSpeechMs, reporting its start, once a run', () => {
    const d = new BargeInDetector({ minSpeechMs: 400 });
    d.frame(1000, null);
    d.agentStarted();
    expect(d.speechStarted(1200)).to.equal(null);
    const seen: Array<[number, BargeIn | null]> = [];
    for (let t = 1380; t <= 1700; t += 20) seen.push([t, d.frame(t, t)]);
    const fired = seen.filter(([, b]) => b);
    expect(fired).to.deep.equal([[1600, { atMs: 1200, by: 'speech' }]]);
    expect(d.interim('wait, wait')).to.equal(null);
  });

  it('does not barge in on speech that stopped short of minSpeechMs, however late the detector says it stopped', () => {
    const d = new BargeInDetector({ minSpeechMs: 400 });
    d.frame(1000, null);
    d.agentStarted();
    d.speechStarted(1200);
    const seen: Array<BargeIn | null> = [];
    for (let t = 1220; t <= 1580; t += 20) seen.push(d.frame(t, Math.min(t, 1350))); // a 150 ms cough
    seen.push(d.speechStopped(1350)); // 240 ms of quiet later
    for (let t = 1600; t <= 2000; t += 20) seen.push(d.frame(t, null));
    expect(seen.filter((b) => b)).to.deep.equal([]);
  });

  it("barges in on the recogniser's first real word before minSpeechMs, but not on fillers", () => {
    const d = new BargeInDetector({ minSpeechMs: 400 });
    d.frame(1000, null);
    d.agentStarted();
    d.speechStarted(1200);
    d.frame(1300, 1300);
    expect(d.interim('mm-hmm')).to.equal(null);
    expect(d.interim('Uh-huh.')).to.equal(null);
    expect(d.interim('')).to.equal(null);
    expect(d.interim('Mm, no')).to.deep.equal({ atMs: 1200, by: 'words' });
  });

  it('takes no words as a barge-in while the detector hears no speech (a late hypothesis of the last turn)', () => {
    const d = new BargeInDetector();
    d.frame(3000, null);
    d.agentStarted();
    expect(d.interim('we close at six')).to.equal(null);
    d.speechStarted(3100);
    d.speechStopped(3200);
    expect(d.interim('we close at six')).to.equal(null);
  });

  it('ignores speech while the agent is silent, and counts from the agent start when the callee was already talking', () => {
    const d = new BargeInDetector({ minSpeechMs: 400 });
    d.speechStarted(500);
    expect(d.frame(1000, 1000)).to.equal(null);
    expect(d.interim('hello there')).to.equal(null);
    d.agentStarted(); // at 1,000 ms, over the callee
    expect(d.frame(1380, 1380)).to.equal(null);
    expect(d.frame(1400, 1400)).to.deep.equal({ atMs: 1000, by: 'speech' });
    d.speechStopped(1500);
    d.agentStopped();
    expect(d.agentSpeaking).to.equal(false);
    d.speechStarted(2000);
    expect(d.frame(3000, 3000)).to.equal(null);
  });

  it('with minSpeechMs 0, barges in at the start of speech over the agent', () => {
    const d = new BargeInDetector({ minSpeechMs: 0 });
    d.frame(1000, null);
    d.agentStarted();
    expect(d.speechStarted(1100)).to.deep.equal({ atMs: 1100, by: 'speech' });
  });

  it('tells a word from a filler', () => {
    expect(['mm-hmm', 'Mhm.', 'uh huh', 'Hmm...', 'um, er', ''].map(hasWords)).to.deep.equal([false, false, false, false, false, false]);
    expect(['no', 'Mm, okay', "don't", '6', 'Oui'].map(hasWords)).to.deep.equal([true, true, true, true, true]);
  });

  describe('on real audio through the voice activity detector', function () {
    this.timeout(60_000);
    let fvad: FvadModule;
    before(async () => {
      fvad = await loadFvad();
    });

    /** Plays a line with the agent speaking from `agentFromMs`: the barge-ins and the call time each was decided at. */
    function play(line: Line, agentFromMs: number) {
      const va = new VoiceActivity(fvad);
      const d = new BargeInDetector({ minSpeechMs: 400 });
      const out: Array<BargeIn & { heardMs: number }> = [];
      const starts: number[] = [];
      const note = (b: BargeIn | null) => b && out.push({ ...b, heardMs: va.nowMs });
      for (const f of line.frames()) {
        for (const e of va.push(f)) {
          if (e.type === 'started') starts.push(e.atMs);
          note(e.type === 'started' ? d.speechStarted(e.atMs) : d.speechStopped(e.atMs));
        }
        note(d.frame(va.nowMs, va.speechEndMs));
        if (va.nowMs === agentFromMs) d.agentStarted();
      }
      va.close();
      return { bargeIns: out, starts };
    }

    it('barges in minSpeechMs into the callee talking over the agent, at its start', async () => {
      const u = await speak('Hold on a second.');
      const line = new Line(5000, whiteNoise(5000, -50));
      const at = line.say(1500, u);
      const { bargeIns } = play(line, 1000);
      expect(bargeIns).to.have.length(1);
      expect(bargeIns[0]!.by).to.equal('speech');
      expect(Math.abs(bargeIns[0]!.atMs - at.startMs)).to.be.at.most(60);
      expect(bargeIns[0]!.heardMs - bargeIns[0]!.atMs).to.be.within(400, 460);
    });

    it('does not barge in on a 150 ms cough, which the detector hears as speech', () => {
      const line = new Line(3000, whiteNoise(3000, -50));
      line.add(1500, cough(150));
      expect(play(line, 1000)).to.deep.equal({ bargeIns: [], starts: [1500] });
    });

    it('does not barge in on a short "uh-huh" while the agent speaks', async () => {
      const u = await speak('Uh-huh.', { ...VOICES[0]!, wordsPerMinute: 220 });
      const line = new Line(3000, whiteNoise(3000, -50));
      const at = line.say(1500, u);
      expect(at.endMs - at.startMs).to.be.below(400);
      const { bargeIns, starts } = play(line, 1000);
      expect(starts).to.have.length(1);
      expect(bargeIns).to.deep.equal([]);
    });

    for (const db of [-40, -30, -20]) {
      it(`does not barge in on a noisy line (white noise at ${db} dBFS all along)`, () => {
        expect(play(new Line(8000, whiteNoise(8000, db)), 500)).to.deep.equal({ bargeIns: [], starts: [] });
      });
    }

    it('still barges in on speech over a noisy line (white noise at -40 dBFS)', async () => {
      const u = await speak('Wait a moment please.');
      const line = new Line(5000, whiteNoise(5000, -40));
      const at = line.say(2000, u);
      const { bargeIns } = play(line, 500);
      expect(bargeIns).to.have.length(1);
      expect(Math.abs(bargeIns[0]!.atMs - at.startMs)).to.be.at.most(60);
    });
  });
});
