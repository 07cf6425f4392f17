// Hold music for the sandbox's queue: a synthesised tune of pure tones, each note held into the next at one level
// (no gap, no attack), so a line's voice activity detection, which takes a steady level for no speech, hears it as
// the background it is. The sandbox's live line plays it as 8 kHz mu-law; a text-sandbox recording lays its notes
// as tones.
import { muLaw } from './dtmf-tones.js';

/** The tune: an arpeggio up and down, one note every NOTE_MS, then again. */
const NOTES_HZ = [523.25, 659.25, 783.99, 659.25, 587.33, 698.46, 880.0, 698.46];
export const NOTE_MS = 400;
const RATE = 8000;
/** About -16 dBFS: below speech's peaks, well above the line's silence. */
const AMPLITUDE = 5000;

export interface Note {
  startMs: number;
  endMs: number;
  hz: number;
}

/** The tune's notes from call time `startMs` to `endMs`, the first note at `startMs`. */
export function holdMusicNotes(startMs: number, endMs: number): Note[] {
  const notes: Note[] = [];
  for (let i = 0, at = startMs; at < endMs; i++, at += NOTE_MS) notes.push({ startMs: at, endMs: Math.min(endMs, at + NOTE_MS), hz: NOTES_HZ[i % NOTES_HZ.length]! });
  return notes;
}

/** One pass of the tune as mu-law, its phase carried from note to note (no click between them). */
const LOOP: Buffer = (() => {
  const perNote = (NOTE_MS * RATE) / 1000;
  const out = Buffer.alloc(perNote * NOTES_HZ.length);
  let phase = 0;
  for (let n = 0; n < NOTES_HZ.length; n++) {
    const step = (2 * Math.PI * NOTES_HZ[n]!) / RATE;
    for (let i = 0; i < perNote; i++) {
      out[n * perNote + i] = muLaw(Math.round(AMPLITUDE * Math.sin(phase)));
      phase += step;
    }
  }
  return out;
})();

/** `bytes` of the tune (8 kHz mu-law) starting `offset` bytes into it, looping. */
export function holdMusic(offset: number, bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) out[i] = LOOP[(offset + i) % LOOP.length]!;
  return out;
}
