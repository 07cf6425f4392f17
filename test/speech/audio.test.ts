// The streaming resampler: audio cut into pieces anywhere comes out exactly as the whole does, so the chunks an
// adapter encodes as they arrive join without a click.
import { expect } from 'chai';
import fc from 'fast-check';
import { resample, StreamResampler } from '../../server/src/speech/audio.js';

function streamed(samples: Int16Array, cuts: number[], from: number, to: number): Int16Array {
  const resampler = new StreamResampler(from, to);
  const parts: Int16Array[] = [];
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    parts.push(resampler.push(samples.subarray(at, Math.max(at, cut))));
    at = Math.max(at, cut);
  }
  parts.push(resampler.push(samples.subarray(at)), resampler.flush());
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let n = 0;
  for (const p of parts) out.set(p, (n += p.length) - p.length);
  return out;
}

describe('StreamResampler', () => {
  for (const [from, to] of [
    [24_000, 8000],
    [22_050, 8000],
    [16_000, 8000],
    [8000, 16_000],
  ] as const) {
    it(`cut anywhere, ${from} Hz to ${to} Hz equals resampling the whole`, () => {
      fc.assert(
        fc.property(fc.array(fc.integer({ min: -32768, max: 32767 }), { maxLength: 400 }), fc.array(fc.nat(400), { maxLength: 12 }), (values, cuts) => {
          const samples = Int16Array.from(values);
          expect(Array.from(streamed(samples, cuts, from, to))).to.deep.equal(Array.from(resample(samples, from, to)));
        }),
        { numRuns: 300 },
      );
    });
  }

  it('holds back an output that needs the next chunk, and flush gives the last ones once the input ends', () => {
    const r = new StreamResampler(8000, 16_000);
    // Output 3 sits halfway between inputs 1 and 2: it waits for input 2.
    expect(Array.from(r.push(Int16Array.from([0, 100])))).to.deep.equal([0, 50, 100]);
    expect(Array.from(r.push(Int16Array.from([300])))).to.deep.equal([200, 300]);
    // Output 5 sits after the last input: flush holds the last input.
    expect(Array.from(r.flush())).to.deep.equal([300]);
    expect(Array.from(resample(Int16Array.from([0, 100, 300]), 8000, 16_000))).to.deep.equal([0, 50, 100, 200, 300, 300]);
  });
});
