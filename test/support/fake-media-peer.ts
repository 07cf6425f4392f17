// A WebSocket client playing Twilio's side of a bidirectional Media Stream: connected, start (with the stream's
// custom parameters), media frames of 8 kHz mu-law (20 ms, 160 bytes each, with Twilio's timestamps), dtmf, stop;
// it collects what the bridge sends back (media, mark, clear) and, like Twilio, echoes each mark once "played".
//
// Written from Twilio's Media Streams WebSocket messages reference
// (https://www.twilio.com/docs/voice/media-streams/websocket-messages):
// - A mark comes back once the audio sent before it has played. With `playback: 'real-time'` the peer plays the
//   audio it is sent at the line's rate (8 kHz mu-law: 8 bytes a millisecond, queued behind what is still
//   playing) and echoes each mark when the audio before it has finished, plus up to `jitterMs` of network delay
//   (seeded, so a run repeats; marks still come back in order). `playback: 'instant'` (the default) echoes each
//   mark on arrival, for tests that are not about timing.
// - `clear` empties the audio buffer: what has not played is dropped, and the marks still pending come back at
//   once, in order.
// - `dtmf` messages carry the key the callee pressed: { event: 'dtmf', streamSid, sequenceNumber,
//   dtmf: { track: 'inbound_track', digit } }.
// - The callee's side streams without pause: Twilio sends an inbound frame every 20 ms from the start, silent or not.
//   `speak` sends audio at once (for tests that are not about timing); `live` paces the line as Twilio does, what
//   `say` queues and mu-law silence between, until the stream stops or closes.
import { EventEmitter } from 'node:events';
import { untilChange } from './until-change.js';
import { WebSocket, type RawData } from 'ws';

export const FRAME_BYTES = 160;
/** Mu-law's code for a zero sample: a silent line. */
export const MU_LAW_SILENCE = 0xff;

/** G.711 mu-law of one 16-bit linear sample. */
export function linearToMuLaw(sample: number): number {
  const BIAS = 0x84;
  const CLIP = 32635;
  let s = Math.max(-32768, Math.min(32767, Math.round(sample)));
  const sign = s < 0 ? 0x80 : 0;
  if (sign) s = -s;
  s = Math.min(s, CLIP) + BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; exponent--, mask >>= 1);
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** `bytes` samples (1 byte each at 8 kHz) of a sine tone, mu-law encoded; frequency 0 is silence. */
export function muLawTone(bytes: number, hz: number, amplitude = 8000): Buffer {
  const out = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) out[i] = linearToMuLaw(amplitude * Math.sin((2 * Math.PI * hz * i) / 8000));
  return out;
}

/** G.711 A-law of one 16-bit linear sample. */
export function linearToALaw(sample: number): number {
  let s = Math.max(-32768, Math.min(32767, Math.round(sample))) >> 3;
  let mask = 0xd5;
  if (s < 0) {
    mask = 0x55;
    s = -s - 1;
  }
  let segment = 0;
  while (segment < 8 && s >= 0x20 << segment) segment++;
  if (segment >= 8) return 0x7f ^ mask;
  const mantissa = segment < 2 ? (s >> 1) & 0x0f : (s >> segment) & 0x0f;
  return ((segment << 4) | mantissa) ^ mask;
}

/** The time the peer's playback runs on: the real one, or a test's. */
export interface PlaybackClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: PlaybackClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** A clock a test moves by hand: timers fire, in order, as `advance` passes them. */
export class ManualClock implements PlaybackClock {
  private at = 0;
  private nextId = 0;
  private timers: Array<{ id: number; due: number; run: () => void }> = [];
  now(): number {
    return this.at;
  }
  setTimeout(run: () => void, ms: number): number {
    const id = ++this.nextId;
    this.timers.push({ id, due: this.at + Math.max(0, ms), run });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }
  advance(ms: number): void {
    const end = this.at + ms;
    for (;;) {
      const next = this.timers.filter((t) => t.due <= end).sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.at = next.due;
      next.run();
    }
    this.at = end;
  }
}

/** A small seeded generator (mulberry32): the same seed gives the same jitter. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface MediaPeerOptions {
  /** 'instant' (the default) echoes marks on arrival; 'real-time' echoes each once the audio before it has played. */
  playback?: 'instant' | 'real-time';
  /** Up to this much delay added to each mark's echo in real-time playback (0 unless given). */
  jitterMs?: number;
  /** The jitter's seed. */
  seed?: number;
  clock?: PlaybackClock;
}

