// A local stand-in for Deepgram's live streaming API (WebSocket /v1/listen), on 127.0.0.1:0. It transcribes
// nothing: a test gives it a script of words for spans of audio ("once 8,000 more bytes have come, the callee said
// 'hello there'") and it answers as Deepgram does, in Deepgram's message shapes, recording every handshake and
// every message it receives so a test can assert the query, the auth header, KeepAlive, Finalize and CloseStream.
//
// Written from Deepgram's documentation (the same pages the adapter cites: listen-streaming, endpointing and interim
// results, utterance end, audio keep-alive, finalize, close stream, the troubleshooting guide for WebSocket DATA and
// NET errors, the API's errors) and the SDKs' message types:
// - The handshake: `Authorization: Token <key>`; a wrong or missing key is refused 401 with `dg-error` and
//   `dg-request-id` headers and the JSON body {err_code: INVALID_AUTH, err_msg, request_id}; a model it does not
//   know, or raw audio without its sample_rate, is refused 400 the same way. `reject` refuses with any status (429
//   with Retry-After past the plan's concurrency, 5xx), `handshakeDelayMs` answers late (Infinity: never).
// - Results: a text step sends SpeechStarted (vad_events) at its first audio unless the callee was already speaking
//   (the step before ended is_final, not speech_final), interims (is_final false) with growing
//   prefixes of its words as its audio arrives, then a final (is_final true, speech_final true unless the step says
//   `end: 'is_final'`; `end: 'held'` leaves it to Finalize or CloseStream). `start` and `duration` are seconds of
//   the socket's audio, so a reopened socket counts from 0. After a final, UtteranceEnd (last_word_end) once
//   utterance_end_ms more audio has come with no new words.
// - Silence (audio past the script, or a `silence` or `endpoint` step) gets an empty final result for each 2 s of it, as Deepgram
//   keeps answering while audio flows; the adapter's stall detection relies on that.
// - Finalize sends the words heard of the current step as a final with from_finalize true; CloseStream does the
//   same, then sends Metadata and closes 1000 (`closeDelayMs` delays all three).
// - `finalDelayMs` sends a text step's final that long (wall time) after the audio that completes its words came,
//   as a recogniser's final trails the end of speech; the stream's own clock goes on meanwhile.
// - No audio and no KeepAlive for `idleMs` (10 s, as Deepgram's bound; a test shortens it) closes the socket 1011
//   with NET-0001.
// Bad days, as script steps: `drop` closes 1011 (or cuts the socket: 'abnormal'); `stall` sends nothing more at
// all, ever, and keeps the socket open; `error` sends Deepgram's Error message and carries on; `drop: 1008` is
// Deepgram's DATA-0000 close for audio it cannot decode; `endpoint` ends silence after finalised words with an empty
// speech_final (Deepgram's endpointing firing after the words' last is_final); a text step's
// `staleInterim` sends one more interim for its words after their final (a speech_final before the last interim).
// Each handshake is a new stream: `connections[i]` overrides the options for the i-th handshake (refused or not).
import { createHash, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { untilChange } from './until-change.js';

export const FAKE_DEEPGRAM_KEY = 'dg-fake-key-7f3a9c1e5b2d4086';

export type DeepgramStep =
  /**
   * The callee says `text` over the next `afterBytes` bytes: interims (`interims`, 2 unless told) as they arrive, then
   * the final as `end` says (speech_final by default).
   */
  | { afterBytes: number; text: string; interims?: number; end?: 'speech_final' | 'is_final' | 'held'; staleInterim?: boolean }
  /** `afterBytes` of silence. */
  | { afterBytes: number; silence: true }
  /**
   * Once `afterBytes` more have come, the socket closes 1011 (an internal error), 1008 (DATA-0000: audio it cannot
   * decode), or is cut with no close frame ('abnormal').
   */
  | { afterBytes: number; drop: 1011 | 1008 | 'abnormal' }
  /** `afterBytes` of silence that endpointing ends: an empty result with is_final and speech_final. */
  | { afterBytes: number; endpoint: true }
  /** From `afterBytes` more on, nothing is sent at all, and the socket stays open. */
  | { afterBytes: number; stall: true }
  /** Deepgram's Error message, once `afterBytes` more have come; the stream goes on. */
  | { afterBytes: number; error: { description: string; message: string; variant: string } };

export interface FakeDeepgramStreamOptions {
  script?: DeepgramStep[];
  /** The handshake is refused with this status (and Retry-After, when given). */
  reject?: { status: number; retryAfter?: string; message?: string };
  /** How long the handshake waits before it is answered; Infinity never answers it. */
  handshakeDelayMs?: number;
  /** How long Finalize's and CloseStream's answers take. */
  closeDelayMs?: number;
  /** How long after the audio that completes a text step's words its final is sent (0: at once). */
  finalDelayMs?: number;
  /**
   * Whether each stream keeps its binary frames in `audio` (the default) or only counts them: a benchmark's hundreds
   * of streams would otherwise hold every frame, and the fake's garbage collection would stall the calls it measures.
   */
  keepAudio?: boolean;
}

export interface FakeDeepgramOptions extends FakeDeepgramStreamOptions {
  /** The key the fake accepts. */
  apiKey?: string;
  /** No audio and no KeepAlive for this long closes the stream (Deepgram: 10 s). */
  idleMs?: number;
  /** Overrides for the first, second, … handshake. */
  connections?: FakeDeepgramStreamOptions[];
}

export interface HandshakeSeen {
  url: string;
  headers: IncomingHttpHeaders;
  /** 101, or the status it was refused with. */
  status: number;
}

export interface DeepgramStreamSeen {
  url: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Every text message, parsed, in order. */
  received: Array<Record<string, unknown>>;
  /** Every binary frame, in order. */
  audio: Buffer[];
  audioBytes: number;
  /** Every message sent, in order. */
  sent: Array<Record<string, unknown>>;
  /** The close code, once the socket has closed (1006 when it was cut). */
  closeCode: number | null;
}

type Json = Record<string, unknown>;
const MODELS = /^(nova-3|nova-2|nova|enhanced|base)(-[a-z]+)*$/;
const RAW_ENCODINGS = ['linear16', 'linear32', 'flac', 'mulaw', 'alaw', 'amr-nb', 'amr-wb', 'opus', 'ogg-opus', 'speex', 'g729'];
const SILENCE_RESULT_MS = 2000;
const MODEL_UUID = '1f6a9f5e-0000-4000-8000-000000000003';

export class FakeDeepgram extends EventEmitter {
  readonly handshakes: HandshakeSeen[] = [];
  readonly connections: DeepgramStreamSeen[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Handshakes never to be answered, cut when the fake closes. */
  private readonly unanswered = new Set<Socket>();

  private constructor(
    private readonly wss: WebSocketServer,
    readonly url: string,
  ) {
    super();
  }

  static async start(options: FakeDeepgramOptions = {}): Promise<FakeDeepgram> {
    const key = options.apiKey ?? FAKE_DEEPGRAM_KEY;
    let fake!: FakeDeepgram;
    const streamOptions = (i: number): FakeDeepgramStreamOptions => ({ ...options, ...options.connections?.[i] });
    const wss = new WebSocketServer({
      host: '127.0.0.1',
      port: 0,
      perMessageDeflate: false,
      verifyClient: (info: { req: IncomingMessage }, done: (ok: boolean, code?: number, message?: string, headers?: Record<string, string>) => void) => {
        const index = fake.handshakes.length;
        const seen: HandshakeSeen = { url: info.req.url ?? '', headers: info.req.headers, status: 101 };
        fake.handshakes.push(seen);
        fake.emit('change');
        const own = streamOptions(index);
        (info.req as IncomingMessage & { fakeIndex?: number }).fakeIndex = index;
        const answer = () => {
          const refusal = own.reject ?? refusalOf(info.req, key);
          if (refusal) {
            seen.status = refusal.status;
            const requestId = randomUUID();
            const message = refusal.message ?? defaultMessage(refusal.status);
            const headers: Record<string, string> = { 'Content-Type': 'application/json', 'dg-request-id': requestId, 'dg-error': message };
            if (refusal.retryAfter !== undefined) headers['Retry-After'] = refusal.retryAfter;
            const code = refusal.status === 401 ? 'INVALID_AUTH' : refusal.status === 429 ? 'TOO_MANY_REQUESTS' : refusal.status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'Bad Request';
            done(false, refusal.status, JSON.stringify({ err_code: code, err_msg: message, request_id: requestId }), headers);
          } else {
            done(true);
          }
          fake.emit('change');
        };
        const delay = own.handshakeDelayMs ?? 0;
        if (delay === Number.POSITIVE_INFINITY) {
          fake.unanswered.add(info.req.socket);
          return;
        }
        if (delay > 0) fake.later(delay, answer);
        else answer();
      },
    });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    fake = new FakeDeepgram(wss, `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/v1/listen`);
    wss.on('connection', (ws, req) => {
      const index = (req as IncomingMessage & { fakeIndex?: number }).fakeIndex ?? 0;
      fake.serve(ws, req, streamOptions(index), options.idleMs ?? 10_000);
    });
    return fake;
  }

  /** Resolves when `test` holds, checked after everything the fake sees or sends. */
  until(test: () => boolean): Promise<void> {
    return untilChange(this, test);
  }

  /** Every text message of every stream, of a type. */
  messages(type: string): Json[] {
    return this.connections.flatMap((c) => c.received.filter((m) => m.type === type));
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const ws of this.wss.clients) ws.terminate();
    for (const socket of this.unanswered) socket.destroy();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private later(ms: number, run: () => void): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.timers.delete(t);
      run();
    }, ms);
    this.timers.add(t);
    return t;
  }

  private cancel(t: NodeJS.Timeout | null): void {
    if (!t) return;
    clearTimeout(t);
    this.timers.delete(t);
  }

  private serve(ws: WebSocket, req: IncomingMessage, options: FakeDeepgramStreamOptions, idleMs: number): void {
    const query = new URL(req.url ?? '/', 'ws://x').searchParams;
    const seen: DeepgramStreamSeen = { url: req.url ?? '', query, headers: req.headers, received: [], audio: [], audioBytes: 0, sent: [], closeCode: null };
    this.connections.push(seen);
    const requestId = randomUUID();
    const modelInfo = { name: `general-${query.get('model') ?? 'nova-3'}`, version: '2025-01-01.0', arch: query.get('model') ?? 'nova-3' };
    const vadEvents = query.get('vad_events') === 'true';
    const utteranceEndBytes = Number(query.get('utterance_end_ms') ?? 0) * 8;
    const steps = [...(options.script ?? [])];
    const hash = createHash('sha256');
    /** Bytes of audio received: the stream's clock (8 per ms). */
    let pos = 0;
    /** Where the current step began. */
    let stepStart = 0;
    /** Interims sent for the current text step. */
    let interimsSent = 0;
    /** Whether the callee is speaking: a text step's audio began, and no speech_final or silence has ended it. */
    let speaking = false;
    /** Where the silence not yet answered with an empty result begins. */
    let silenceFrom = 0;
    /** The end of the last finalised words, while an UtteranceEnd for them is due. */
    let utteranceEndDue: number | null = null;
    let stalled = false;
    let closing = false;
    const sec = (bytes: number) => Math.round((bytes / 8000) * 1e6) / 1e6;
    const wordsOf = (text: string) => text.split(/\s+/).filter(Boolean);

    const send = (m: Json) => {
      if (ws.readyState !== WebSocket.OPEN || stalled) return;
      seen.sent.push(m);
      ws.send(JSON.stringify(m));
    };
    const results = (words: string[], fromBytes: number, toBytes: number, flags: { is_final: boolean; speech_final: boolean; from_finalize?: boolean }) => {
      const span = (toBytes - fromBytes) / Math.max(1, words.length);
      send({
        type: 'Results',
        channel_index: [0, 1],
        duration: sec(toBytes - fromBytes),
        start: sec(fromBytes),
        is_final: flags.is_final,
        speech_final: flags.speech_final,
        from_finalize: flags.from_finalize ?? false,
        channel: {
          alternatives: [
            {
              transcript: words.join(' '),
              confidence: words.length ? 0.98 : 0,
              words: words.map((w, i) => ({
                word: w.toLowerCase().replace(/[^\p{L}\p{N}']/gu, ''),
                start: sec(fromBytes + i * span),
                end: sec(fromBytes + (i + 1) * span),
                confidence: 0.98,
                punctuated_word: w,
              })),
            },
          ],
        },
        metadata: { request_id: requestId, model_info: modelInfo, model_uuid: MODEL_UUID },
      });
    };
    // A text step's words are over: the next step starts where they end, and silence is counted from there.
    const ended = (end: number) => {
      utteranceEndDue = utteranceEndBytes > 0 ? end : null;
      stepStart = end;
      silenceFrom = end;
      interimsSent = 0;
    };
    // Finalises what is heard of the current text step (a prefix of its words as long as its audio so far), as
    // Finalize and CloseStream do.
    const finalizeCurrent = (fromFinalize: boolean) => {
      const step = steps[0];
      if (!step || !('text' in step) || pos === stepStart) return;
      steps.shift();
      const words = wordsOf(step.text);
      const end = Math.min(pos, stepStart + step.afterBytes);
      const heard = words.slice(0, Math.max(1, Math.ceil((words.length * (end - stepStart)) / step.afterBytes)));
      results(heard, stepStart, end, { is_final: true, speech_final: false, from_finalize: fromFinalize });
      ended(end);
    };
    // Silence gets an empty final result for each SILENCE_RESULT_MS of it, up to `until`.
    const answerSilence = (until: number) => {
      while (until - silenceFrom >= SILENCE_RESULT_MS * 8) {
        results([], silenceFrom, silenceFrom + SILENCE_RESULT_MS * 8, { is_final: true, speech_final: false });
        silenceFrom += SILENCE_RESULT_MS * 8;
      }
    };

    // The audio clock moved: the script's steps that are due run, and silence is answered.
    const advance = () => {
      for (;;) {
        const step = steps[0];
        if (!step) {
          answerSilence(pos);
          break;
        }
        const into = pos - stepStart;
        if ('text' in step) {
          if (into > 0 && !speaking) {
            speaking = true;
            if (vadEvents) send({ type: 'SpeechStarted', channel: [0, 1], timestamp: sec(stepStart) });
          }
          const words = wordsOf(step.text);
          const interims = step.interims ?? 2;
          while (interimsSent < interims && into >= ((interimsSent + 1) * step.afterBytes) / (interims + 1)) {
            interimsSent++;
            utteranceEndDue = null;
            const upTo = stepStart + Math.floor((interimsSent * step.afterBytes) / (interims + 1));
            results(words.slice(0, Math.max(1, Math.ceil((words.length * interimsSent) / (interims + 1)))), stepStart, upTo, { is_final: false, speech_final: false });
          }
          if (into < step.afterBytes || step.end === 'held') break;
          steps.shift();
          const from = stepStart;
          const end = stepStart + step.afterBytes;
          const speechFinal = (step.end ?? 'speech_final') === 'speech_final';
          const final = () => {
            results(words, from, end, { is_final: true, speech_final: speechFinal });
            // The stale one: a hypothesis for these words, shorter than their final, sent after it.
            if (step.staleInterim) results(words.length > 1 ? words.slice(0, -1) : words, from, end - Math.floor(step.afterBytes / 4), { is_final: false, speech_final: false });
          };
          if (options.finalDelayMs) {
            this.later(options.finalDelayMs, () => {
              final();
              this.emit('change');
            });
          } else final();
          speaking = !speechFinal;
          ended(end);
          continue;
        }
        if ('silence' in step || 'endpoint' in step) {
          speaking = false;
          answerSilence(Math.min(pos, stepStart + step.afterBytes));
        }
        if (into < step.afterBytes) break;
        steps.shift();
        stepStart += step.afterBytes;
        if ('drop' in step) {
          if (step.drop === 'abnormal') ws.terminate();
          else if (step.drop === 1008) ws.close(1008, 'DATA-0000: The payload cannot be decoded as audio');
          else ws.close(1011, 'NET-0000: Deepgram encountered an internal error');
          return;
        }
        if ('stall' in step) {
          stalled = true;
          return;
        }
        if ('error' in step) send({ type: 'Error', ...step.error });
        if ('endpoint' in step) {
          results([], silenceFrom, stepStart, { is_final: true, speech_final: true });
          silenceFrom = stepStart;
        }
      }
      if (utteranceEndDue !== null && pos - utteranceEndDue >= utteranceEndBytes) {
        send({ type: 'UtteranceEnd', channel: [0, 1], last_word_end: sec(utteranceEndDue) });
        utteranceEndDue = null;
      }
    };

    let idle = this.later(idleMs, () => closeIdle());
    const closeIdle = () => {
      if (stalled || ws.readyState !== WebSocket.OPEN) return;
      ws.close(1011, 'NET-0001: Deepgram did not receive audio data or a text message within the timeout window');
    };
    const active = () => {
      this.cancel(idle);
      idle = this.later(idleMs, closeIdle);
    };

    ws.on('message', (data: RawData, isBinary: boolean) => {
      const bytes = Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[]);
      if (isBinary) {
        if (options.keepAudio !== false) seen.audio.push(Buffer.from(bytes));
        seen.audioBytes += bytes.length;
        if (closing || stalled) return this.emit('change');
        hash.update(bytes);
        active();
        pos += bytes.length;
        advance();
        return this.emit('change');
      }
      let m: Json;
      try {
        m = JSON.parse(bytes.toString());
      } catch {
        m = { unparsed: bytes.toString() };
      }
      seen.received.push(m);
      if (!stalled && !closing) {
        if (m.type === 'KeepAlive') active();
        else if (m.type === 'Finalize') this.later(options.closeDelayMs ?? 0, () => finalizeCurrent(true));
        else if (m.type === 'CloseStream') {
          closing = true;
          this.later(options.closeDelayMs ?? 0, () => {
            finalizeCurrent(false);
            send({
              type: 'Metadata',
              transaction_key: 'deprecated',
              request_id: requestId,
              sha256: hash.digest('hex'),
              created: new Date().toISOString(),
              duration: sec(pos),
              channels: 1,
              models: [MODEL_UUID],
              model_info: { [MODEL_UUID]: modelInfo },
            });
            if (ws.readyState === WebSocket.OPEN) ws.close(1000);
            this.emit('change');
          });
        }
      }
      this.emit('change');
    });
    ws.on('close', (code: number) => {
      this.cancel(idle);
      seen.closeCode = code;
      this.emit('change');
    });
    this.emit('change');
  }
}

/** Why Deepgram refuses this upgrade, or null when it takes it. */
function refusalOf(req: IncomingMessage, key: string): { status: number; message: string; retryAfter?: string } | null {
  if (req.headers.authorization !== `Token ${key}`) return { status: 401, message: 'Invalid credentials.' };
  const q = new URL(req.url ?? '/', 'ws://x').searchParams;
  const model = q.get('model') ?? 'base';
  if (!MODELS.test(model)) return { status: 400, message: 'Bad Request: No such model/language/tier combination found.' };
  const encoding = q.get('encoding');
  if (encoding && !RAW_ENCODINGS.includes(encoding)) return { status: 400, message: `Bad Request: unsupported encoding ${encoding}.` };
  if (encoding && !q.get('sample_rate')) return { status: 400, message: 'Bad Request: sample_rate is required when encoding is set.' };
  if (q.get('utterance_end_ms') && q.get('interim_results') !== 'true') return { status: 400, message: 'Bad Request: utterance_end_ms requires interim_results=true.' };
  return null;
}

function defaultMessage(status: number): string {
  if (status === 401) return 'Invalid credentials.';
  if (status === 429) return 'Too many requests. Please try again later.';
  if (status >= 500) return 'Internal server error.';
  return 'Bad Request.';
}
