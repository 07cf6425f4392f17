// Both ends of N live calls' audio, in the benchmark's own process, for bench/media-bridge.ts:
//   - Twilio's side: a Media Streams client per call (connected, start with the stream's token, then a 20 ms
//     mu-law `media` frame every 20 ms, as Twilio sends a callee's audio; each `mark` echoed, as Twilio does once
//     it has played the audio before it);
//   - the model's side: a realtime (GA) server whose every session streams `response.output_audio.delta` frames
//     of 20 ms every 20 ms, as a model speaking without pause.
// Every frame carries its send time (performance.now(), a float64 in its first 8 bytes: the middle forwards audio
// untouched), so the receiving fake, on the same clock, times frame in to frame out. Frames are sent on a 1 ms
// tick in 20 phases, so the calls' frames are spread over each 20 ms as independent calls' are, not sent in one
// burst. The fakes read only what they need of each message (the payload's first 12 base64 characters).
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { WebSocket, WebSocketServer, type RawData } from 'ws';

const FRAME_MS = 20;
const FRAME_BYTES = 160;
const PHASES = FRAME_MS;

/** One direction of one call: where its frames go. */
interface Stream {
  send(payload: string): void;
}

/** Latencies of the frames sent inside the measuring window, and how many were sent there. */
export class Window {
  readonly latencies: number[] = [];
  sent = 0;
  constructor(
    readonly from: number,
    readonly to: number,
  ) {}
}

export class MediaFakes {
  private readonly phases: Stream[][] = Array.from({ length: PHASES }, () => []);
  private nextAt: number[];
  private timer: NodeJS.Timeout | null = null;
  private streams = 0;
  private window: Window | null = null;
  private readonly frame = Buffer.alloc(FRAME_BYTES, 0xff);
  /** Model sessions opened. */
  modelSessions = 0;
  /** Frames the fakes sent more than a frame late (the fakes' own process behind). */
  lateSends = 0;
  private readonly sockets = new Set<WebSocket>();

  private constructor(
    private readonly server: Server,
    private readonly wss: WebSocketServer,
    readonly realtimeUrl: string,
  ) {
    const t = performance.now();
    this.nextAt = Array.from({ length: PHASES }, (_, i) => t + i);
    wss.on('connection', (ws) => this.modelSession(ws));
  }

  static async start(): Promise<MediaFakes> {
    const server = createServer((_req, res) => res.writeHead(404).end());
    const wss = new WebSocketServer({ server });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const fakes = new MediaFakes(server, wss, `ws://127.0.0.1:${(server.address() as AddressInfo).port}/v1/realtime`);
    fakes.tick();
    return fakes;
  }

  /** Times the frames sent from now for `ms`. */
  measure(ms: number): Window {
    const now = performance.now();
    this.window = new Window(now, now + ms);
    return this.window;
  }

  /** Opens a call's Twilio stream at `url` and starts its audio; resolves when the socket is open. */
  async twilioStream(url: string, callSid: string, token: string): Promise<void> {
    const ws = new WebSocket(url);
    this.sockets.add(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const streamSid = `MZ${callSid.slice(2)}`;
    ws.send(JSON.stringify({ event: 'connected', protocol: 'Call', version: '1.0.0' }));
    ws.send(
      JSON.stringify({
        event: 'start',
        sequenceNumber: '1',
        streamSid,
        start: {
          accountSid: 'AC00000000000000000000000000000001',
          streamSid,
          callSid,
          tracks: ['inbound'],
          mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
          customParameters: { token },
        },
      }),
    );
    let seq = 1;
    let chunk = 0;
    ws.on('message', (data: RawData, isBinary: boolean) => {
      const text = isBinary ? '' : data.toString();
      // The agent's audio: from the bridge as Twilio media, or forwarded untouched by the bare relay.
      if (this.heard(text, '"payload":"') || this.heard(text, '"delta":"')) return;
      if (text.startsWith('{"event":"mark"')) {
        const name = (JSON.parse(text) as { mark: { name: string } }).mark.name;
        ws.send(JSON.stringify({ event: 'mark', sequenceNumber: String(++seq), streamSid, mark: { name } }));
      }
    });
    this.add({
      send: (payload) => {
        if (ws.readyState !== WebSocket.OPEN) return;
        ws.send(`{"event":"media","sequenceNumber":"${++seq}","media":{"track":"inbound","chunk":"${++chunk}","timestamp":"${chunk * FRAME_MS}","payload":"${payload}"},"streamSid":"${streamSid}"}`);
      },
    });
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    for (const ws of this.sockets) ws.terminate();
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((r) => this.wss.close(() => r()));
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  /** A model session: streams the agent's audio from the moment it opens; times the callee's audio it gets. */
  private modelSession(ws: WebSocket): void {
    this.modelSessions++;
    const item = `item_${this.modelSessions}`;
    ws.on('message', (data: RawData, isBinary: boolean) => {
      const text = isBinary ? '' : data.toString();
      // The callee's audio: from the bridge as input_audio_buffer.append, or forwarded untouched by the relay.
      if (this.heard(text, '"audio":"') || this.heard(text, '"payload":"')) return;
      // As the real server does, the session as configured comes back (svc waits for it before any audio flows).
      if (text.includes('"type":"session.update"')) {
        ws.send(
          JSON.stringify({
            type: 'session.updated',
            event_id: `event_${item}_s`,
            session: { type: 'realtime', audio: { input: { format: { type: 'audio/pcmu' } }, output: { format: { type: 'audio/pcmu' }, voice: 'alloy' } } },
          }),
        );
      }
    });
    this.add({
      send: (payload) => {
        if (ws.readyState !== WebSocket.OPEN) return;
        ws.send(`{"type":"response.output_audio.delta","event_id":"event_${item}","response_id":"resp_1","item_id":"${item}","output_index":0,"content_index":0,"delta":"${payload}"}`);
      },
    });
  }

  private add(s: Stream): void {
    this.phases[this.streams++ % PHASES].push(s);
  }

  /** Reads a frame's send time after `key` in a message; true when the message carried one. */
  private heard(text: string, key: string): boolean {
    const at = text.indexOf(key);
    if (at < 0) return false;
    const start = at + key.length;
    const sentAt = Buffer.from(text.slice(start, start + 12), 'base64').readDoubleLE(0);
    const w = this.window;
    if (w && sentAt >= w.from && sentAt < w.to) w.latencies.push(performance.now() - sentAt);
    return true;
  }

  /** Sends every phase's frames that are due; 1 ms later, again. */
  private tick(): void {
    const now = performance.now();
    for (let p = 0; p < PHASES; p++) {
      if (this.nextAt[p] > now) continue;
      if (now - this.nextAt[p] > FRAME_MS) this.lateSends += this.phases[p].length;
      this.nextAt[p] = Math.max(this.nextAt[p] + FRAME_MS, now - FRAME_MS);
      for (const s of this.phases[p]) {
        const t = performance.now();
        this.frame.writeDoubleLE(t, 0);
        s.send(this.frame.toString('base64'));
        const w = this.window;
        if (w && t >= w.from && t < w.to) w.sent++;
      }
    }
    this.timer = setTimeout(() => this.tick(), 1);
  }
}
