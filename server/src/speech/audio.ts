// Audio as the cascaded agent handles it: a phone line's 8 kHz G.711 mu-law, and 16-bit linear PCM at whatever rate
// a vendor speaks (OpenAI's speech is 24 kHz, espeak-ng's 22.05 kHz, a VAD wants 8 or 16 kHz). Encoding is a table
// lookup both ways, so a 20 ms frame costs microseconds.
import { muLaw } from '../telephony/dtmf-tones.js';

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

/** mu-law bytes to 16-bit linear samples. */
export function decodeMuLaw(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = DECODE[bytes[i]!]!;
  return out;
}

/** 16-bit linear samples to mu-law bytes. */
export function encodeMuLaw(samples: Int16Array): Buffer {
  const out = Buffer.alloc(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = muLaw(samples[i]!);
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
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
  return { samples, rest: bytes.subarray(whole) };
}
