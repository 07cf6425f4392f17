// The callee's voice activity on a phone line, heard from real audio: espeak-ng's speech through the line's 8 kHz
// mu-law in Twilio's 20 ms frames, quiet and under white noise, and sounds that are not speech (a hiss, a tone, a
// click). Speech must start and stop within TOLERANCE_MS of where its samples say it is; nothing else may start it.
import { expect } from 'chai';
import type { FvadModule } from '@echogarden/fvad-wasm';
import { type ActivityEvent, DEFAULT_VOICE_ACTIVITY, frameDbfs, loadFvad, VoiceActivity, VoiceActivityError } from '../../../server/src/voice-agent/cascaded/voice-activity.js';
import { click, Line, speak, tone, VOICES, whiteNoise } from './line-audio.js';

/** How far a start or a stop may be from the speech's bounds: a frame is 20 ms, a word's first sound can be weak. */
const TOLERANCE_MS = 60;

function hear(fvad: FvadModule, line: Line, options: ConstructorParameters<typeof VoiceActivity>[1] = {}): ActivityEvent[] {
  const va = new VoiceActivity(fvad, options);
  const events = line.frames().flatMap((f) => va.push(f));
  va.close();
  return events;
}

describe('voice activity on a phone line', function () {
  this.timeout(60_000);
  let fvad: FvadModule;
  before(async () => {
    fvad = await loadFvad();
  });

  const answers = ['Yes, we are open on Sunday from ten until four.', 'No.', 'Hello?', 'I think so, but let me check with my manager first.'];

  for (const [bed, label] of [
    [null, 'a quiet line'],
    [-50, 'white noise at -50 dBFS'],
    [-40, 'white noise at -40 dBFS'],
  ] as const) {
    it(`starts and stops within ${TOLERANCE_MS} ms of the speech on ${label}, for three voices`, async () => {
      for (const voice of VOICES) {
        for (const text of answers) {
          const u = await speak(text, voice);
          const line = new Line(700 + Math.ceil(u.samples.length / 8) + 1000, bed === null ? null : whiteNoise(20_000, bed));
          const at = line.say(700, u);
          const events = hear(fvad, line);
          const what = `${voice.variant ?? voice.language} "${text}" (speech ${at.startMs}-${at.endMs} ms): ${JSON.stringify(events)}`;
          expect(events.length, what).to.be.greaterThan(0);
          expect(events.length % 2, what).to.equal(0);
          expect(events[0]!.type, what).to.equal('started');
          expect(events.at(-1)!.type, what).to.equal('stopped');
          expect(Math.abs(events[0]!.atMs - at.startMs), what).to.be.at.most(TOLERANCE_MS);
          expect(Math.abs(events.at(-1)!.atMs - at.endMs), what).to.be.at.most(TOLERANCE_MS);
        }
      }
    });
  }

  it('hears two answers a second apart as two runs, each on its speech, with times on 20 ms frame edges', async () => {
    const a = await speak('Yes.');
    const b = await speak('Sunday works for me.', VOICES[1]);
    const line = new Line(6000, whiteNoise(6000, -55));
    const first = line.say(500, a);
    const second = line.say(first.endsAt + 1000, b);
    const events = hear(fvad, line);
    expect(events.map((e) => e.type)).to.deep.equal(['started', 'stopped', 'started', 'stopped']);
    const bounds = [first.startMs, first.endMs, second.startMs, second.endMs];
    events.forEach((e, i) => {
      expect(Math.abs(e.atMs - bounds[i]!), `${e.type} ${e.atMs} vs ${bounds[i]}`).to.be.at.most(TOLERANCE_MS);
      expect(e.atMs % 20).to.equal(0);
    });
  });

  /** No floors: libfvad's own verdict, with the same hysteresis. */
  const fvadAlone = { aboveNoiseDb: 0, minDbfs: -100 };

  for (const db of [-40, -30, -20]) {
    it(`never starts on white noise at ${db} dBFS (10 s from the answer)`, () => {
      expect(hear(fvad, new Line(10_000, whiteNoise(10_000, db)))).to.deep.equal([]);
    });
  }

  it('owes that to its floors: libfvad alone calls white noise at -20 dBFS speech', () => {
    expect(hear(fvad, new Line(10_000, whiteNoise(10_000, -20)), fvadAlone)).to.deep.equal([{ type: 'started', atMs: 0 }]);
  });

  it('never starts on a steady tone (440 Hz at -20 dBFS, 1 kHz at -10 dBFS), which libfvad alone calls speech', () => {
    expect(hear(fvad, new Line(5000, tone(5000, 440, -20)))).to.deep.equal([]);
    expect(hear(fvad, new Line(5000, tone(5000, 1000, -10)))).to.deep.equal([]);
    expect(hear(fvad, new Line(5000, tone(5000, 440, -20)), fvadAlone)).to.deep.equal([{ type: 'started', atMs: 0 }]);
  });

  it('never starts on a 50 ms click, and still hears the speech 300 ms after it from the speech', async () => {
    const clickOnly = new Line(3000, whiteNoise(3000, -55));
    clickOnly.add(1000, click(50));
    expect(hear(fvad, clickOnly)).to.deep.equal([]);
    const u = await speak('Hello?');
    const line = new Line(4000, whiteNoise(4000, -55));
    line.add(1000, click(50));
    const at = line.say(1350, u);
    const events = hear(fvad, line);
    expect(events.map((e) => e.type)).to.deep.equal(['started', 'stopped']);
    expect(Math.abs(events[0]!.atMs - at.startMs)).to.be.at.most(TOLERANCE_MS);
  });

  it('hears a loud noise that starts mid-call as speech only until its floor is learnt (noiseWindowMs)', () => {
    const line = new Line(9000, null);
    line.add(2000, whiteNoise(7000, -20, 'late'));
    const events = hear(fvad, line);
    expect(events.map((e) => e.type)).to.deep.equal(['started', 'stopped']);
    expect(events[0]!.atMs).to.equal(2000);
    expect(events[1]!.atMs).to.be.within(2000, 2000 + 1500);
  });

  it('hears speech over a noise that started mid-call, once the noise is learnt', async () => {
    const u = await speak('Yes, we are open on Sunday.');
    const line = new Line(9000, null);
    line.add(2000, whiteNoise(7000, -35, 'late'));
    const at = line.say(5000, u);
    const events = hear(fvad, line);
    expect(events[0]!.type).to.equal('started');
    expect(Math.abs(events[0]!.atMs - at.startMs)).to.be.at.most(TOLERANCE_MS);
    expect(events.at(-1)!.type).to.equal('stopped');
    expect(events.at(-1)!.atMs).to.be.within(at.startMs, at.endMs + TOLERANCE_MS);
  });

  it('gives the same events for any size of push, and keeps call time at 8 bytes a ms', async () => {
    const u = await speak('Could you say that again, please?', VOICES[2]);
    const line = new Line(4000, whiteNoise(4000, -50));
    line.say(600, u);
    const audio = line.muLaw();
    const byFrames = hear(fvad, line);
    expect(byFrames.length).to.be.greaterThan(0);
    for (const size of [1, 37, 159, 161, 1000, audio.length]) {
      const va = new VoiceActivity(fvad);
      const events: ActivityEvent[] = [];
      for (let i = 0; i < audio.length; i += size) events.push(...va.push(audio.subarray(i, i + size)));
      expect(events, `pushes of ${size} bytes`).to.deep.equal(byFrames);
      expect(va.nowMs).to.equal(audio.length / 8);
      va.close();
    }
  });

  it('says whether the callee is speaking, and where the speech has reached, as the frames come', async () => {
    const u = await speak('No.');
    const line = new Line(2500, null);
    const at = line.say(500, u);
    const va = new VoiceActivity(fvad);
    const seen: string[] = [];
    for (const f of line.frames()) {
      for (const e of va.push(f)) seen.push(`${e.type} at ${va.nowMs}`);
      if (va.speaking) expect(va.speechEndMs).to.be.within(at.startMs, va.nowMs);
      else expect(va.speechEndMs).to.equal(null);
    }
    va.close();
    expect(seen).to.have.length(2);
    // Started once startMs (120 ms) of speech was heard; stopped once stopMs (240 ms) of silence followed its last speech frame.
    const [started, stopped] = seen.map((s) => Number(s.split(' at ')[1]));
    const { startMs, stopMs } = DEFAULT_VOICE_ACTIVITY;
    expect([startMs, stopMs]).to.deep.equal([120, 240]);
    expect(started! - at.startMs).to.be.within(startMs - TOLERANCE_MS / 2, startMs + TOLERANCE_MS / 2);
    expect(stopped! - at.endMs).to.be.within(stopMs - TOLERANCE_MS, stopMs + TOLERANCE_MS);
  });

  it('starts and stops as its options say: a longer startMs ignores a short word, a longer stopMs bridges a pause', async () => {
    const no = await speak('No.');
    const short = new Line(2500, null);
    short.say(500, no);
    expect(hear(fvad, short).length).to.equal(2);
    expect(hear(fvad, short, { startMs: 600, startWindowMs: 700 })).to.deep.equal([]);
    const yes = await speak('Yes.');
    const paused = new Line(4000, null);
    const first = paused.say(500, yes);
    paused.say(first.endsAt + 400, no);
    expect(hear(fvad, paused).map((e) => e.type)).to.deep.equal(['started', 'stopped', 'started', 'stopped']);
    expect(hear(fvad, paused, { stopMs: 800 }).map((e) => e.type)).to.deep.equal(['started', 'stopped']);
  });

  it('takes a frame below minDbfs for silence, so a raised floor keeps a quiet talker out', async () => {
    const u = await speak('Hello?');
    const quiet = new Line(2500, null);
    quiet.add(
      500,
      Int16Array.from(u.samples, (s) => Math.round(s / 10)),
    ); // 20 dB down: about -40 dBFS
    expect(hear(fvad, quiet).map((e) => e.type)).to.deep.equal(['started', 'stopped']);
    expect(hear(fvad, quiet, { minDbfs: -30 })).to.deep.equal([]);
  });

  it('measures a frame in dBFS, digital silence at -100', () => {
    expect(frameDbfs(new Int16Array(160))).to.equal(-100);
    expect(frameDbfs(new Int16Array(160).fill(32767))).to.be.closeTo(0, 0.01);
    expect(frameDbfs(new Int16Array(160).fill(3277))).to.be.closeTo(-20, 0.01);
  });

  it('refuses options it cannot honour, and a push once closed', () => {
    expect(() => new VoiceActivity(fvad, { startMs: 400, startWindowMs: 300 })).to.throw(VoiceActivityError, 'startMs');
    expect(() => new VoiceActivity(fvad, { stopMs: 0 })).to.throw(VoiceActivityError, 'stopMs');
    expect(() => new VoiceActivity(fvad, { mode: 4 as 3 })).to.throw(VoiceActivityError, 'mode 4');
    const va = new VoiceActivity(fvad);
    va.close();
    expect(() => va.push(Buffer.alloc(160, 0xff))).to.throw(VoiceActivityError, 'closed');
  });
});
