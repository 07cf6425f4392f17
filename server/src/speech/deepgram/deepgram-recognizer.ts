// Speech-to-text on Deepgram's live streaming API: one WebSocket per call to /v1/listen carrying the callee's
// mu-law audio as binary frames, and Deepgram's JSON results back. Written from Deepgram's documentation:
// - the stream and its query parameters: https://developers.deepgram.com/reference/speech-to-text/listen-streaming
//   (encoding, sample_rate, channels, model, language, interim_results, endpointing, utterance_end_ms, vad_events,
//   smart_format); the key in `Authorization: Token <key>`;
// - Results (is_final, speech_final, start and duration in seconds of the stream's audio,
//   channel.alternatives[0].transcript): https://developers.deepgram.com/docs/understand-endpointing-interim-results;
//   SpeechStarted (timestamp) and UtteranceEnd (last_word_end): https://developers.deepgram.com/docs/utterance-end
//   and the SDKs' message types, which also give the in-stream Error message (description, message, variant);
// - KeepAlive, Finalize and CloseStream: https://developers.deepgram.com/docs/audio-keep-alive (a stream that gets
//   neither audio nor KeepAlive for 10 s is closed, NET-0001; timestamps count audio, not wall time),
//   https://developers.deepgram.com/docs/finalize, https://developers.deepgram.com/docs/close-stream (the server
//   sends what remains, a Metadata summary, then closes);
// - failures: https://developers.deepgram.com/docs/stt-troubleshooting-websocket-data-and-net-errors (a refused
//   upgrade is an HTTP 4xx/5xx with `dg-error` and `dg-request-id` headers; a stream that fails is a close frame:
//   1011 NET-xxxx for the network and timeouts, DATA-xxxx for audio it cannot decode), and
//   https://developers.deepgram.com/reference/errors (401 INVALID_AUTH; 429 past the plan's concurrency).
//
// How it maps onto the port: an interim is Deepgram's hypothesis for the words its next final will carry (not the
// whole turn), a final is each is_final result with endOfTurn = speech_final, and an empty speech_final is passed on
// (with no words) only when it closes words already finalised. Deepgram's seconds become call time: ms of the
// call's audio, so a reopened socket's timestamps are offset by where the call stood when that socket began.
//
// Bad days: a socket that drops mid-call (1011, an abnormal close) or stops answering while audio flows is reopened
// once, with the audio sent meanwhile (up to reopenBufferMs) sent first; a second loss, a reopen that fails, or a
// close for audio Deepgram cannot decode ends the stream with listener.failed. The key is sent only as a header and
// never logged; text Deepgram sends back is redacted before it is logged or put in an error.
import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from 'pino';
import type { RawData, WebSocket } from 'ws';
import { LINE_BYTES_PER_MS, LINE_RATE } from '../audio.js';
import { HeldAudio } from '../held-audio.js';
import { ProviderError } from '../provider-error.js';
import { jsonField, openProviderSocket, redact } from '../provider-socket.js';
import type { RecognitionListener, RecognitionOptions, RecognitionStream, SpeechRecognizer } from '../recognizer.js';

export const DEEPGRAM_URL = 'wss://api.deepgram.com/v1/listen';
const PROVIDER = 'deepgram';

export interface DeepgramConfig {
  apiKey: string;
  /** The streaming endpoint (SVC_STT_URL); Deepgram's own unless told. */
  url?: string;
  /** nova-3 unless told. */
  model?: string;
  /** Silence that ends speech (speech_final): 300 ms, a conversational pause, unless told. */
  endpointingMs?: number;
  /** Gap in words that sends UtteranceEnd: 1000 ms (Deepgram's minimum) unless told. */
  utteranceEndMs?: number;
  /** KeepAlive is sent after this long without audio: 4 s, inside Deepgram's 10 s idle bound. */
  keepAliveMs?: number;
  /** The bound on a handshake: 5 s. */
  openTimeoutMs?: number;
  /** Audio sent with nothing heard back for this long means the stream has stalled: 10 s. */
  stallMs?: number;
  /** The most audio kept while a dropped socket is reopened (the oldest goes first): 10 s. */
  reopenBufferMs?: number;
}

