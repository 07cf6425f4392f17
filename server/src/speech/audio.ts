// Audio as the cascaded agent handles it: a phone line's 8 kHz G.711 mu-law, and 16-bit linear PCM at whatever rate
// a vendor speaks (OpenAI's speech is 24 kHz, espeak-ng's 22.05 kHz, a VAD wants 8 or 16 kHz). Encoding is a table
// lookup both ways, so a 20 ms frame costs microseconds.
import { muLaw } from '../tones/dtmf-tones.js';

export const LINE_RATE = 8000;
/** Bytes of mu-law per ms of line audio. */
export const LINE_BYTES_PER_MS = 8;

/** Each mu-law byte's 16-bit linear sample (G.711). */
const DECODE = new Int16Array(256);
for (let i = 0; i < 256; i++) {
  const u = ~i & 0xff;
  const sign = u & 0x80;
  const exponent = (u >> 4) & 0x07;
  const mantissa = u & 0x0f;
  const magnitude = (((mantissa << 3) + 0x84) << exponent) - 0x84;
  DECODE[i] = sign ? -magnitude : magnitude;
}

/** Each 16-bit linear sample's mu-law byte, indexed by the sample as an unsigned 16-bit number. */
const ENCODE = new Uint8Array(65536);
for (let i = 0; i < 65536; i++) ENCODE[i] = muLaw(i < 32768 ? i : i - 65536);

/** Whether this machine stores a 16-bit number low byte first, as WAV and the vendors' PCM do. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** mu-law bytes to 16-bit linear samples. */
export function decodeMuLaw(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = DECODE[bytes[i]!]!;
  return out;
}

/** 16-bit linear samples to mu-law bytes. */
export function encodeMuLaw(samples: Int16Array): Buffer {
  const out = Buffer.alloc(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = ENCODE[samples[i]! & 0xffff]!;
  return out;
}

/**
 * 16-bit samples from one rate to another by linear interpolation (speech on a phone line has little above
 * 3.4 kHz, so no filter is worth its cost when going down to 8 kHz from a speech vendor's 16-24 kHz).
 */
export function resample(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to) return samples;
  const n = Math.floor((samples.length * to) / from);
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    const at = (i * from) / to;
    const j = Math.floor(at);
    const a = samples[j] ?? 0;
    const b = samples[j + 1] ?? a;
    out[i] = Math.round(a + (b - a) * (at - j));
  }
  return out;
}

/** Little-endian 16-bit PCM bytes to samples; an odd trailing byte is left for the next chunk (`rest`). */
export function pcm16(bytes: Buffer): { samples: Int16Array; rest: Buffer } {
  const whole = bytes.length - (bytes.length % 2);
  const samples = new Int16Array(whole / 2);
  if (LITTLE_ENDIAN) new Uint8Array(samples.buffer).set(bytes.subarray(0, whole));
  else for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
  return { samples, rest: bytes.subarray(whole) };
}

/**
 * `resample` for audio that arrives in pieces: each push returns the output samples the input so far determines,
 * and the pieces joined are exactly what `resample` gives for the whole (the interpolation's fractional position
 * and the input samples it still needs are carried between pushes, so a chunk boundary makes no click). `flush`
 * returns the last samples once the input has ended.
 */
export class StreamResampler {
  /** Input samples pushed so far. */
  #in = 0;
  /** Output samples returned so far. */
  #out = 0;
  /** The input samples from index #tailStart on, which the next outputs may still need. */
  #tail = new Int16Array(0);
  #tailStart = 0;

  constructor(
    readonly from: number,
    readonly to: number,
  ) {}

  push(samples: Int16Array): Int16Array {
    const start = this.#in;
    this.#in += samples.length;
    // Never more outputs than `resample` makes of the input so far, so the pieces add up to the whole.
    return this.#emit(samples, start, Math.floor((this.#in * this.to) / this.from), false);
  }

  /** The outputs that waited for an input sample after the last one (there is none: the last is held). */
  flush(): Int16Array {
    return this.#emit(new Int16Array(0), this.#in, Math.floor((this.#in * this.to) / this.from), true);
  }

  #emit(samples: Int16Array, start: number, limit: number, ended: boolean): Int16Array {
    const end = start + samples.length;
    const tail = this.#tail;
    const tailStart = this.#tailStart;
    const at = (k: number) => (k < start ? tail[k - tailStart] : samples[k - start]);
    const out = new Int16Array(Math.max(0, limit - this.#out));
    let n = 0;
    while (this.#out < limit) {
      const position = (this.#out * this.from) / this.to;
      const j = Math.floor(position);
      const fraction = position - j;
      if (fraction > 0 && j + 1 >= end && !ended) break;
      const a = at(j) ?? 0;
      const b = fraction > 0 ? (at(j + 1) ?? a) : a;
      out[n++] = Math.round(a + (b - a) * fraction);
      this.#out++;
    }
    // Keep the input from the next output's first sample on (a few samples at most).
    const next = Math.floor((this.#out * this.from) / this.to);
    const keep = new Int16Array(Math.max(0, end - next));
    for (let k = 0; k < keep.length; k++) keep[k] = at(next + k) ?? 0;
    this.#tail = keep;
    this.#tailStart = next;
    return out.subarray(0, n);
  }
}
