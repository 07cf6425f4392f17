// PCM 16-bit WAV: the canonical 44-byte RIFF header written here, and a reader for espeak-ng's (mono) output.

import { endianness } from 'node:os';

const HEADER_BYTES = 44;
const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * A complete RIFF/WAVE file: `fmt ` (PCM, 16 bits, mono unless `channels` says more, its samples then interleaved)
 * and one `data` chunk, little-endian.
 */
export function encodeWav(samples: Int16Array, sampleRate: number, channels = 1): Buffer {
  const dataBytes = samples.length * 2;
  const wav = Buffer.alloc(HEADER_BYTES + dataBytes);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(channels, 22);
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * 2 * channels, 28); // byte rate
  wav.writeUInt16LE(2 * channels, 32); // block align
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(dataBytes, 40);
  if (LITTLE_ENDIAN) Buffer.from(samples.buffer, samples.byteOffset, dataBytes).copy(wav, HEADER_BYTES);
  else for (let i = 0; i < samples.length; i++) wav.writeInt16LE(samples[i]!, HEADER_BYTES + i * 2);
  return wav;
}

/** The samples of a PCM 16-bit mono WAV. Tolerates a `data` size larger than the file, as a streaming writer leaves it. */
export function decodePcm16Wav(bytes: Uint8Array): { sampleRate: number; samples: Int16Array } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('not a RIFF/WAVE file');
  let sampleRate: number | undefined;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      const format = view.getUint16(body, true);
      const channels = view.getUint16(body + 2, true);
      const bits = view.getUint16(body + 14, true);
      if (format !== 1 || channels !== 1 || bits !== 16) throw new Error(`expected PCM 16-bit mono, got format ${format}, ${channels} channels, ${bits} bits`);
      sampleRate = view.getUint32(body + 4, true);
    } else if (id === 'data') {
      if (sampleRate === undefined) throw new Error('data chunk before fmt chunk');
      const length = Math.floor(Math.min(size, bytes.length - body) / 2);
      // A copy of the bytes (a Buffer's own slice() would share them, header and all).
      if (LITTLE_ENDIAN) return { sampleRate, samples: new Int16Array(Uint8Array.prototype.slice.call(bytes, body, body + length * 2).buffer) };
      const samples = new Int16Array(length);
      for (let i = 0; i < length; i++) samples[i] = view.getInt16(body + i * 2, true);
      return { sampleRate, samples };
    }
    at = body + size + (size % 2);
  }
  throw new Error('no data chunk');
}