/** How long close() waits for the last results and the close, unless told. */
const CLOSE_GRACE_MS = 5000;
/** Seconds compared as Deepgram writes them (floats): an interim within this of a final's end is of that final. */
const EPSILON_S = 1e-6;
/** Close codes that say the audio itself is wrong: a new socket would get the same answer. */
const DATA_CLOSES = new Set([1002, 1003, 1007, 1008]);

export class DeepgramRecognizer implements SpeechRecognizer {
  readonly name = 'deepgram';
  constructor(private readonly config: DeepgramConfig) {}

  async open(options: RecognitionOptions, listener: RecognitionListener): Promise<RecognitionStream> {
    const stream = new DeepgramStream(this.config, options, listener);
    await stream.start();
    return stream;
  }
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The listen URL with the stream's parameters. */
export function listenUrl(config: DeepgramConfig, language: string): string {
  const url = new URL(config.url ?? DEEPGRAM_URL);
  const q = url.searchParams;
  q.set('encoding', 'mulaw');
  q.set('sample_rate', String(LINE_RATE));
  q.set('channels', '1');
  q.set('model', config.model ?? 'nova-3');
  // Deepgram takes BCP-47 as it is (en-US, fr); an empty language leaves the model's default.
  if (language) q.set('language', language);
  q.set('interim_results', 'true');
  q.set('endpointing', String(config.endpointingMs ?? 300));
  q.set('utterance_end_ms', String(config.utteranceEndMs ?? 1000));
  q.set('vad_events', 'true');
  q.set('smart_format', 'true');
  return url.toString();
}

/** Deepgram's reason for a refused upgrade: the dg-error header, or the body's err_msg. */
function refusal(_status: number, headers: IncomingHttpHeaders, body: string): string | null {
  const header = headers['dg-error'];
  return (Array.isArray(header) ? header[0] : header) || jsonField(body, 'err_msg') || null;
}

type Phase = 'open' | 'reopening' | 'closing' | 'done';

class DeepgramStream implements RecognitionStream {
  private readonly log: Logger;
  private ws: WebSocket | null = null;
  private phase: Phase = 'open';
  private reopened = false;
  /** Bytes handed to send(): where the call stands. */
  private callBytes = 0;
  /** The call position (bytes) of the current socket's first byte, which Deepgram counts as 0 s. */
  private streamStartBytes = 0;
  /** Audio sent while the socket is reopened. */
  private readonly held: HeldAudio;
  private flushAfterReopen = false;
  private closeAfterReopen = false;
  /** End, in the socket's seconds, of the last final: an interim ending there or before is a stale one. */
  private finalEnd = 0;
  /** Words finalised since the last end of turn, which an empty speech_final closes. */
  private openUtterance = false;
  private keepAlive: NodeJS.Timeout | null = null;
  private stall: NodeJS.Timeout | null = null;
  private closeGrace: NodeJS.Timeout | null = null;
  private closing: Promise<void> | null = null;
  private closed: (() => void) | null = null;

  constructor(
    private readonly config: DeepgramConfig,
    private readonly options: RecognitionOptions,
    private readonly listener: RecognitionListener,
  ) {
    this.log = options.logger.child({ provider: PROVIDER, callId: options.callId });
    this.held = new HeldAudio(config.reopenBufferMs ?? 10_000);
  }

  async start(): Promise<void> {
    await this.connect((ws) => (this.ws = ws));
    this.keepAlive = setTimeout(() => this.sendKeepAlive(), this.config.keepAliveMs ?? 4000);
  }

  send(audio: Buffer): void {
    // An empty binary frame is Deepgram's old end-of-stream signal: it is never sent.
    if (audio.length === 0 || this.phase === 'closing' || this.phase === 'done' || this.closeAfterReopen) return;
    this.callBytes += audio.length;
    if (this.phase === 'reopening' || !this.ws) return this.held.push(audio);
    this.ws.send(audio);
    this.keepAlive?.refresh();
    this.stall ??= setTimeout(() => this.lost('stalled', `no results for ${this.stallMs} ms while audio was sent`), this.stallMs);
  }

