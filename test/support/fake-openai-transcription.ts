// A local stand-in for OpenAI's Realtime API in transcription mode (GA), on 127.0.0.1:0. It transcribes nothing: a
// test gives it a script of words for spans of audio, and it plays server VAD and the transcription model in the
// Realtime API's event shapes, recording every handshake and client event so a test can assert the session.update,
// the appended audio and the commits.
//
// Written from OpenAI's realtime transcription guide (https://developers.openai.com/api/docs/guides/realtime-transcription),
// the Realtime API reference's client and server events, and the `openai` package's types of them
// (src/resources/realtime/realtime.ts), the same sources the adapter cites:
// - The handshake: `Authorization: Bearer <key>`; a wrong key is refused 401 with OpenAI's JSON error body, whose
//   message quotes the key it was given (OpenAI quotes a masked key; the fake quotes it whole, the harder case for
//   an adapter that copies it). `reject` refuses with any status (429 with Retry-After, 5xx); `handshakeDelayMs`
//   answers late (Infinity: never).
// - `?intent=transcription` makes the socket a transcription session; without it the socket is a conversation
//   session, which refuses a session.update of type transcription (an `error` event; the socket stays open).
// - session.created comes first with the defaults (PCM16 at 24 kHz, no transcription); session.update is answered
//   session.updated with the whole session, or, when the server cannot take it (an unknown field or format, a model
//   it does not have, a language not in ISO-639-1), an `error` event (invalid_request_error, with code, param and the
//   client's event_id), the session unchanged and the socket open. `sessionUpdateError` answers every update with an
//   error, `confirmDelayMs` answers it late (Infinity: never).
// - A text step is server VAD and the transcriber: speech_started at its first audio, then at its end
//   speech_stopped, input_audio_buffer.committed, conversation.item.added, the transcription's deltas (`deltas`, 2
//   unless told) and .completed; `fail` sends .failed instead. `completeAfterNext` holds its completion until the
//   next turn's first delta (transcription runs per item and asynchronously); `midTurn` leaves the turn open (no
//   speech_stopped) until the client commits.
// - input_audio_buffer.commit commits the open turn (its words heard so far are transcribed), or what was appended
//   since the last commit; under 100 ms of that is the error input_audio_buffer_commit_empty.
// - The session's maximum duration (60 minutes; `maxSessionMs` shortens it): the error session_expired, then the close.
// Bad days, as steps: `drop` closes 1011 (or cuts the socket: 'abnormal'); `stall` sends nothing more, ever;
// `error` sends an error event and the session goes on. Each handshake is a new session: `connections[i]`
// overrides the options for the i-th handshake.
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { untilChange } from './until-change.js';

export const FAKE_OPENAI_KEY = 'sk-fake-transcribe-4b1d9e07c2a8f3651e0d';

export interface RealtimeErrorBody {
  type: string;
  code: string | null;
  message: string;
  param?: string | null;
}

export type TranscriptionStep =
  /** The callee says `text` over the next `afterBytes` bytes (see the header for what is sent). */
  | { afterBytes: number; text: string; deltas?: number; fail?: boolean; completeAfterNext?: boolean; midTurn?: boolean }
  /** `afterBytes` of silence. */
  | { afterBytes: number; silence: true }
  /** Once `afterBytes` more have come, the socket closes 1011, or is cut with no close frame ('abnormal'). */
  | { afterBytes: number; drop: 1011 | 'abnormal' }
  /** From `afterBytes` more on, nothing is sent at all, and the socket stays open. */
  | { afterBytes: number; stall: true }
  /** An error event once `afterBytes` more have come; the session goes on. */
  | { afterBytes: number; error: RealtimeErrorBody };

export interface FakeTranscriptionSessionOptions {
  script?: TranscriptionStep[];
  reject?: { status: number; retryAfter?: string };
  handshakeDelayMs?: number;
  /** How long session.update waits for its answer; Infinity never answers. */
  confirmDelayMs?: number;
  /** The error every session.update is answered with instead of being applied. */
  sessionUpdateError?: RealtimeErrorBody;
  /** The session's maximum duration (OpenAI: 60 minutes). */
  maxSessionMs?: number;
}

