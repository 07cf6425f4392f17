// A DTMF receiver: finds the keys in 8 kHz audio (G.711 mu-law or 16-bit linear) and when each sounded. The
// sandbox's menus hear the agent's keys with it, and the tests check the tone synthesiser (dtmf-tones.ts) with it, so
// it is written apart from that synthesiser and shares none of its code. The audio is cut into 5 ms blocks; a run of blocks louder than the line's silence is one sound, each block
// of it judged by the Goertzel algorithm over the 20 ms around it, and each stretch of blocks judged alike is judged
// again whole: a key when its strongest row and column frequencies are each at least 10 dB above the other rows and
// columns, the two are within 8 dB of each other (the "twist" a receiver allows), and together they hold nearly all
// of its energy. Times are on block edges, so a tone that starts and ends on them (as a 100 ms key on a 20 ms frame
// does) is timed to the millisecond, whether silence or speech comes before it.

const RATE = 8000;
const BLOCK = 40; // 5 ms
const BLOCK_MS = (BLOCK * 1000) / RATE;
/** Louder than this (RMS, 16-bit) is sound: about -40 dBFS, far above the line's digital silence. */
const SOUND_RMS = 330;
/** A receiver needs 40 ms of tone to call it a key. */
const MIN_TONE_MS = 40;
const ROWS = [697, 770, 852, 941];
const COLUMNS = [1209, 1336, 1477, 1633];
const KEYPAD = ['123A', '456B', '789C', '*0#D'];

export interface HeardKey {
  /** The key, or `?` for a sound that is no key. */
  key: string;
  startMs: number;
  endMs: number;
}

/** G.711 mu-law to linear, by the standard's formula. */
function linear(code: number): number {
  const u = ~code & 0xff;
  const t = (((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4);
  return u & 0x80 ? 0x84 - t : t - 0x84;
}

/** Goertzel: the power of one frequency over the samples. */
function goertzel(samples: ArrayLike<number>, from: number, to: number, hz: number): number {
  const k = 2 * Math.cos((2 * Math.PI * hz) / RATE);
  let s1 = 0;
  let s2 = 0;
  for (let i = from; i < to; i++) {
    const s0 = samples[i]! + k * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return s1 * s1 + s2 * s2 - k * s1 * s2;
}

/**
 * The key the samples are, or `?`: the strongest row and column each 10 dB above the other rows and columns, within
 * 8 dB of each other, and holding more than `minShare` of the energy between them.
 */
function judge(samples: ArrayLike<number>, from: number, to: number, minShare: number): string {
  const n = to - from;
  let energy = 0;
  for (let i = from; i < to; i++) energy += samples[i]! * samples[i]!;
  if (energy === 0) return '?';
  const rows = ROWS.map((hz) => goertzel(samples, from, to, hz));
  const cols = COLUMNS.map((hz) => goertzel(samples, from, to, hz));
  const best = (p: number[]) => p.indexOf(Math.max(...p));
  const r = best(rows);
  const c = best(cols);
  const clear = (p: number[], i: number) => p.every((v, j) => j === i || v * 10 <= p[i]!);
  const twist = rows[r]! / cols[c]!;
  // A sine of power P over n samples carries 2P/n of the samples' energy.
  const share = ((2 / n) * (rows[r]! + cols[c]!)) / energy;
  return clear(rows, r) && clear(cols, c) && twist < 6.31 && twist > 1 / 6.31 && share > minShare ? KEYPAD[r]![c]! : '?';
}

/**
 * The keys heard in the audio, in order, each with when it started and ended (ms from the audio's start), and `?`
 * for each other sound. A sound is a run of loud blocks; within it each block takes the verdict of the 20 ms around
 * it (the key that holds most of that window's energy), so a key that follows speech with no silence between is
 * told apart from it at the block where it begins; each stretch of one verdict is then judged whole, strictly.
 */
export function decodeDtmf(audio: Buffer | Int16Array): HeardKey[] {
  const samples: ArrayLike<number> = audio instanceof Int16Array ? audio : Int16Array.from(audio, linear);
  const blocks = Math.floor(samples.length / BLOCK);
  const loud: boolean[] = [];
  for (let b = 0; b < blocks; b++) {
    let sum = 0;
    for (let i = b * BLOCK; i < (b + 1) * BLOCK; i++) sum += samples[i]! * samples[i]!;
    loud.push(Math.sqrt(sum / BLOCK) > SOUND_RMS);
  }
  const heard: HeardKey[] = [];
  for (let b = 0; b < blocks; ) {
    if (!loud[b]) {
      b++;
      continue;
    }
    let end = b;
    while (end < blocks && loud[end]) end++;
    // Each block's verdict, from the 20 ms centred on it, kept inside the sound.
    const verdicts: string[] = [];
    for (let j = b; j < end; j++) {
      const centre = j * BLOCK + BLOCK / 2;
      verdicts.push(judge(samples, Math.max(b * BLOCK, centre - 80), Math.min(end * BLOCK, centre + 80), 0.5));
    }
    for (let i = 0; i < verdicts.length; ) {
      let k = i;
      while (k < verdicts.length && verdicts[k] === verdicts[i]) k++;
      const from = b + i;
      const to = b + k;
      if ((to - from) * BLOCK_MS >= MIN_TONE_MS) {
        const key = verdicts[i] === '?' ? '?' : judge(samples, from * BLOCK, to * BLOCK, 0.8);
        const last = heard.at(-1);
        // A stretch too short to count leaves the ones around it apart; two unknown sounds in a row are one.
        if (key === '?' && last?.key === '?' && last.endMs === from * BLOCK_MS) last.endMs = to * BLOCK_MS;
        else heard.push({ key, startMs: from * BLOCK_MS, endMs: to * BLOCK_MS });
      }
      i = k;
    }
    b = end;
  }
  return heard;
}
