// Waiting on hold, for either live agent: the hold's span and budget, and svc's ears on a line the model does not
// hear. The budget runs only while the model hears nothing; a recording that wakes the model and is waited through
// again keeps the hold's start; the hold ends where the speech that woke it began. The ears take the sandbox's hold
// music, however long and whatever came before it, for no speech, wake on a person's words, and keep the second
// before so the model hears the words from their start.
import { expect } from 'chai';
import { holdMusic } from '../../server/src/tones/hold-music.js';
import { Hold, HoldEars, PRE_ROLL_MS } from '../../server/src/voice-agent/hold.js';
import { loadFvad } from '../../server/src/voice-agent/cascaded/voice-activity.js';
import { Line, speak } from './cascaded/line-audio.js';

describe('a hold', () => {
  it('runs from the first wait to the speech that ended it, a recording waited through again keeping its start', () => {
    const hold = new Hold(30_000);
    expect([hold.on, hold.holding]).to.deep.equal([false, false]);
    hold.enter(5000);
    expect([hold.on, hold.holding]).to.deep.equal([true, true]);
    hold.wake(20_000);
    expect([hold.on, hold.holding]).to.deep.equal([true, false]);
    hold.enter(24_000);
    hold.wake(40_000);
    expect(hold.end(41_500)).to.deep.equal({ startMs: 5000, endMs: 40_000 });
    expect(hold.on).to.equal(false);
    expect(hold.end(50_000)).to.equal(null);
  });

  it('ends where it is when nothing woke it (the line ended, or the agent pressed keys)', () => {
    const hold = new Hold(30_000);
    hold.enter(1000);
    expect(hold.end(9000)).to.deep.equal({ startMs: 1000, endMs: 9000 });
  });

  it('runs out at its budget while the model hears nothing, not while it listens to what woke it', () => {
    const hold = new Hold(30_000);
    hold.enter(1000);
    expect(hold.expired(30_999)).to.equal(false);
    expect(hold.expired(31_000)).to.equal(true);
    hold.wake(25_000);
    expect(hold.expired(40_000)).to.equal(false);
    hold.enter(41_000);
    expect(hold.expired(41_000)).to.equal(true);
  });
});

describe('the ears on a hold', function () {
  this.timeout(30_000);
  const frames = (audio: Buffer) => Array.from({ length: Math.floor(audio.length / 160) }, (_, i) => audio.subarray(i * 160, (i + 1) * 160).toString('base64'));

  it('hear two minutes of the hold music as no speech, from the start of the hold or after a silence', async () => {
    for (const before of [0, 3000]) {
      const woke: number[] = [];
      const ears = new HoldEars(loadFvad(), (at) => woke.push(at));
      await loadFvad();
      const line = Buffer.concat([Buffer.alloc(before * 8, 0xff), holdMusic(0, 120_000 * 8)]);
      for (const f of frames(line)) ears.push(f);
      expect(woke, `${before} ms of silence first`).to.deep.equal([]);
      ears.close();
    }
  });

  it('wake on a person’s words after the music, a little after they begin, and keep the second before', async () => {
    const hello = await speak('Hello, thanks for holding, this is Sam.');
    const line = new Line(6000);
    const at = line.say(3000, hello);
    const mixed = line.muLaw();
    // The music until the person picks up, then the person alone.
    holdMusic(0, 3000 * 8).copy(mixed, 0);
    let wokeAt: number | null = null;
    const ears = new HoldEars(loadFvad(), (at) => (wokeAt = at));
    await loadFvad();
    const all = frames(mixed);
    let at20 = 0;
    for (; at20 < all.length && wokeAt === null; at20++) ears.push(all[at20]!);
    expect(wokeAt, 'woke').to.not.equal(null);
    expect(Math.abs(wokeAt! - at.startMs)).to.be.at.most(60);
    const kept = ears.takeKept();
    expect(kept.length * 20).to.equal(PRE_ROLL_MS);
    // The frames kept are the last second heard, ending with the one that woke the ears: the words from their start.
    expect(kept).to.deep.equal(all.slice(at20 - PRE_ROLL_MS / 20, at20));
    expect(at20 * 20 - PRE_ROLL_MS).to.be.at.most(at.startMs);
    ears.close();
  });

  /**
   * A line of `lineMs`, hold music until `helloAtMs` and then a person's hello, pushed in one burst while the
   * detector is still loading; `load` lets it load and waits for the frames to be judged.
   */
  async function burstBeforeDetector(lineMs: number, helloAtMs: number) {
    const hello = await speak('Hello, thanks for holding, this is Sam.');
    const line = new Line(lineMs);
    const at = line.say(helloAtMs, hello);
    const mixed = line.muLaw();
    holdMusic(0, helloAtMs * 8).copy(mixed, 0);
    let loaded: (m: Awaited<ReturnType<typeof loadFvad>>) => void = () => {};
    const late = new Promise<Awaited<ReturnType<typeof loadFvad>>>((resolve) => (loaded = resolve));
    const woke: number[] = [];
    const ears = new HoldEars(late, (a) => woke.push(a));
    const all = frames(mixed);
    for (const f of all) ears.push(f);
    const load = async () => {
      loaded(await loadFvad());
      await late;
      await new Promise((r) => setImmediate(r));
    };
    return { at, all, woke, ears, load };
  }

  it('judge the frames that arrived while the detector loaded as soon as it has, keeping the second before the words and all after', async () => {
    // The whole line arrives in a burst, and then nothing: the detector is still loading.
    const { at, all, woke, ears, load } = await burstBeforeDetector(9000, 3000);
    expect(woke).to.deep.equal([]);
    await load();
    expect(woke).to.have.length(1);
    expect(Math.abs(woke[0]! - at.startMs)).to.be.at.most(60);
    const kept = ears.takeKept();
    // From a second before the frame that woke the ears to the end of the line.
    const from = all.length - kept.length;
    expect(kept).to.deep.equal(all.slice(from));
    expect(from * 20).to.be.within(at.startMs - PRE_ROLL_MS, at.startMs);
    ears.close();
  });

  it('date the words from the hold’s start when more than ten seconds arrived before the detector loaded', async () => {
    // 18 s in a burst: the oldest 8 s wait past the detector's 10 s and are dropped, yet the time stays the hold's.
    const { at, woke, ears, load } = await burstBeforeDetector(18_000, 14_000);
    await load();
    expect(woke).to.have.length(1);
    expect(Math.abs(woke[0]! - at.startMs)).to.be.at.most(60);
    ears.close();
  });
});
