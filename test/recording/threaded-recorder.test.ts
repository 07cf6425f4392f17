// The service's recorder renders in a thread of its own: the same bytes as the SpeechRecorder on the event loop,
// while the event loop stays free (its timers keep firing during a render).
import { expect } from 'chai';
import { SpeechRecorder } from '../../server/src/recording/speech-recorder.js';
import { ThreadedRecorder } from '../../server/src/recording/threaded-recorder.js';
import type { RecordingRequest } from '../../server/src/recording/recorder.js';

const REQUEST: RecordingRequest = {
  turns: [
    { speaker: 'agent', text: 'Hello, I am calling to ask whether the bakery is open on Sunday.', startMs: 0, endMs: 3500 },
    { speaker: 'callee', text: 'Yes, from eight until two.', startMs: 3800, endMs: 5600 },
  ],
  totalMs: 6000,
  language: 'en-US',
  tones: [{ startMs: 5700, endMs: 5900, hz: 1000 }],
};

describe('the threaded recorder', function () {
  this.timeout(60_000);

  it('renders exactly what the SpeechRecorder renders, off the event loop', async () => {
    const expected = await new SpeechRecorder({ cacheBytes: 0 }).render(REQUEST);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const wav = await new ThreadedRecorder().render({ ...REQUEST, turns: REQUEST.turns.map((t) => ({ ...t, text: `${t.text} Thank you.` })) });
    const again = await new ThreadedRecorder().render(REQUEST);
    clearInterval(timer);
    expect(again.equals(expected)).to.equal(true);
    expect(wav.length).to.equal(expected.length);
    // A render is tens of milliseconds of synthesis: the loop ran its timers meanwhile.
    expect(ticks).to.be.greaterThan(5);
  });

  it('fails a render with the reason and renders the next', async () => {
    const recorder = new ThreadedRecorder();
    let error: Error | null = null;
    await recorder.render({ ...REQUEST, totalMs: -1 }).catch((e: Error) => (error = e));
    expect(error!.message).to.equal('totalMs must be a non-negative number, got -1');
    expect((await recorder.render(REQUEST)).subarray(0, 4).toString()).to.equal('RIFF');
  });
});
