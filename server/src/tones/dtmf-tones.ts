// Key presses as sound (in-band DTMF, ITU-T Q.23): each key is the sum of one row and one column frequency, played
// for 100 ms and followed by 100 ms of silence, well above the 40 ms a receiver needs to hear a key and the 40 ms
// of silence it needs between two. `w` is a 0.5 s pause and `W` a 1 s one, as in Twilio's SendDigits, for a menu
// that needs time between keys. Encoded as 8 kHz mu-law (G.711), for a carrier whose media stream can carry audio
// but not key presses.

export const SAMPLE_RATE = 8000;
export const TONE_MS = 100;
export const GAP_MS = 100;
/** The pauses: `w` half a second, `W` a second. */
export const PAUSE_MS: Readonly<Record<string, number>> = { w: 500, W: 1000 };

const ROWS = [697, 770, 852, 941];
const COLUMNS = [1209, 1336, 1477, 1633];
const KEYPAD = ['123A', '456B', '789C', '*0#D'];
/** Each frequency at a third of full scale: the pair peaks below clipping. */
const AMPLITUDE = 0.33 * 32767;

/** The row and column frequencies of a key, or null for a character that is no key. */
export function dtmfFrequencies(key: string): [number, number] | null {
  const k = key.toUpperCase();
  for (let r = 0; r < KEYPAD.length; r++) {
    const c = KEYPAD[r]!.indexOf(k);
    if (k.length === 1 && c >= 0) return [ROWS[r]!, COLUMNS[c]!];
  }
  return null;
}

/** How long the keys take to play, pauses included. */
export function dtmfDurationMs(digits: string): number {
  let ms = 0;
  for (const key of digits) ms += PAUSE_MS[key] ?? TONE_MS + GAP_MS;
  return ms;
}

/** The keys as mu-law audio, tone then gap for each key, silence for each pause; throws RangeError on a character that is neither. */
export function dtmfTones(digits: string): Buffer {
  const toneSamples = (TONE_MS * SAMPLE_RATE) / 1000;
  const out = Buffer.alloc((dtmfDurationMs(digits) * SAMPLE_RATE) / 1000, muLaw(0));
  let at = 0;
  for (const key of digits) {
    const pause = PAUSE_MS[key];
    if (pause !== undefined) {
      at += (pause * SAMPLE_RATE) / 1000;
      continue;
    }
    const f = dtmfFrequencies(key);
    if (!f) throw new RangeError(`not a DTMF key: ${JSON.stringify(key)}`);
    for (let n = 0; n < toneSamples; n++) {
      const t = n / SAMPLE_RATE;
      out[at + n] = muLaw(Math.round(AMPLITUDE * (Math.sin(2 * Math.PI * f[0] * t) + Math.sin(2 * Math.PI * f[1] * t))));
    }
    at += ((TONE_MS + GAP_MS) * SAMPLE_RATE) / 1000;
  }
  return out;
}

const BIAS = 0x84;
const CLIP = 32635;

/** One 16-bit linear sample as G.711 mu-law. */
export function muLaw(sample: number): number {
  const sign = sample < 0 ? 0x80 : 0;
  const magnitude = Math.min(Math.abs(sample), CLIP) + BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (magnitude & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (magnitude >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}