  flush(): void {
    if (this.phase === 'reopening') this.flushAfterReopen = true;
    else if (this.phase === 'open') this.ws?.send(JSON.stringify({ type: 'Finalize' }));
  }

  close(graceMs = CLOSE_GRACE_MS): Promise<void> {
    if (this.closing) return this.closing;
    if (this.phase === 'done') return Promise.resolve();
    this.closing = new Promise<void>((resolve) => (this.closed = resolve));
    this.closeGrace = setTimeout(() => {
      this.log.warn({ graceMs }, 'deepgram stream did not close within its grace; closing it');
      this.finish();
    }, graceMs);
    if (this.phase === 'reopening') this.closeAfterReopen = true;
    else this.sendCloseStream();
    return this.closing;
  }

  private get stallMs(): number {
    return this.config.stallMs ?? 10_000;
  }

  /** Opens a socket; `ready` takes it as it opens, before any of its messages or its close can come. */
  private async connect(ready: (ws: WebSocket) => void): Promise<void> {
    await openProviderSocket({
      provider: PROVIDER,
      url: listenUrl(this.config, this.options.language),
      headers: { Authorization: `Token ${this.config.apiKey}` },
      secret: this.config.apiKey,
      timeoutMs: this.config.openTimeoutMs ?? 5000,
      describe: refusal,
      opened: (ws) => {
        ws.on('message', (data: RawData, isBinary: boolean) => !isBinary && this.onMessage(ws, data));
        ws.on('close', (code: number, reason: Buffer) => this.onClose(ws, code, reason.toString()));
        ws.on('error', (err: NodeJS.ErrnoException) => this.log.warn({ code: err.code ?? null }, 'deepgram socket error'));
        ready(ws);
      },
    });
  }

  /** Call time of a moment Deepgram gives in the current socket's seconds. */
  private callMs(seconds: number): number {
    return Math.round(this.streamStartBytes / LINE_BYTES_PER_MS + seconds * 1000);
  }

  private onMessage(ws: WebSocket, data: RawData): void {
    if (ws !== this.ws) return;
    if (this.stall) {
      clearTimeout(this.stall);
      this.stall = null;
    }
    let m: Json;
    try {
      m = obj(JSON.parse(data.toString()));
    } catch {
      return;
    }
    if (this.phase === 'done') return;
    switch (m.type) {
      case 'Results':
        return this.onResults(m);
      case 'SpeechStarted': {
        const at = num(m.timestamp);
        return this.listener.speechStarted?.(at === null ? null : this.callMs(at));
      }
      case 'UtteranceEnd': {
        const at = num(m.last_word_end);
        return this.listener.utteranceEnd?.(at === null || at < 0 ? null : this.callMs(at));
      }
      case 'Metadata':
        return this.log.debug({ requestId: str(m.request_id) }, 'deepgram stream summary');
      case 'Error':
        // Deepgram's words about its own failure; the close that usually follows is handled as a drop.
        return this.log.warn(
          { description: redact(str(m.description) ?? '', this.config.apiKey), variant: str(m.variant), message: redact(str(m.message) ?? '', this.config.apiKey) },
          'deepgram error message',
        );
    }
  }

  private onResults(m: Json): void {
    const alternative = obj((obj(m.channel).alternatives as unknown[] | undefined)?.[0]);
    const text = (str(alternative.transcript) ?? '').trim();
    const start = num(m.start) ?? 0;
    const end = start + (num(m.duration) ?? 0);
    if (m.is_final !== true) {
      // Silence, or a hypothesis for audio already finalised arriving after its final: neither is news.
      if (text && end > this.finalEnd + EPSILON_S) this.listener.interim(text);
      return;
    }
    this.finalEnd = Math.max(this.finalEnd, end);
    const endOfTurn = m.speech_final === true;
    if (!text && !(endOfTurn && this.openUtterance)) return;
    this.openUtterance = !endOfTurn && (this.openUtterance || text !== '');
    this.listener.final(text, endOfTurn, { startMs: this.callMs(start), endMs: this.callMs(end) });
  }