export interface FakeOpenAiTranscriptionOptions extends FakeTranscriptionSessionOptions {
  apiKey?: string;
  connections?: FakeTranscriptionSessionOptions[];
}

export interface HandshakeSeen {
  url: string;
  headers: IncomingHttpHeaders;
  status: number;
}

export interface TranscriptionSessionSeen {
  url: string;
  headers: IncomingHttpHeaders;
  /** Every client event, parsed, in order. */
  received: Array<Record<string, unknown> & { type: string }>;
  /** The appended audio, decoded, in order. */
  audio: Buffer[];
  audioBytes: number;
  /** The session as it stands. */
  session: Json;
  /** Every server event sent, in order. */
  sent: Array<Record<string, unknown> & { type: string }>;
  closeCode: number | null;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const TRANSCRIPTION_MODELS = ['whisper-1', 'gpt-4o-transcribe', 'gpt-4o-mini-transcribe', 'gpt-4o-transcribe-diarize', 'gpt-transcribe', 'gpt-live-transcribe', 'gpt-realtime-whisper'];
const FORMATS = ['audio/pcm', 'audio/pcmu', 'audio/pcma'];
export const MAX_SESSION_MS = 60 * 60 * 1000;

function defaultSession(transcription: boolean): Json {
  const turnDetection = { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500, idle_timeout_ms: null };
  const input = { format: { type: 'audio/pcm', rate: 24000 }, noise_reduction: null, transcription: null, turn_detection: turnDetection };
  if (transcription) return { type: 'transcription', object: 'realtime.session', id: 'sess_fake', audio: { input }, include: null };
  return { type: 'realtime', object: 'realtime.session', id: 'sess_fake', model: 'gpt-realtime', audio: { input, output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'alloy' } } };
}

/** Why the server refuses a transcription session.update, or null when it takes it. */
function problemOf(transcription: boolean, session: unknown): { code: string; param: string; message: string } | null {
  const invalid = (param: string, value: unknown, allowed: unknown[]) => ({
    code: 'invalid_value',
    param,
    message: `Invalid value: '${String(value)}'. Supported values are: ${allowed.map((a) => `'${String(a)}'`).join(', ')}.`,
  });
  if (!isObject(session)) return { code: 'invalid_type', param: 'session', message: "Invalid type for 'session': expected an object." };
  if (!transcription) return session.type === 'realtime' ? null : invalid('session.type', session.type, ['realtime']);
  if (session.type !== 'transcription') return invalid('session.type', session.type, ['transcription']);
  const extra = Object.keys(session).find((k) => !['type', 'audio', 'include'].includes(k));
  if (extra) return { code: 'unknown_parameter', param: `session.${extra}`, message: `Unknown parameter: 'session.${extra}'.` };
  const audio = isObject(session.audio) ? session.audio : {};
  if ('output' in audio) return { code: 'unknown_parameter', param: 'session.audio.output', message: "Unknown parameter: 'session.audio.output'." };
  const input = isObject(audio.input) ? audio.input : {};
  if ('format' in input) {
    const format = isObject(input.format) ? input.format : {};
    if (!FORMATS.includes(String(format.type))) return invalid('session.audio.input.format.type', format.type, FORMATS);
    if (format.type === 'audio/pcm' && format.rate !== undefined && format.rate !== 24000) return invalid('session.audio.input.format.rate', format.rate, [24000]);
  }
  if (isObject(input.transcription)) {
    const t = input.transcription;
    if (!TRANSCRIPTION_MODELS.includes(String(t.model))) return invalid('session.audio.input.transcription.model', t.model, TRANSCRIPTION_MODELS);
    if (t.language !== undefined && !/^[a-z]{2}$/.test(String(t.language))) {
      return {
        code: 'invalid_value',
        param: 'session.audio.input.transcription.language',
        message: `Invalid language '${String(t.language)}'. Language parameter must be specified in ISO-639-1 format.`,
      };
    }
  }
  if (isObject(input.noise_reduction) && !['near_field', 'far_field'].includes(String(input.noise_reduction.type))) {
    return invalid('session.audio.input.noise_reduction.type', input.noise_reduction.type, ['near_field', 'far_field']);
  }
  if (isObject(input.turn_detection) && !['server_vad', 'semantic_vad'].includes(String(input.turn_detection.type))) {
    return invalid('session.audio.input.turn_detection.type', input.turn_detection.type, ['server_vad', 'semantic_vad']);
  }
  return null;
}