/** Bytes of 8 kHz mu-law a millisecond. */
export const BYTES_PER_MS = 8;

type Sent = Record<string, unknown> & { event: string };

export class FakeMediaPeer extends EventEmitter {
  readonly received: Sent[] = [];
  /** Agent audio bytes received in media messages, decoded. */
  mediaBytes = 0;
  echoMarks = true;
  closedWith: { code: number; reason: string } | null = null;
  /** The marks echoed back, in order, with the playback clock's time of each echo. */
  readonly echoed: Array<{ name: string; at: number }> = [];
  /** Agent audio dropped unplayed by a clear. */
  clearedBytes = 0;
  private seq = 0;
  private chunk = 0;
  /** The paced line's audio still to send, and its timer (live). */
  private toSay: Buffer[] = [];
  private pacing = false;
  private pacer: unknown = null;
  private timestampMs = 0;
  streamSid = '';
  private readonly clock: PlaybackClock;
  private readonly jitter: () => number;
  /** When the audio queued so far will have played (clock time). */
  private playsUntil = 0;
  /** Marks waiting for their audio to play, in order. */
  private pending: Array<{ mark: unknown; due: number; timer: unknown }> = [];

  private constructor(
    private readonly ws: WebSocket,
    private readonly options: MediaPeerOptions,
  ) {
    super();
    this.clock = options.clock ?? realClock;
    const random = seeded(options.seed ?? 1);
    this.jitter = () => random() * (options.jitterMs ?? 0);
    ws.on('message', (data: RawData) => {
      const msg = JSON.parse(data.toString()) as Sent;
      this.received.push(msg);
      if (msg.event === 'media') this.play(Buffer.byteLength(String((msg.media as { payload: string }).payload), 'base64'));
      if (msg.event === 'mark' && this.echoMarks) this.markAfterAudio(msg.mark);
      if (msg.event === 'clear') this.clear();
      this.emit('change');
    });
    ws.on('close', (code: number, reason: Buffer) => {
      this.quiet();
      for (const p of this.pending.splice(0)) this.clock.clearTimeout(p.timer);
      this.closedWith = { code, reason: reason.toString() };
      this.emit('change');
    });
  }

  /** Agent audio bytes played so far (all received, in instant playback). */
  playedBytes(): number {
    return this.mediaBytes - this.clearedBytes - this.unplayedBytes();
  }

  private unplayedBytes(): number {
    if (this.options.playback !== 'real-time') return 0;
    return Math.max(0, Math.round((this.playsUntil - this.clock.now()) * BYTES_PER_MS));
  }

  private play(bytes: number): void {
    this.mediaBytes += bytes;
    this.playsUntil = Math.max(this.playsUntil, this.clock.now()) + bytes / BYTES_PER_MS;
  }

  private markAfterAudio(mark: unknown): void {
    if (this.options.playback !== 'real-time') return this.echo(mark);
    const last = this.pending.at(-1)?.due ?? 0;
    const due = Math.max(last, Math.max(this.playsUntil, this.clock.now()) + this.jitter());
    const entry = { mark, due, timer: null as unknown };
    // A timer may fire before one set a moment earlier for the same time (a real clock's timers are whole
    // milliseconds): the marks before this one are due too, and go back first, as Twilio's come back in order.
    entry.timer = this.clock.setTimeout(() => {
      const through = this.pending.indexOf(entry);
      for (const p of this.pending.splice(0, through + 1)) {
        this.clock.clearTimeout(p.timer);
        this.echo(p.mark);
      }
      this.emit('change');
    }, due - this.clock.now());
    this.pending.push(entry);
  }

  private clear(): void {
    this.clearedBytes += this.unplayedBytes();
    this.playsUntil = this.clock.now();
    for (const p of this.pending.splice(0)) {
      this.clock.clearTimeout(p.timer);
      this.echo(p.mark);
    }
  }

  private echo(mark: unknown): void {
    this.echoed.push({ name: String((mark as { name?: unknown } | null)?.name), at: this.clock.now() });
    this.send({ event: 'mark', streamSid: this.streamSid, mark });
  }