  private onClose(ws: WebSocket, code: number, reason: string): void {
    if (ws !== this.ws) return;
    this.ws = null;
    if (this.phase === 'closing') {
      if (code !== 1000) this.log.warn({ code, reason }, 'deepgram stream ended abnormally while closing');
      return this.finish();
    }
    if (this.phase === 'done') return;
    if (DATA_CLOSES.has(code)) {
      return this.fail(new ProviderError(PROVIDER, 'refused', `deepgram closed the stream: ${code} ${redact(reason, this.config.apiKey)}`.trim()));
    }
    this.lost('dropped', `closed ${code} ${redact(reason, this.config.apiKey)}`.trim());
  }

  /** The socket is lost mid-call: reopened once, else the stream fails. */
  private lost(failure: 'dropped' | 'stalled', why: string): void {
    const ws = this.ws;
    this.ws = null;
    ws?.terminate();
    this.clearStall();
    if (this.phase === 'closing') return this.finish();
    if (this.phase !== 'open') return;
    if (this.reopened) return this.fail(new ProviderError(PROVIDER, failure, `deepgram stream lost twice: ${why}`));
    this.log.warn({ failure, why }, 'deepgram stream lost; reopening it once');
    void this.reopen();
  }

  private async reopen(): Promise<void> {
    this.phase = 'reopening';
    this.reopened = true;
    try {
      await this.connect((ws) => this.adopt(ws));
    } catch (err) {
      this.log.warn({ failure: err instanceof ProviderError ? err.failure : null }, 'deepgram stream could not be reopened');
      this.fail(err instanceof ProviderError ? err : new ProviderError(PROVIDER, 'dropped', 'deepgram stream could not be reopened'));
    }
  }

  /** The reopened socket is open: the audio held meanwhile goes first, then what was asked meanwhile. */
  private adopt(ws: WebSocket): void {
    if (this.phase !== 'reopening') {
      ws.terminate();
      return;
    }
    this.ws = ws;
    this.phase = 'open';
    // The new socket counts from 0 at its first byte: the oldest audio held, where the call stood then.
    this.streamStartBytes = this.callBytes - this.held.bytes;
    this.finalEnd = 0;
    this.openUtterance = false;
    const held = this.held.take();
    for (const chunk of held) ws.send(chunk);
    this.keepAlive?.refresh();
    if (held.length > 0) this.stall ??= setTimeout(() => this.lost('stalled', `no results for ${this.stallMs} ms while audio was sent`), this.stallMs);
    this.log.info({ resentMs: (this.callBytes - this.streamStartBytes) / LINE_BYTES_PER_MS }, 'deepgram stream reopened');
    if (this.flushAfterReopen) {
      this.flushAfterReopen = false;
      this.flush();
    }
    if (this.closeAfterReopen) this.sendCloseStream();
  }

  private sendKeepAlive(): void {
    if (this.phase !== 'open' || !this.ws) return;
    this.ws.send(JSON.stringify({ type: 'KeepAlive' }));
    this.keepAlive?.refresh();
  }

  private sendCloseStream(): void {
    this.phase = 'closing';
    this.closeAfterReopen = false;
    if (this.keepAlive) clearTimeout(this.keepAlive);
    this.clearStall();
    if (this.ws) this.ws.send(JSON.stringify({ type: 'CloseStream' }));
    else this.finish();
  }

  private clearStall(): void {
    if (this.stall) clearTimeout(this.stall);
    this.stall = null;
  }

  /** The stream is over (closed as asked, or given up): timers stop, the socket goes, close() resolves. */
  private finish(): void {
    this.phase = 'done';
    for (const t of [this.keepAlive, this.stall, this.closeGrace]) if (t) clearTimeout(t);
    this.stall = null;
    this.held.take();
    const ws = this.ws;
    this.ws = null;
    ws?.terminate();
    this.closed?.();
    this.closed = null;
  }

  private fail(error: ProviderError): void {
    if (this.phase === 'done') return;
    const closing = this.closed !== null;
    this.finish();
    this.log.warn({ failure: error.failure }, 'deepgram stream failed');
    // A stream that was being closed ends there: the session asked for the end and is not told twice.
    if (!closing) this.listener.failed(error);
  }
}
