import { expect } from 'chai';
import type { RecognitionStream } from '../../../server/src/speech/recognizer.js';
import { BATCH_MS, RecognizerFeed } from '../../../server/src/voice-agent/cascaded/recognizer-feed.js';

/** A stream that writes down what it is sent, in order: audio as its bytes' first values, flushes and closes by name. */
function recordingStream(): { stream: RecognitionStream; log: string[] } {
  const log: string[] = [];
  const stream: RecognitionStream = {
    send: (audio) => void log.push(`audio ${[...new Set(audio)].join(',')} ${audio.length}`),
    flush: () => void log.push('flush'),
    close: async (graceMs) => void log.push(`close ${graceMs}`),
  };
  return { stream, log };
}

/** A feed on an open recording stream, with the line quiet or not. */
function openFeed(quiet: boolean): { feed: RecognizerFeed; log: string[] } {
  const { stream, log } = recordingStream();
  const feed = new RecognizerFeed();
  feed.opened(stream);
  feed.setQuiet(quiet);
  return { feed, log };
}

/** A 20 ms frame whose every byte is `n`, so what a message carries can be read back. */
const frame = (n: number) => Buffer.alloc(160, n);

describe('the recogniser feed', () => {
  it('sends each frame at once while the callee may be speaking', () => {
    const { feed, log } = openFeed(false);
    for (const n of [1, 2, 3]) feed.push(frame(n));
    expect(log).to.deep.equal(['audio 1 160', 'audio 2 160', 'audio 3 160']);
  });

  it(`sends ${BATCH_MS} ms at a time while the line is quiet`, () => {
    const { feed, log } = openFeed(true);
    for (let n = 1; n <= 12; n++) feed.push(frame(n));
    expect(BATCH_MS).to.equal(100);
    expect(log).to.deep.equal(['audio 1,2,3,4,5 800', 'audio 6,7,8,9,10 800']);
  });

  it('sends what it holds, then the new frames one by one, as soon as the quiet ends', () => {
    const { feed, log } = openFeed(true);
    feed.push(frame(1));
    feed.push(frame(2));
    expect(log).to.deep.equal([]);
    feed.setQuiet(false);
    feed.push(frame(3));
    expect(log).to.deep.equal(['audio 1,2 320', 'audio 3 160']);
  });

  it('sends what it holds 200 ms after its first frame when the line sends no more', async () => {
    const { feed, log } = openFeed(true);
    feed.push(frame(1));
    feed.push(frame(2));
    await new Promise((r) => setTimeout(r, 120));
    expect(log).to.deep.equal([]);
    // A busy machine fires the timer late, never early.
    for (let waited = 0; log.length === 0 && waited < 3000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    expect(log).to.deep.equal(['audio 1,2 320']);
    feed.push(frame(3));
    await feed.close(0);
    expect(log).to.deep.equal(['audio 1,2 320', 'audio 3 160', 'close 0']);
  });

  it('sends what it holds before a flush and before the close', async () => {
    const { feed, log } = openFeed(true);
    feed.push(frame(1));
    feed.flush();
    feed.push(frame(2));
    await feed.close(500);
    expect(log).to.deep.equal(['audio 1 160', 'flush', 'audio 2 160', 'close 500']);
    expect(feed.open).to.equal(false);
    feed.push(frame(3));
    feed.flush();
    expect(log).to.have.length(4);
  });

  it('keeps the audio heard before the stream opens, 10 s of it, and sends it in order once it does', () => {
    const { stream, log } = recordingStream();
    const feed = new RecognizerFeed();
    expect(feed.open).to.equal(false);
    for (let n = 0; n < 502; n++) feed.push(frame(n % 256));
    feed.flush();
    expect(feed.close(0)).to.equal(null);
    feed.opened(stream);
    expect(log).to.have.length(100);
    expect(log[0]).to.equal('audio 0,1,2,3,4 800');
    expect(log[99]).to.equal('audio 239,240,241,242,243 800');
  });
});
