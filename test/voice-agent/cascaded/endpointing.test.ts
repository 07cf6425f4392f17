// Endpointing: when the callee's turn is over, from the detector's starts and stops and the recogniser's words, on
// call time that moves only with the line's frames. First each rule on events given at exact call times, then the
// whole chain on real audio: espeak-ng's answer with a pause in it, heard by VoiceActivity, its words given by a
// recogniser that answers a fixed time after each stop.
import { expect } from 'chai';
import type { FvadModule } from '@echogarden/fvad-wasm';
import { type EndedTurn, Endpointing, type EndpointingOptions } from '../../../server/src/voice-agent/cascaded/endpointing.js';
import { loadFvad, VoiceActivity } from '../../../server/src/voice-agent/cascaded/voice-activity.js';
import { Line, speak, whiteNoise } from './line-audio.js';

/** An endpointer, its output, and a clock to run frames up to a call time (20 ms each, as a line sends them). */
function endpointer(options: Partial<EndpointingOptions> = {}) {
  const ended: Array<EndedTurn & { atMs: number }> = [];
  let flushes = 0;
  let now = 0;
  const ep = new Endpointing({ turnEnded: (t) => void ended.push({ ...t, atMs: now }), needTranscript: () => void flushes++ }, options);
  const runTo = (ms: number) => {
    while (now < ms) ep.frame((now += 20));
  };
  return { ep, ended, runTo, flushes: () => flushes };
}