  /** Opens the stream; rejects with `HTTP <status>` when the upgrade is refused. */
  static connect(url: string, options: MediaPeerOptions = {}): Promise<FakeMediaPeer> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once('open', () => resolve(new FakeMediaPeer(ws, options)));
      ws.once('unexpected-response', (req, res) => {
        req.destroy();
        reject(new Error(`HTTP ${res.statusCode}`));
      });
      ws.once('error', reject);
    });
  }

  send(msg: Record<string, unknown>): void {
    // Keyed as Twilio writes its messages: event, sequenceNumber, then the message's own fields.
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ event: msg.event, sequenceNumber: String(++this.seq), ...msg }));
  }

  /** `connected`, then `start` for the call, as Twilio sends them when the <Stream> connects. */
  start(opts: { callSid: string; token?: string; streamSid?: string; extra?: Record<string, string> }): void {
    this.streamSid = opts.streamSid ?? 'MZ00000000000000000000000000000001';
    this.ws.send(JSON.stringify({ event: 'connected', protocol: 'Call', version: '1.0.0' }));
    const customParameters = { ...(opts.token === undefined ? {} : { token: opts.token }), ...opts.extra };
    this.send({
      event: 'start',
      streamSid: this.streamSid,
      start: {
        accountSid: 'AC00000000000000000000000000000001',
        streamSid: this.streamSid,
        callSid: opts.callSid,
        tracks: ['inbound'],
        mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
        customParameters,
      },
    });
  }

  /** Sends the audio as 20 ms frames, timestamped from the stream's start. */
  speak(audio: Buffer): void {
    for (let at = 0; at < audio.length; at += FRAME_BYTES) {
      const frame = audio.subarray(at, at + FRAME_BYTES);
      this.send({ event: 'media', media: { track: 'inbound', chunk: String(++this.chunk), timestamp: String(this.timestampMs), payload: frame.toString('base64') }, streamSid: this.streamSid });
      this.timestampMs += frame.length / 8;
    }
  }

  /**
   * Streams the callee's side in real time, as Twilio does: a 20 ms frame every 20 ms of the playback clock (a
   * frame late on a busy machine is sent with the next one), from what `say` queued, or silence, until `stop` or
   * close.
   */
  live(): void {
    if (this.pacing) return;
    this.pacing = true;
    const began = this.clock.now();
    let sent = 0;
    const tick = () => {
      if (!this.pacing) return;
      const due = Math.floor((this.clock.now() - began) / 20);
      for (; sent < due; sent++) this.speak(this.nextFrame());
      this.pacer = this.clock.setTimeout(tick, began + (sent + 1) * 20 - this.clock.now());
    };
    this.pacer = this.clock.setTimeout(tick, 20);
  }

  /** Queues audio on the live line: it is sent at the line's pace, after what was queued before it. */
  say(audio: Buffer): void {
    this.toSay.push(audio);
  }

  private nextFrame(): Buffer {
    const frame = Buffer.alloc(FRAME_BYTES, MU_LAW_SILENCE);
    let at = 0;
    while (at < FRAME_BYTES && this.toSay.length > 0) {
      const head = this.toSay[0]!;
      const n = head.copy(frame, at, 0, Math.min(head.length, FRAME_BYTES - at));
      at += n;
      if (n === head.length) this.toSay.shift();
      else this.toSay[0] = head.subarray(n);
    }
    return frame;
  }

  private quiet(): void {
    this.pacing = false;
    if (this.pacer !== null) this.clock.clearTimeout(this.pacer);
    this.pacer = null;
  }

  /** The callee pressed a key, as Twilio reports it. */
  dtmf(digit: string): void {
    this.send({ event: 'dtmf', streamSid: this.streamSid, dtmf: { track: 'inbound_track', digit } });
  }

  stop(): void {
    this.quiet();
    this.send({ event: 'stop', streamSid: this.streamSid, stop: { accountSid: 'AC00000000000000000000000000000001', callSid: 'CA' } });
  }

  raw(data: string): void {
    this.ws.send(data);
  }

  events(name: string): Sent[] {
    return this.received.filter((m) => m.event === name);
  }

  until(test: () => boolean): Promise<void> {
    return untilChange(this, test);
  }

  close(): void {
    this.ws.close();
  }
}
