// A WebSocket client playing Twilio's side of a bidirectional Media Stream: connected, start (with the stream's
// custom parameters), media frames of 8 kHz mu-law (20 ms, 160 bytes each, with Twilio's timestamps), stop; it
// collects what the bridge sends back (media, mark, clear) and, like Twilio, echoes each mark once "played".
import { EventEmitter } from 'node:events';
import { untilChange } from './until-change.js';
import { WebSocket, type RawData } from 'ws';

export const FRAME_BYTES = 160;

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

type Sent = Record<string, unknown> & { event: string };

export class FakeMediaPeer extends EventEmitter {
  readonly received: Sent[] = [];
  /** Agent audio bytes received in media messages, decoded. */
  mediaBytes = 0;
  echoMarks = true;
  closedWith: { code: number; reason: string } | null = null;
  private seq = 0;
  private chunk = 0;
  private timestampMs = 0;
  streamSid = '';

  private constructor(private readonly ws: WebSocket) {
    super();
    ws.on('message', (data: RawData) => {
      const msg = JSON.parse(data.toString()) as Sent;
      this.received.push(msg);
      if (msg.event === 'media') this.mediaBytes += Buffer.from(String((msg.media as { payload: string }).payload), 'base64').length;
      if (msg.event === 'mark' && this.echoMarks) this.send({ event: 'mark', streamSid: this.streamSid, mark: msg.mark });
      this.emit('change');
    });
    ws.on('close', (code: number, reason: Buffer) => {
      this.closedWith = { code, reason: reason.toString() };
      this.emit('change');
    });
  }

  /** Opens the stream; rejects with `HTTP <status>` when the upgrade is refused. */
  static connect(url: string): Promise<FakeMediaPeer> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once('open', () => resolve(new FakeMediaPeer(ws)));
      ws.once('unexpected-response', (req, res) => {
        req.destroy();
        reject(new Error(`HTTP ${res.statusCode}`));
      });
      ws.once('error', reject);
    });
  }

  send(msg: Record<string, unknown>): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ ...msg, sequenceNumber: String(++this.seq) }));
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
      this.send({ event: 'media', streamSid: this.streamSid, media: { track: 'inbound', chunk: String(++this.chunk), timestamp: String(this.timestampMs), payload: frame.toString('base64') } });
      this.timestampMs += frame.length / 8;
    }
  }

  stop(): void {
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
