// In-band DTMF: each key's tone carries its row and column frequencies and nothing else of the keypad, for 100 ms,
// then 100 ms of silence, as 8 kHz mu-law; `w` and `W` are pauses of 0.5 s and 1 s. The test receiver
// (server/src/telephony/dtmf-decoder.ts) hears every key where it was played, and nothing in what is no key.
import { expect } from 'chai';
import { dtmfDurationMs, dtmfFrequencies, dtmfTones, muLaw, SAMPLE_RATE } from '../../server/src/tones/dtmf-tones.js';
import { decodeDtmf } from '../../server/src/telephony/dtmf-decoder.js';
import { muLawTone } from '../support/fake-media-peer.js';

const KEYPAD_HZ = [697, 770, 852, 941, 1209, 1336, 1477, 1633];

/** G.711 mu-law back to a linear sample (the standard decoder, written apart from the encoder under test). */
function linear(code: number): number {
  const u = ~code & 0xff;
  const t = (((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4);
  return u & 0x80 ? 0x84 - t : t - 0x84;
}

/** Goertzel: the power of one frequency in the samples. */
function power(samples: number[], hz: number): number {
  const k = 2 * Math.cos((2 * Math.PI * hz) / SAMPLE_RATE);
  let s1 = 0;
  let s2 = 0;
  for (const x of samples) [s1, s2] = [x + k * s1 - s2, s1];
  return s1 * s1 + s2 * s2 - k * s1 * s2;
}

describe('DTMF tones', () => {
  it('encode mu-law as G.711 does at silence and at both ends of the range', () => {
    expect([muLaw(0), muLaw(32767), muLaw(-32768), muLaw(-1)]).to.deep.equal([0xff, 0x80, 0x00, 0x7f]);
  });

  it('give each key its row and column', () => {
    expect(dtmfFrequencies('1')).to.deep.equal([697, 1209]);
    expect(dtmfFrequencies('0')).to.deep.equal([941, 1336]);
    expect(dtmfFrequencies('#')).to.deep.equal([941, 1477]);
    expect(dtmfFrequencies('d')).to.deep.equal([941, 1633]);
    expect(dtmfFrequencies('x')).to.equal(null);
  });

  it('play 100 ms of the two frequencies, the strongest of the keypad by far, then 100 ms of silence', () => {
    const audio = dtmfTones('5*');
    expect(audio.length).to.equal(2 * 1600);
    for (const [i, key] of ['5', '*'].entries()) {
      const tone = [...audio.subarray(i * 1600, i * 1600 + 800)].map(linear);
      const gap = audio.subarray(i * 1600 + 800, (i + 1) * 1600);
      const [low, high] = dtmfFrequencies(key)!;
      const others = KEYPAD_HZ.filter((hz) => hz !== low && hz !== high).map((hz) => power(tone, hz));
      for (const hz of [low, high]) expect(power(tone, hz)).to.be.above(100 * Math.max(...others));
      expect([...gap].every((b) => b === 0xff)).to.equal(true);
    }
  });

  it('refuse a character that is no key', () => {
    expect(() => dtmfTones('12x')).to.throw(RangeError, 'not a DTMF key: "x"');
  });

  it('are heard by a receiver as every key of the pad, each 100 ms long and 200 ms after the one before', () => {
    const heard = decodeDtmf(dtmfTones('123A456B789C*0#D'));
    expect(heard).to.deep.equal([...'123A456B789C*0#D'].map((key, i) => ({ key, startMs: i * 200, endMs: i * 200 + 100 })));
  });

  it('pause half a second for w and a second for W, with nothing sounding in the pause', () => {
    const audio = dtmfTones('1w2W3');
    expect(dtmfDurationMs('1w2W3')).to.equal(200 + 500 + 200 + 1000 + 200);
    expect(audio.length).to.equal(2100 * 8);
    expect(decodeDtmf(audio)).to.deep.equal([
      { key: '1', startMs: 0, endMs: 100 },
      { key: '2', startMs: 700, endMs: 800 },
      { key: '3', startMs: 1900, endMs: 2000 },
    ]);
    expect([...audio.subarray(200 * 8, 700 * 8)].every((b) => b === 0xff)).to.equal(true);
  });

  it('are told apart by a receiver from sound right before and after them, with no silence between', () => {
    const speech = muLawTone(1600, 440, 3000);
    const heard = decodeDtmf(Buffer.concat([speech, dtmfTones('5'), muLawTone(800, 300), dtmfTones('7')]));
    expect(heard).to.deep.equal([
      { key: '?', startMs: 0, endMs: 200 },
      { key: '5', startMs: 200, endMs: 300 },
      { key: '?', startMs: 400, endMs: 500 },
      { key: '7', startMs: 500, endMs: 600 },
    ]);
  });

  it('leave a receiver hearing no key in a single tone, a row frequency alone, or a key shorter than 40 ms', () => {
    const silence = muLawTone(800, 0);
    const rowAlone = muLawTone(800, 697);
    const short = dtmfTones('5').subarray(0, 30 * 8);
    const heard = decodeDtmf(Buffer.concat([muLawTone(800, 440), silence, rowAlone, silence, short, silence]));
    expect(heard).to.deep.equal([
      { key: '?', startMs: 0, endMs: 100 },
      { key: '?', startMs: 200, endMs: 300 },
    ]);
  });
});