describe('endpointing', () => {
  it('ends the turn after silenceMs of silence from the speech end, with its final text', () => {
    const { ep, ended, runTo } = endpointer();
    runTo(1000);
    ep.speechStarted(860);
    runTo(2240);
    ep.speechStopped(2000);
    runTo(2300);
    ep.recognized('Yes, we are open.', false);
    runTo(2680);
    expect(ended).to.deep.equal([]);
    runTo(2700);
    expect(ended).to.deep.equal([{ text: 'Yes, we are open.', startMs: 860, endMs: 2000, atMs: 2700 }]);
  });

  it('does not end the turn on a 300 ms pause mid-answer: the speech resumes, and the turn ends after the last', () => {
    const { ep, ended, runTo } = endpointer();
    ep.speechStarted(500);
    runTo(1240);
    ep.speechStopped(1000);
    runTo(1200);
    ep.recognized('I think so,', false);
    runTo(1300);
    ep.speechStarted(1300); // 300 ms after the stop: the callee goes on
    runTo(2240);
    ep.speechStopped(2000);
    ep.recognized('but let me check.', false);
    runTo(2680);
    expect(ended).to.deep.equal([]);
    runTo(2700);
    expect(ended).to.deep.equal([{ text: 'I think so, but let me check.', startMs: 500, endMs: 2000, atMs: 2700 }]);
  });

  it('ends sooner, finalGraceMs after a final marked endOfTurn arrives after the speech stopped', () => {
    const { ep, ended, runTo } = endpointer();
    ep.speechStarted(500);
    runTo(1240);
    ep.speechStopped(1000);
    runTo(1260);
    ep.recognized('No.', true);
    runTo(1400);
    expect(ended).to.deep.equal([]);
    runTo(1420);
    expect(ended).to.deep.equal([{ text: 'No.', startMs: 500, endMs: 1000, atMs: 1420 }]);
  });

  it('takes an endOfTurn final arriving between the speech end and the detector saying so as after the stop', () => {
    const { ep, ended, runTo } = endpointer();
    ep.speechStarted(500);
    runTo(1100);
    ep.recognized('No.', true); // the speech ended at 1,000 ms; the detector says so 240 ms later
    runTo(1240);
    ep.speechStopped(1000);
    expect(ended).to.deep.equal([]);
    runTo(1260); // 150 ms after the final
    expect(ended).to.deep.equal([{ text: 'No.', startMs: 500, endMs: 1000, atMs: 1260 }]);
  });

  it('lets speech that resumes within the grace cancel the endOfTurn, and ignores a mark from before the speech end', () => {
    const { ep, ended, runTo } = endpointer();
    ep.speechStarted(500);
    runTo(1240);
    ep.speechStopped(1000);
    ep.recognized('Yes', true);
    runTo(1320);
    ep.speechStarted(1300);
    runTo(1600);
    ep.recognized('and no,', true); // while the callee still speaks: of speech that went on
    runTo(2240);
    ep.speechStopped(2000);
    runTo(2500);
    ep.recognized('it depends.', false);
    runTo(2680);
    expect(ended).to.deep.equal([]);
    runTo(2700);
    expect(ended).to.deep.equal([{ text: 'Yes and no, it depends.', startMs: 500, endMs: 2000, atMs: 2700 }]);
  });

  it('waits for the words still in flight, asks for them once, and ends the moment the final is in', () => {
    const { ep, ended, runTo, flushes } = endpointer();
    ep.speechStarted(500);
    ep.interim('I think');
    runTo(1240);
    ep.speechStopped(1000);
    runTo(1700);
    expect(ended).to.deep.equal([]);
    expect(flushes()).to.equal(1);
    runTo(1900);
    expect(flushes()).to.equal(1);
    ep.recognized('I think so.', false);
    expect(ended).to.deep.equal([{ text: 'I think so.', startMs: 500, endMs: 1000, atMs: 1900 }]);
  });

  it('takes a final from before the speech end as not yet the last words', () => {
    const { ep, ended, runTo, flushes } = endpointer();
    ep.speechStarted(500);
    runTo(900);
    ep.recognized('Maybe.', false);
    runTo(1240);
    ep.speechStopped(1000);
    runTo(1700);
    expect(ended).to.deep.equal([]);
    expect(flushes()).to.equal(1);
    runTo(1760);
    ep.recognized('', false); // the flush's answer: nothing more was said
    expect(ended).to.deep.equal([{ text: 'Maybe.', startMs: 500, endMs: 1000, atMs: 1760 }]);
  });

  it('ends after transcriptWaitMs with what there is when the words never come: interim words, or nothing', () => {
    const a = endpointer({ transcriptWaitMs: 600 });
    a.ep.speechStarted(500);
    a.ep.recognized('Well,', false);
    a.ep.interim('I guess');
    a.runTo(1240);
    a.ep.speechStopped(1000);
    a.runTo(2280);
    expect(a.ended).to.deep.equal([]);
    a.runTo(2300);
    expect(a.ended).to.deep.equal([{ text: 'Well, I guess', startMs: 500, endMs: 1000, atMs: 2300 }]);

    const b = endpointer({ transcriptWaitMs: 600 });
    b.ep.speechStarted(500);
    b.runTo(1240);
    b.ep.speechStopped(1000);
    b.runTo(2300);
    expect(b.ended).to.deep.equal([{ text: '', startMs: 500, endMs: 1000, atMs: 2300 }]);
  });

  it('keeps the speech that resumes during the wait for words in the same turn', () => {
    const { ep, ended, runTo } = endpointer();
    ep.speechStarted(500);
    ep.interim('So');
    runTo(1240);
    ep.speechStopped(1000);
    runTo(1800);
    ep.speechStarted(1800);
    ep.interim('So we close');
    runTo(2740);
    ep.speechStopped(2500);
    runTo(2800);
    ep.recognized('So we close at six.', false);
    runTo(3180);
    expect(ended).to.deep.equal([]);
    runTo(3200);
    expect(ended).to.deep.equal([{ text: 'So we close at six.', startMs: 500, endMs: 2500, atMs: 3200 }]);
  });

  it('carries words that arrive with no turn open into the next turn, and ignores a stop with none', () => {
    const { ep, ended, runTo } = endpointer({ transcriptWaitMs: 200 });
    ep.speechStopped(100);
    ep.speechStarted(500);
    runTo(1240);
    ep.speechStopped(1000);
    runTo(1900);
    expect(ended.map((t) => t.text)).to.deep.equal(['']);
    expect(ep.inTurn).to.equal(false);
    ep.recognized('Sunday.', false); // the first turn's words, too late for it
    runTo(3000);
    ep.speechStarted(3000);
    expect(ep.inTurn).to.equal(true);
    runTo(3740);
    ep.speechStopped(3500);
    ep.recognized('Or Monday.', false);
    runTo(4200);
    expect(ended.map((t) => [t.text, t.startMs, t.endMs, t.atMs])).to.deep.equal([
      ['', 500, 1000, 1900],
      ['Sunday. Or Monday.', 3000, 3500, 4200],
    ]);
  });

  describe('on real audio through the voice activity detector', function () {
    this.timeout(60_000);
    let fvad: FvadModule;
    before(async () => {
      fvad = await loadFvad();
    });

    /**
     * Plays a line into VoiceActivity and Endpointing as a session does, with a recogniser that gives each run's
     * text 250 ms after the detector's stop (and endOfTurn when `endOfTurn`).
     */
    function converse(line: Line, texts: string[], options: Partial<EndpointingOptions> & { endOfTurn?: boolean } = {}) {
      const va = new VoiceActivity(fvad);
      const ended: Array<EndedTurn & { atMs: number }> = [];
      const ep = new Endpointing({ turnEnded: (t) => void ended.push({ ...t, atMs: va.nowMs }) }, options);
      const due: Array<{ at: number; text: string }> = [];
      let said = 0;
      for (const f of line.frames()) {
        for (const e of va.push(f)) {
          if (e.type === 'started') ep.speechStarted(e.atMs);
          else {
            ep.speechStopped(e.atMs);
            due.push({ at: va.nowMs + 250, text: texts[said++] ?? '' });
          }
        }
        ep.frame(va.nowMs);
        while (due.length && due[0]!.at <= va.nowMs) ep.recognized(due.shift()!.text, options.endOfTurn ?? false);
      }
      va.close();
      return ended;
    }

    it('keeps an answer with a 300 ms pause as one turn, and ends it silenceMs after its speech', async () => {
      const a = await speak('I think so,');
      const b = await speak('but let me check.');
      const line = new Line(5000, whiteNoise(5000, -50));
      const first = line.say(500, a);
      const second = line.sayAfter(first.endMs, 300, b);
      const ended = converse(line, ['I think so,', 'but let me check.']);
      expect(ended).to.have.length(1);
      expect(ended[0]!.text).to.equal('I think so, but let me check.');
      expect(Math.abs(ended[0]!.startMs - first.startMs)).to.be.at.most(60);
      expect(Math.abs(ended[0]!.endMs - second.endMs)).to.be.at.most(60);
      expect(ended[0]!.atMs).to.equal(ended[0]!.endMs + 700);
    });

    it('ends the turn at a pause of silenceMs, and hears the rest as the next turn', async () => {
      const a = await speak('I think so.');
      const b = await speak('Sorry, one more thing.');
      const line = new Line(6000, whiteNoise(6000, -50));
      const first = line.say(500, a);
      const second = line.sayAfter(first.endMs, 900, b);
      const ended = converse(line, ['I think so.', 'Sorry, one more thing.']);
      expect(ended.map((t) => t.text)).to.deep.equal(['I think so.', 'Sorry, one more thing.']);
      expect(Math.abs(ended[0]!.endMs - first.endMs)).to.be.at.most(60);
      expect(ended[0]!.atMs).to.equal(ended[0]!.endMs + 700);
      expect(Math.abs(ended[1]!.startMs - second.startMs)).to.be.at.most(60);
    });

    it("ends sooner on the recogniser's endOfTurn: its grace after the final, not silenceMs", async () => {
      const a = await speak('Yes, we are open on Sunday.');
      const line = new Line(4000, whiteNoise(4000, -50));
      const at = line.say(500, a);
      const ended = converse(line, ['Yes, we are open on Sunday.'], { endOfTurn: true });
      expect(ended).to.have.length(1);
      expect(Math.abs(ended[0]!.endMs - at.endMs)).to.be.at.most(60);
      // The detector's stop 240 ms after the speech; the final 250 ms after that, heard on the next frame edge (+260);
      // 150 ms of grace, to the next frame edge (+160).
      expect(ended[0]!.atMs).to.equal(ended[0]!.endMs + 240 + 260 + 160);
    });
  });
});