/** `update` merged over `base`: objects field by field, a format whole, anything else replaced. */
function merge(base: Json, update: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(update)) out[k] = k !== 'format' && isObject(v) && isObject(base[k]) ? merge(base[k] as Json, v) : v;
  return out;
}

function refusalBody(status: number, key: string): Json {
  if (status === 401) {
    return {
      error: {
        message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    };
  }
  if (status === 429) return { error: { message: 'Rate limit reached for requests. Please try again later.', type: 'requests', param: null, code: 'rate_limit_exceeded' } };
  if (status >= 500) return { error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null } };
  return { error: { message: 'Invalid request.', type: 'invalid_request_error', param: null, code: null } };
}

export class FakeOpenAiTranscription extends EventEmitter {
  readonly handshakes: HandshakeSeen[] = [];
  readonly connections: TranscriptionSessionSeen[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly unanswered = new Set<Socket>();

  private constructor(
    private readonly wss: WebSocketServer,
    /** The transcription URL (with ?intent=transcription). */
    readonly url: string,
  ) {
    super();
  }

  static async start(options: FakeOpenAiTranscriptionOptions = {}): Promise<FakeOpenAiTranscription> {
    const key = options.apiKey ?? FAKE_OPENAI_KEY;
    let fake!: FakeOpenAiTranscription;
    const own = (i: number): FakeTranscriptionSessionOptions => ({ ...options, ...options.connections?.[i] });
    const wss = new WebSocketServer({
      host: '127.0.0.1',
      port: 0,
      perMessageDeflate: false,
      verifyClient: (info: { req: IncomingMessage }, done: (ok: boolean, code?: number, message?: string, headers?: Record<string, string>) => void) => {
        const index = fake.handshakes.length;
        const seen: HandshakeSeen = { url: info.req.url ?? '', headers: info.req.headers, status: 101 };
        fake.handshakes.push(seen);
        fake.emit('change');
        (info.req as IncomingMessage & { fakeIndex?: number }).fakeIndex = index;
        const options = own(index);
        const answer = () => {
          const given = String(info.req.headers.authorization ?? '').replace(/^Bearer /, '');
          const status = options.reject?.status ?? (given === key ? 101 : 401);
          seen.status = status;
          if (status === 101) done(true);
          else {
            const headers: Record<string, string> = { 'Content-Type': 'application/json', 'x-request-id': `req_${index}` };
            if (options.reject?.retryAfter !== undefined) headers['Retry-After'] = options.reject.retryAfter;
            done(false, status, JSON.stringify(refusalBody(status, given)), headers);
          }
          fake.emit('change');
        };
        const delay = options.handshakeDelayMs ?? 0;
        if (delay === Number.POSITIVE_INFINITY) fake.unanswered.add(info.req.socket);
        else if (delay > 0) fake.later(delay, answer);
        else answer();
      },
    });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    fake = new FakeOpenAiTranscription(wss, `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/v1/realtime?intent=transcription`);
    wss.on('connection', (ws, req) => {
      const index = (req as IncomingMessage & { fakeIndex?: number }).fakeIndex ?? 0;
      fake.serve(ws, req, own(index), index);
    });
    return fake;
  }

  until(test: () => boolean): Promise<void> {
    return untilChange(this, test);
  }

  /** Every client event of every session, of a type. */
  events(type: string): Json[] {
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

  private serve(ws: WebSocket, req: IncomingMessage, options: FakeTranscriptionSessionOptions, index: number): void {
    const transcription = new URL(req.url ?? '/', 'ws://x').searchParams.get('intent') === 'transcription';
    const seen: TranscriptionSessionSeen = { url: req.url ?? '', headers: req.headers, received: [], audio: [], audioBytes: 0, session: defaultSession(transcription), sent: [], closeCode: null };
    this.connections.push(seen);
    const steps = [...(options.script ?? [])];
    let eventIds = 0;
    let itemIds = 0;
    let previousItem: string | null = null;
    /** Bytes appended: the session's audio clock. */
    let pos = 0;
    let stepStart = 0;
    /** Bytes appended since the last commit (the input buffer). */
    let buffered = 0;
    /** The turn server VAD has open: its item and where its speech began. */
    let open: { itemId: string } | null = null;
    /** Completions held back until the next turn's first delta. */
    let held: Array<() => void> = [];
    let stalled = false;

    const bytesPerMs = () => {
      const input = isObject(seen.session.audio) && isObject((seen.session.audio as Json).input) ? ((seen.session.audio as Json).input as Json) : {};
      return isObject(input.format) && input.format.type === 'audio/pcm' ? 48 : 8;
    };
    const ms = (bytes: number) => Math.round(bytes / bytesPerMs());
    const emit = (event: Json & { type: string }) => {
      if (ws.readyState !== WebSocket.OPEN || stalled) return;
      const sent = { event_id: `event_${index}_${++eventIds}`, ...event };
      seen.sent.push(sent);
      ws.send(JSON.stringify(sent));
    };
    const emitError = (error: RealtimeErrorBody, clientEventId: unknown = null) =>
      emit({ type: 'error', error: { param: null, event_id: typeof clientEventId === 'string' ? clientEventId : null, ...error } });

    const startSpeech = () => {
      if (open) return open.itemId;
      open = { itemId: `item_${index}_${++itemIds}` };
      emit({ type: 'input_audio_buffer.speech_started', audio_start_ms: ms(stepStart), item_id: open.itemId });
      return open.itemId;
    };
    const commitItem = (itemId: string) => {
      emit({ type: 'input_audio_buffer.committed', previous_item_id: previousItem, item_id: itemId });
      emit({
        type: 'conversation.item.added',
        previous_item_id: previousItem,
        item: { id: itemId, object: 'realtime.item', type: 'message', status: 'completed', role: 'user', content: [{ type: 'input_audio', transcript: null }] },
      });
      previousItem = itemId;
      buffered = 0;
    };
    // The transcriber's answer for an item: its deltas then its completion (or its failure).
    const transcribe = (itemId: string, text: string, step: { deltas?: number; fail?: boolean; completeAfterNext?: boolean }) => {
      if (step.fail) {
        emit({
          type: 'conversation.item.input_audio_transcription.failed',
          item_id: itemId,
          content_index: 0,
          error: { type: 'server_error', code: 'transcription_failed', message: 'Transcription failed.', param: null },
        });
        return;
      }
      const words = text.split(/\s+/).filter(Boolean);
      const pieces = Math.max(1, Math.min(step.deltas ?? 2, words.length));
      for (let i = 0; i < pieces; i++) {
        const from = Math.floor((i * words.length) / pieces);
        const to = Math.floor(((i + 1) * words.length) / pieces);
        emit({ type: 'conversation.item.input_audio_transcription.delta', item_id: itemId, content_index: 0, delta: `${i > 0 ? ' ' : ''}${words.slice(from, to).join(' ')}` });
        // A completion held back for this turn goes out after this turn's first delta.
        if (i === 0 && held.length > 0) {
          const release = held;
          held = [];
          for (const send of release) send();
        }
      }
      const complete = () =>
        emit({
          type: 'conversation.item.input_audio_transcription.completed',
          item_id: itemId,
          content_index: 0,
          transcript: words.join(' '),
          usage: { type: 'tokens', total_tokens: 20 + words.length, input_tokens: 20, output_tokens: words.length, input_token_details: { text_tokens: 0, audio_tokens: 20 } },
        });
      if (step.completeAfterNext) held.push(complete);
      else complete();
    };

    const advance = () => {
      for (;;) {
        const step = steps[0];
        if (!step) return;
        const into = pos - stepStart;
        if ('text' in step) {
          if (into > 0) startSpeech();
          if (into < step.afterBytes || step.midTurn) return;
          steps.shift();
          const itemId = open!.itemId;
          open = null;
          stepStart += step.afterBytes;
          emit({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: ms(stepStart), item_id: itemId });
          commitItem(itemId);
          transcribe(itemId, step.text, step);
          continue;
        }
        if (into < step.afterBytes) return;
        steps.shift();
        stepStart += step.afterBytes;
        if ('drop' in step) {
          if (step.drop === 'abnormal') ws.terminate();
          else ws.close(1011, 'internal error');
          return;
        }
        if ('stall' in step) {
          stalled = true;
          return;
        }
        if ('error' in step) emitError(step.error);
      }
    };

    // The client commits: the open turn with the words heard of it, or the buffer since the last commit.
    const commit = (clientEventId: unknown) => {
      const step = steps[0];
      if (open && step && 'text' in step) {
        steps.shift();
        const itemId = open.itemId;
        open = null;
        const words = step.text.split(/\s+/).filter(Boolean);
        const heard = Math.min(pos - stepStart, step.afterBytes);
        stepStart = pos;
        commitItem(itemId);
        transcribe(itemId, words.slice(0, Math.max(1, Math.ceil((words.length * heard) / step.afterBytes))).join(' '), step);
        return;
      }
      if (ms(buffered) < 100) {
        return emitError(
          {
            type: 'invalid_request_error',
            code: 'input_audio_buffer_commit_empty',
            message: `Error committing input audio buffer: buffer too small. Expected at least 100ms of audio, but buffer only has ${(buffered / bytesPerMs()).toFixed(2)}ms of audio.`,
          },
          clientEventId,
        );
      }
      const itemId = `item_${index}_${++itemIds}`;
      commitItem(itemId);
      transcribe(itemId, '', {});
    };

    let confirmTimer: NodeJS.Timeout | null = null;
    const onClientEvent = (event: Json & { type: string }) => {
      if (event.type === 'session.update') {
        const answer = () => {
          if (options.sessionUpdateError) return emitError(options.sessionUpdateError, event.event_id);
          const problem = problemOf(transcription, event.session);
          if (problem) return emitError({ type: 'invalid_request_error', ...problem }, event.event_id);
          seen.session = merge(seen.session, event.session as Json);
          emit({ type: 'session.updated', session: seen.session });
        };
        const delay = options.confirmDelayMs ?? 0;
        if (delay === Number.POSITIVE_INFINITY) return;
        if (delay > 0) confirmTimer = this.later(delay, () => (answer(), this.emit('change')));
        else answer();
      } else if (event.type === 'input_audio_buffer.append') {
        const audio = Buffer.from(String(event.audio ?? ''), 'base64');
        pos += audio.length;
        buffered += audio.length;
        advance();
      } else if (event.type === 'input_audio_buffer.commit') {
        commit(event.event_id);
      }
    };

    emit({ type: 'session.created', session: seen.session });
    const maxMs = options.maxSessionMs ?? MAX_SESSION_MS;
    const expiry = this.later(maxMs, () => {
      emitError({ type: 'invalid_request_error', code: 'session_expired', message: `Your session hit the maximum duration of ${Number((maxMs / 60_000).toPrecision(3))} minutes.` });
      if (ws.readyState === WebSocket.OPEN) ws.close(1000);
      this.emit('change');
    });
    ws.on('message', (data: RawData) => {
      let event: Json & { type: string };
      try {
        event = JSON.parse(data.toString());
      } catch {
        emitError({ type: 'invalid_request_error', code: 'invalid_json', message: 'The server could not parse the JSON body of your event.' });
        return;
      }
      seen.received.push(event);
      if (event.type === 'input_audio_buffer.append') {
        const audio = Buffer.from(String(event.audio ?? ''), 'base64');
        seen.audio.push(audio);
        seen.audioBytes += audio.length;
      }
      if (!stalled) onClientEvent(event);
      this.emit('change');
    });
    ws.on('close', (code: number) => {
      clearTimeout(expiry);
      this.timers.delete(expiry);
      if (confirmTimer) {
        clearTimeout(confirmTimer);
        this.timers.delete(confirmTimer);
      }
      seen.closeCode = code;
      this.emit('change');
    });
    this.emit('change');
  }
}
