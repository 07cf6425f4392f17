// A local stand-in for an OpenAI-compatible realtime speech endpoint (the Realtime API's WebSocket events), on
// 127.0.0.1:0. It plays the model and its transcriber from a script: agent turns are spoken as audio deltas with
// their transcript; a callee turn is "heard" once enough of the caller's audio has arrived, and comes back as
// speech_started/stopped and a completed transcription; end_call is a function call; drop cuts the socket.
// record_opt_out is a function call too, as is any tool a `call` step names (press_keys with its arguments), and
// the script goes on only once the client has answered it with a function_call_output item for that call and asked
// for a response, as the real server needs. A message item the client adds (conversation.item.create: a note in the
// user's or the system's words) is answered conversation.item.added and .done (GA; beta: conversation.item.created)
// and kept in `messages`; one whose content does not fit its role (output text from the user, input text from the
// assistant, an unknown content type) gets an invalid_request_error and is not added, as on the real server. A
// `pause` step ends the response there, and the script goes on at the client's next response.create. A model calls
// only what its session offers, so a call of a function the session's `tools` lack is dropped, as a model that has
// no such function says nothing of it.
//
// It speaks one interface, GA (the default) or beta, and refuses the other's header as the real servers do: an
// OpenAI-Beta header on the GA server, or its absence on the beta one, closes the socket at once.
//
// It behaves as the real service does on bad days, each behaviour from OpenAI's Realtime API reference (server
// events: https://platform.openai.com/docs/api-reference/realtime-server-events; the `openai` package's
// src/resources/realtime/realtime.ts types; the error shapes of https://platform.openai.com/docs/guides/error-codes):
// - `session.created` is the first event of every connection and carries the session's defaults: PCM16 at 24 kHz
//   both ways (`audio/pcm` rate 24000 in GA, `pcm16` in beta), voice `alloy`, server VAD.
// - `session.update` is answered `session.updated` with the whole session as it now stands (the update merged
//   over what was set). An update the server cannot take (a field of the other interface, no `session.type` in
//   GA, an unknown audio format or voice) gets an `error` event (`invalid_request_error`, with `code`, `param` and
//   the client's `event_id`), changes nothing, and the socket STAYS OPEN on the session as it was: the model
//   then speaks the session's format (PCM16 at 24 kHz by default: noise on a mu-law line). `onBadSession:
//   'close'` closes the socket instead, for a test that wants the kind server.
// - `rate_limits.updated` at the beginning of every response (after `response.created`); `rateLimits: false`
//   leaves it out.
// - An `error` step sends an `error` event mid-session (`rate_limit_exceeded`, `insufficient_quota`,
//   `server_error`, or any body given); the session stays open, as the reference says most errors leave it.
// - A `fail` step ends the response `failed` with `status_details.error`; an agent step's `incomplete` ends it
//   `incomplete` with `status_details.reason` (`max_output_tokens`, `content_filter`); an agent step's
//   `unfinished` leaves the response in progress until the client sends `response.cancel` (`cancelled`,
//   `client_cancelled`) or the caller's speech starts (`cancelled`, `turn_detected`: server VAD's
//   interrupt_response). `response.create` while a response is active gets the error
//   `conversation_already_has_active_response`; `response.cancel` with none gets `response_cancel_not_active`.
// - `conversation.item.truncate` of an agent item is answered `conversation.item.truncated`.
// - A callee step's `transcriptAfterReply` sends its transcription after the model's reply (the transcriber runs
//   beside the model, so the transcript often lands after the reply's audio).
// - A `noise` step is server VAD firing on noise: `speech_started` and then no turn (nothing more, the turn never
//   committing; or stopped and committed with no transcription; or an empty transcript). The model does not
//   answer it, and a response in progress is cancelled by it (`turn_detected`).
// - The session's maximum duration (60 minutes; `maxSessionMs` shortens it): the server sends the error
//   `session_expired` ("Your session hit the maximum duration of 60 minutes.") and closes the socket.
// - A callee step's `transcriptDelayMs` sends its transcription that long after the turn is committed (the
//   transcriber is asynchronous: the transcript may come seconds after the turn).
// - A callee step's `midTurn` is speech server VAD has not ended yet (the callee hangs up mid-sentence):
//   `speech_started` and nothing more until the client sends `input_audio_buffer.commit`, which is answered
//   `input_audio_buffer.committed` for that item and then its transcription, and creates no response (the
//   reference: committing "will trigger input audio transcription ... but it will not create a response"). A
//   commit with no speech open and under 100 ms of audio gets the error `input_audio_buffer_commit_empty`; over
//   100 ms, a committed item with an empty transcript.
// - A slow handshake: `handshakeDelayMs` before the upgrade is answered, `sessionCreatedDelayMs` before
//   `session.created` (client events sent meanwhile wait, in order, as the real server queues them).
// - A session.update the server fails to apply for its own reasons (`sessionUpdateError`: `server_error`, a rate
//   limit): the `error` event with the update's `event_id`, nothing changed, the socket open, as for a rejected one.
// - Server VAD's `interrupt_response` (turn_detection, true by default): when the client sets it false, speech
//   starting does not cancel the response in progress (the client cancels it with response.cancel if it wants).
//   With `create_response` false, the end of the caller's turn commits it and creates no response (the client asks
//   with response.create when it wants one).
// - Each connection is a new session with the server: `connections[i]` overrides the options for the i-th socket
//   (its script, a slow session.created, a failing update), so a test can have the first fail and the next work.
// - The model's time to first audio: `firstAudioDelayMs` between a response's `response.created` and its first
//   output (the model's inference; the Realtime API streams a response's events once it has them). A response
//   cancelled meanwhile (the caller's speech) sends nothing more.
import { EventEmitter } from 'node:events';
import { untilChange } from './until-change.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import { linearToALaw, muLawTone } from './fake-media-peer.js';

/** The error kinds the fake can send, with the shapes OpenAI's API gives them. */
export type RealtimeErrorKind = 'rate_limit_exceeded' | 'insufficient_quota' | 'server_error';
export interface RealtimeErrorBody {
  type: string;
  code: string | null;
  message: string;
  param?: string | null;
  event_id?: string | null;
}

export const REALTIME_ERRORS: Record<RealtimeErrorKind, RealtimeErrorBody> = {
  rate_limit_exceeded: {
    type: 'tokens',
    code: 'rate_limit_exceeded',
    message: 'Rate limit reached for gpt-realtime in organization org-fake on tokens per min (TPM): Limit 40000, Used 39800, Requested 1200. Please try again in 1.5s.',
    param: null,
  },
  insufficient_quota: {
    type: 'insufficient_quota',
    code: 'insufficient_quota',
    message: 'You exceeded your current quota, please check your plan and billing details.',
    param: null,
  },
  server_error: { type: 'server_error', code: null, message: 'The server had an error while processing your request. Sorry about that!', param: null },
};

export type RealtimeStep =
  /**
   * The agent's audio, `audioBytes` long at 8 kHz G.711 (1,600 = 200 ms unless given), in deltas of `deltaBytes`
   * of that (800, 100 ms, unless given); encoded in the session's output format. `incomplete` ends the response
   * there with that reason; `unfinished` leaves it in progress (see the header). `transcriptAfterMs` sends the item's
   * audio done and transcript that long after its audio, as a model still generating does, and goes on after them.
   */
  | { agent: string; audioBytes?: number; deltaBytes?: number; incomplete?: 'max_output_tokens' | 'content_filter'; unfinished?: boolean; transcriptAfterMs?: number }
  /**
   * Heard after `afterBytes` more bytes of the caller's audio; `transcriptAfterReply` sends its transcript after the
   * reply, `transcriptDelayMs` that long after the turn is committed; `midTurn` leaves the turn open until the
   * client commits it (see the header).
   */
  | { callee: string; afterBytes: number; transcriptAfterReply?: boolean; transcriptDelayMs?: number; midTurn?: boolean }
  /**
   * Server VAD fires on noise after `afterBytes` more bytes: `speech_started`, then as `ends` says: `nothing` (the turn never
   * commits), `no-transcript` (stopped and committed, never transcribed) or `empty-transcript` (the default).
   */
  | { noise: true; afterBytes: number; ends?: 'nothing' | 'no-transcript' | 'empty-transcript' }
  | { endCall: true }
  /** The model calls record_opt_out, then waits for its output and a response.create before going on. */
  | { optOut: true }
  /** The model calls the tool of this name with these arguments, then waits as for optOut. */
  | { call: string; arguments?: Record<string, unknown> }
  /** The response ends here; the script goes on at the client's next response.create. */
  | { pause: true }
  /** The response ends `failed` with this error in its status_details. */
  | { fail: RealtimeErrorKind | { type: string; code: string } }
  /** An `error` event: where it stands in a response, or once `afterBytes` more bytes of the caller's audio have arrived. */
  | { error: RealtimeErrorKind | RealtimeErrorBody; afterBytes?: number }
  /** The socket is cut (as a network failure would), once `afterBytes` more bytes have arrived. */
  | { drop: true; afterBytes?: number };

export interface RateLimit {
  name: 'requests' | 'tokens';
  limit: number;
  remaining: number;
  reset_seconds: number;
}

export interface FakeRealtimeOptions {
  script: RealtimeStep[];
  /** The interface the server speaks; GA by default. */
  protocol?: 'ga' | 'beta';
  /** What a rejected session.update does: the real server keeps the socket open (the default). */
  onBadSession?: 'stay-open' | 'close';
  /** The rate limits each response reports; false sends no rate_limits.updated. */
  rateLimits?: RateLimit[] | false;
  /** The session's maximum duration; 60 minutes, as OpenAI's. */
  maxSessionMs?: number;
  /** How long the upgrade waits before it is answered. */
  handshakeDelayMs?: number;
  /**
   * The key the server wants. As OpenAI's does, a handshake without Authorization is refused 401; one with a wrong
   * key is accepted, answered with an `invalid_api_key` error and closed 3000.
   */
  apiKey?: string;
  /** How long after the upgrade session.created is sent. */
  sessionCreatedDelayMs?: number;
  /** The error every session.update is answered with instead of being applied. */
  sessionUpdateError?: RealtimeErrorKind | RealtimeErrorBody;
  /** Overrides of these options for the first, second, … connection. */
  connections?: Array<Partial<Omit<FakeRealtimeOptions, 'connections' | 'protocol' | 'handshakeDelayMs'>>>;
  /** How long after response.created a response's first output comes (0: at once). */
  firstAudioDelayMs?: number;
}

export const DEFAULT_RATE_LIMITS: RateLimit[] = [
  { name: 'requests', limit: 5000, remaining: 4999, reset_seconds: 0.012 },
  { name: 'tokens', limit: 40000, remaining: 38800, reset_seconds: 1.8 },
];
export const MAX_SESSION_MS = 60 * 60 * 1000;

/** The error's message when a session reaches its maximum duration, as OpenAI words it. */
export const sessionExpiredMessage = (maxMs: number) => `Your session hit the maximum duration of ${Number((maxMs / 60_000).toPrecision(3))} minutes.`;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The voices the Realtime API offers. */
export const REALTIME_VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'sage', 'shimmer', 'verse', 'marin', 'cedar'];

/** A session's audio encoding, as the fake produces and counts it. */
export type AudioEncoding = 'pcmu' | 'pcma' | 'pcm16';

/** The session a new connection has, before any session.update: PCM16 at 24 kHz both ways. */
export function defaultSession(protocol: 'ga' | 'beta', model: string): Json {
  const turnDetection = { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 200, create_response: true, interrupt_response: true };
  if (protocol === 'beta') {
    return {
      id: 'sess_1',
      object: 'realtime.session',
      model,
      modalities: ['text', 'audio'],
      instructions: '',
      voice: 'alloy',
      input_audio_format: 'pcm16',
      output_audio_format: 'pcm16',
      input_audio_transcription: null,
      turn_detection: turnDetection,
      tools: [],
      tool_choice: 'auto',
      temperature: 0.8,
      max_response_output_tokens: 'inf',
    };
  }
  return {
    type: 'realtime',
    object: 'realtime.session',
    id: 'sess_1',
    model,
    output_modalities: ['audio'],
    instructions: '',
    tools: [],
    tool_choice: 'auto',
    max_output_tokens: 'inf',
    tracing: null,
    prompt: null,
    expires_at: 0,
    include: null,
    audio: {
      input: { format: { type: 'audio/pcm', rate: 24000 }, transcription: null, noise_reduction: null, turn_detection: { ...turnDetection, idle_timeout_ms: null } },
      output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'alloy', speed: 1 },
    },
  };
}

/** The session's input and output encodings. */
export function sessionEncodings(protocol: 'ga' | 'beta', session: Json): { input: AudioEncoding; output: AudioEncoding } {
  const ga = (format: unknown): AudioEncoding => {
    const type = isObject(format) ? format.type : undefined;
    return type === 'audio/pcmu' ? 'pcmu' : type === 'audio/pcma' ? 'pcma' : 'pcm16';
  };
  const beta = (format: unknown): AudioEncoding => (format === 'g711_ulaw' ? 'pcmu' : format === 'g711_alaw' ? 'pcma' : 'pcm16');
  if (protocol === 'beta') return { input: beta(session.input_audio_format), output: beta(session.output_audio_format) };
  const audio = isObject(session.audio) ? session.audio : {};
  const side = (s: unknown) => (isObject(s) ? s.format : undefined);
  return { input: ga(side(audio.input)), output: ga(side(audio.output)) };
}

/** Bytes per millisecond of audio in an encoding: 8 kHz G.711 is 8, 24 kHz 16-bit PCM is 48. */
export const bytesPerMs = (encoding: AudioEncoding) => (encoding === 'pcm16' ? 48 : 8);

/** Why the server refuses a session.update, or null when it takes it: the error's code, param and message. */
export function sessionShapeProblem(protocol: 'ga' | 'beta', session: unknown): { code: string; param: string; message: string } | null {
  if (!isObject(session)) return { code: 'invalid_type', param: 'session', message: "Invalid type for 'session': expected an object." };
  const unknown = (key: string) => ({ code: 'unknown_parameter', param: `session.${key}`, message: `Unknown parameter: 'session.${key}'.` });
  const invalid = (param: string, value: unknown, allowed: unknown[]) => ({
    code: 'invalid_value',
    param,
    message: `Invalid value: '${String(value)}'. Supported values are: ${allowed.map((a) => `'${String(a)}'`).join(', ')}.`,
  });
  if (protocol === 'ga') {
    const beta = ['modalities', 'voice', 'input_audio_format', 'output_audio_format', 'input_audio_transcription', 'turn_detection'].find((k) => k in session);
    if (beta) return unknown(beta);
    if (!('type' in session)) return { code: 'missing_required_parameter', param: 'session.type', message: "Missing required parameter: 'session.type'." };
    if (session.type !== 'realtime') return invalid('session.type', session.type, ['realtime', 'transcription']);
    const audio = isObject(session.audio) ? session.audio : {};
    for (const where of ['input', 'output'] as const) {
      const side = isObject(audio[where]) ? (audio[where] as Json) : {};
      if (!('format' in side)) continue;
      const format = isObject(side.format) ? side.format : {};
      const types = ['audio/pcm', 'audio/pcmu', 'audio/pcma'];
      if (!types.includes(String(format.type))) return invalid(`session.audio.${where}.format.type`, format.type, types);
      if (format.type === 'audio/pcm' && format.rate !== undefined && format.rate !== 24000) return invalid(`session.audio.${where}.format.rate`, format.rate, [24000]);
    }
    const output = isObject(audio.output) ? audio.output : {};
    if ('voice' in output && !REALTIME_VOICES.includes(String(output.voice))) return invalid('session.audio.output.voice', output.voice, REALTIME_VOICES);
    return null;
  }
  const ga = ['type', 'audio', 'output_modalities'].find((k) => k in session);
  if (ga) return unknown(ga);
  const formats = ['pcm16', 'g711_ulaw', 'g711_alaw'];
  for (const key of ['input_audio_format', 'output_audio_format']) {
    if (key in session && !formats.includes(String(session[key]))) return invalid(`session.${key}`, session[key], formats);
  }
  if ('voice' in session && !REALTIME_VOICES.includes(String(session.voice))) return invalid('session.voice', session.voice, REALTIME_VOICES);
  return null;
}

/** `update` merged over `base`: objects field by field, anything else (and an audio format, whole) replaced. */
function merge(base: Json, update: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(update)) out[k] = k !== 'format' && isObject(v) && isObject(base[k]) ? merge(base[k] as Json, v) : v;
  return out;
}

/** A 440 Hz tone `samples8k` samples long (its length at 8 kHz), in an encoding. */
export function agentAudio(samples8k: number, encoding: AudioEncoding): Buffer {
  if (encoding === 'pcmu') return muLawTone(samples8k, 440);
  if (encoding === 'pcma') {
    const out = Buffer.alloc(samples8k);
    for (let i = 0; i < samples8k; i++) out[i] = linearToALaw(8000 * Math.sin((2 * Math.PI * 440 * i) / 8000));
    return out;
  }
  const out = Buffer.alloc(samples8k * 6);
  for (let i = 0; i < samples8k * 3; i++) out.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 24000)), i * 2);
  return out;
}

export interface RealtimeConnectionSeen {
  url: string;
  headers: IncomingHttpHeaders;
  /** Every client event, parsed, in order. */
  received: Array<Record<string, unknown> & { type: string }>;
  /** Caller audio bytes appended, decoded from base64. */
  appendedBytes: number;
  /** Agent audio bytes sent as deltas. */
  sentAudioBytes: number;
  closed: boolean;
  /** Why the server refused this client and closed, when it did. */
  refused?: string;
  /** The function_call_output items the client sent for the model's tool calls. */
  toolOutputs: Array<{ callId: string; output: string }>;
  /** The model's function calls, in order: when each was sent, and how long after it its output came (null before). */
  functionCalls: Array<{ name: string; callId: string; arguments: string; sentAt: number; afterMs: number | null }>;
  /** The message items the client added, in order, each its role and its text. */
  messages: Array<{ role: string; text: string }>;
  /** The session as it stands (session.created's defaults, then each update taken). */
  session: Json;
  /** Every server event sent, in order. */
  sent: Array<Record<string, unknown> & { type: string }>;
  /** When each of `sent` was sent (performance.now()), by its index: the server's own timing, which no load on the client skews. */
  sentAt: number[];
}

/** What the real server says of a message item whose content does not fit its role, or null when it does. */
function messageProblem(protocol: 'ga' | 'beta', item: Json): { message: string; param: string } | null {
  const role = item.role;
  if (role !== 'user' && role !== 'system' && role !== 'assistant') return { message: `Invalid value: '${String(role)}'. Supported values are: 'user', 'system' and 'assistant'.`, param: 'item.role' };
  const content = Array.isArray(item.content) ? (item.content as unknown[]) : null;
  if (!content || content.length === 0) return { message: 'Missing required parameter: item.content.', param: 'item.content' };
  const allowed = role === 'assistant' ? [protocol === 'ga' ? 'output_text' : 'text'] : ['input_text'];
  for (const [i, part] of content.entries()) {
    const type = isObject(part) ? part.type : undefined;
    if (!allowed.includes(String(type)) || typeof (part as Json).text !== 'string') {
      return { message: `Invalid value: '${String(type)}'. Supported values are: ${allowed.map((a) => `'${a}'`).join(', ')}.`, param: `item.content[${i}].type` };
    }
  }
  return null;
}

export class FakeRealtime extends EventEmitter {
  readonly connections: RealtimeConnectionSeen[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private constructor(
    private readonly wss: WebSocketServer,
    readonly url: string,
  ) {
    super();
  }

  static async start(options: FakeRealtimeOptions): Promise<FakeRealtime> {
    let fake: FakeRealtime | undefined;
    const delay = options.handshakeDelayMs ?? 0;
    const wss = new WebSocketServer({
      host: '127.0.0.1',
      port: 0,
      verifyClient: (info, done) => {
        const decide = () => (options.apiKey !== undefined && !info.req.headers.authorization ? done(false, 401, 'Unauthorized') : done(true));
        if (delay > 0) fake?.later(delay, decide);
        else decide();
      },
    });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    fake = new FakeRealtime(wss, `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/v1/realtime`);
    const server = fake;
    wss.on('connection', (ws, req) => {
      if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
        const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        const message = `Incorrect API key provided: ${key.slice(0, 3)}*****${key.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`;
        ws.send(JSON.stringify({ type: 'error', event_id: 'event_auth', error: { type: 'invalid_request_error', code: 'invalid_api_key', message, param: null, event_id: null } }));
        ws.close(3000, 'invalid_request_error.invalid_api_key');
        return;
      }
      const protocol = options.protocol ?? 'ga';
      const model = new URL(req.url ?? '/', 'ws://x').searchParams.get('model') ?? (protocol === 'ga' ? 'gpt-realtime' : 'gpt-4o-realtime-preview');
      const own = { ...options, ...options.connections?.[server.connections.length] };
      server.serve(
        ws,
        {
          url: req.url ?? '',
          headers: req.headers,
          received: [],
          appendedBytes: 0,
          sentAudioBytes: 0,
          closed: false,
          toolOutputs: [],
          functionCalls: [],
          messages: [],
          session: defaultSession(protocol, model),
          sent: [],
          sentAt: [],
        },
        own,
      );
    });
    return fake;
  }

  /** Resolves when `test` holds, checked after every event the fake sees or sends. */
  until(test: () => boolean): Promise<void> {
    return untilChange(this, test);
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    for (const ws of this.wss.clients) ws.terminate();
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

  private serve(ws: WebSocket, seen: RealtimeConnectionSeen, options: FakeRealtimeOptions): void {
    this.connections.push(seen);
    const protocol = options.protocol ?? 'ga';
    const steps = [...options.script];
    const names =
      protocol === 'ga'
        ? { delta: 'response.output_audio.delta', audioDone: 'response.output_audio.done', transcript: 'response.output_audio_transcript.done' }
        : { delta: 'response.audio.delta', audioDone: 'response.audio.done', transcript: 'response.audio_transcript.done' };
    // Ids are the server's, unique across its sessions: each connection numbers its items from its own thousand.
    let ids = (this.connections.length - 1) * 1000;
    let eventIds = 0;
    /** The record_opt_out call waiting for its function_call_output, and whether that output has come. */
    let pendingTool: { callId: string; answered: boolean } | null = null;
    /** The response in progress: between response.created and response.done. */
    let active: { id: string; output: Json[] } | null = null;
    /** The callee item server VAD has opened (speech started, not yet stopped). */
    let speaking: { itemId: string; startMs: number; transcript: string; delayMs: number } | null = null;
    const agentItems = new Set<string>();
    let bytesSinceTurn = 0;
    let inputMs = 0;
    const emit = (event: Record<string, unknown> & { type: string }) => {
      if (ws.readyState !== WebSocket.OPEN) return;
      // Keyed as the server writes its events: type, event_id, then the event's own fields.
      const { type, ...fields } = event;
      const sent = { type, event_id: `event_${++eventIds}`, ...fields };
      seen.sent.push(sent);
      seen.sentAt.push(performance.now());
      ws.send(JSON.stringify(sent));
    };
    const emitError = (error: RealtimeErrorKind | RealtimeErrorBody, clientEventId: unknown = null) => {
      const body = typeof error === 'string' ? REALTIME_ERRORS[error] : error;
      emit({ type: 'error', error: { param: null, event_id: typeof clientEventId === 'string' ? clientEventId : null, ...body } });
    };
    const finish = (status: 'completed' | 'cancelled' | 'failed' | 'incomplete', details: Json | null) => {
      if (!active) return;
      emit({ type: 'response.done', response: { id: active.id, object: 'realtime.response', status, status_details: details, output: active.output } });
      active = null;
    };

    // Runs the script's response steps until it waits for the caller, or ends.
    const respond = () => {
      if (active) {
        emitError({
          type: 'invalid_request_error',
          code: 'conversation_already_has_active_response',
          message: `Conversation already has an active response in progress: ${active.id}. Wait until the response is finished before creating a new one.`,
        });
        return;
      }
      const response = { id: `resp_${++ids}`, output: [] as Json[] };
      active = response;
      emit({ type: 'response.created', response: { id: response.id, object: 'realtime.response', status: 'in_progress', status_details: null, output: [] } });
      if (options.rateLimits !== false) emit({ type: 'rate_limits.updated', rate_limits: options.rateLimits ?? DEFAULT_RATE_LIMITS });
      if (options.firstAudioDelayMs) {
        this.later(options.firstAudioDelayMs, () => {
          if (active === response) output(response);
          this.emit('change');
        });
      } else output(response);
    };

    // The response's output: the script's steps until it waits for the caller, or ends.
    const output = (response: { id: string; output: Json[] }) => {
      while (steps.length > 0) {
        const step = steps[0];
        if ('agent' in step) {
          steps.shift();
          const itemId = `item_agent_${++ids}`;
          agentItems.add(itemId);
          const encoding = sessionEncodings(protocol, seen.session).output;
          const audio = agentAudio(step.audioBytes ?? 1600, encoding);
          const item = { id: itemId, object: 'realtime.item', type: 'message', role: 'assistant', status: 'in_progress', content: [] };
          response.output.push(item);
          emit({ type: 'response.output_item.added', response_id: response.id, output_index: 0, item });
          if (protocol === 'ga') emit({ type: 'conversation.item.added', previous_item_id: null, item });
          const deltaBytes = (step.deltaBytes ?? 800) * (encoding === 'pcm16' ? 6 : 1);
          for (let at = 0; at < audio.length; at += deltaBytes) {
            const chunk = audio.subarray(at, at + deltaBytes);
            seen.sentAudioBytes += chunk.length;
            emit({ type: names.delta, response_id: response.id, item_id: itemId, output_index: 0, content_index: 0, delta: chunk.toString('base64') });
          }
          if (step.unfinished) return;
          const itemDone = () => {
            emit({ type: names.audioDone, response_id: response.id, item_id: itemId, output_index: 0, content_index: 0 });
            emit({ type: names.transcript, response_id: response.id, item_id: itemId, output_index: 0, content_index: 0, transcript: step.agent });
            const done = { ...item, status: step.incomplete ? 'incomplete' : 'completed', content: [{ type: protocol === 'ga' ? 'output_audio' : 'audio', transcript: step.agent }] };
            response.output[response.output.length - 1] = done;
            if (protocol === 'ga') emit({ type: 'conversation.item.done', previous_item_id: null, item: done });
          };
          if (step.transcriptAfterMs !== undefined) {
            this.later(step.transcriptAfterMs, () => {
              if (active !== response) return;
              itemDone();
              if (step.incomplete) finish('incomplete', { type: 'incomplete', reason: step.incomplete });
              else output(response);
              this.emit('change');
            });
            return;
          }
          itemDone();
          if (step.incomplete) return finish('incomplete', { type: 'incomplete', reason: step.incomplete });
        } else if ('fail' in step) {
          steps.shift();
          const body = typeof step.fail === 'string' ? REALTIME_ERRORS[step.fail] : step.fail;
          return finish('failed', { type: 'failed', error: { type: body.type, code: body.code } });
        } else if ('error' in step && step.afterBytes === undefined) {
          steps.shift();
          emitError(step.error);
        } else if ('optOut' in step || 'call' in step) {
          steps.shift();
          const name = 'call' in step ? step.call : 'record_opt_out';
          const args = JSON.stringify('call' in step ? (step.arguments ?? {}) : {});
          const offered = Array.isArray(seen.session.tools) && seen.session.tools.some((t) => isObject(t) && t.name === name);
          if (!offered) continue;
          const itemId = `item_call_${++ids}`;
          const callId = `call_${ids}`;
          const item = { id: itemId, type: 'function_call', status: 'completed', name, call_id: callId, arguments: args };
          response.output.push(item);
          seen.functionCalls.push({ name, callId, arguments: args, sentAt: performance.now(), afterMs: null });
          emit({ type: 'response.function_call_arguments.done', response_id: response.id, item_id: itemId, output_index: 0, call_id: callId, name, arguments: args });
          emit({ type: 'response.output_item.done', response_id: response.id, output_index: 0, item });
          pendingTool = { callId, answered: false };
          break;
        } else if ('pause' in step) {
          steps.shift();
          break;
        } else if ('endCall' in step) {
          steps.shift();
          const itemId = `item_call_${++ids}`;
          response.output.push({ id: itemId, type: 'function_call', status: 'completed', name: 'end_call', call_id: `call_${ids}`, arguments: '{"reason":"done"}' });
          emit({ type: 'response.function_call_arguments.done', response_id: response.id, item_id: itemId, output_index: 1, call_id: `call_${ids}`, name: 'end_call', arguments: '{"reason":"done"}' });
        } else {
          break;
        }
      }
      finish('completed', null);
    };

    const turnDetection = (): Json => {
      const detection = protocol === 'ga' ? (seen.session.audio as Json | undefined)?.input : seen.session;
      return isObject(detection) && isObject(detection.turn_detection) ? detection.turn_detection : {};
    };
    // Server VAD's end of a turn creates a response, unless the client set create_response false.
    const answerTurn = () => {
      if (turnDetection().create_response !== false) respond();
    };
    // Server VAD hears speech start: it opens a callee item, and cuts off a response in progress.
    const speechStarted = () => {
      if (!speaking) {
        speaking = { itemId: `item_callee_${++ids}`, startMs: Math.round(inputMs - bytesSinceTurn / bytesPerMs(sessionEncodings(protocol, seen.session).input)), transcript: '', delayMs: 0 };
        emit({ type: 'input_audio_buffer.speech_started', audio_start_ms: speaking.startMs, item_id: speaking.itemId });
      }
      if (turnDetection().interrupt_response !== false) finish('cancelled', { type: 'cancelled', reason: 'turn_detected' });
      return speaking.itemId;
    };
    const speechStopped = (itemId: string) => {
      speaking = null;
      emit({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: Math.round(inputMs), item_id: itemId });
      emit({ type: 'input_audio_buffer.committed', previous_item_id: null, item_id: itemId });
    };
    const transcribed = (itemId: string, transcript: string, delayMs = 0) => {
      const send = () => emit({ type: 'conversation.item.input_audio_transcription.completed', item_id: itemId, content_index: 0, transcript });
      if (delayMs > 0) {
        this.later(delayMs, () => {
          send();
          this.emit('change');
        });
      } else send();
    };
    // The client commits the input buffer: the open turn (or what was appended since the last) becomes an item.
    const commit = (clientEventId: unknown) => {
      if (speaking) {
        const { itemId, transcript, delayMs } = speaking;
        speaking = null;
        bytesSinceTurn = 0;
        emit({ type: 'input_audio_buffer.committed', previous_item_id: null, item_id: itemId });
        return transcribed(itemId, transcript, delayMs);
      }
      const ms = bytesSinceTurn / bytesPerMs(sessionEncodings(protocol, seen.session).input);
      if (ms < 100) {
        return emitError(
          {
            type: 'invalid_request_error',
            code: 'input_audio_buffer_commit_empty',
            message: `Error committing input audio buffer: buffer too small. Expected at least 100ms of audio, but buffer only has ${ms.toFixed(2)}ms of audio.`,
          },
          clientEventId,
        );
      }
      bytesSinceTurn = 0;
      const itemId = `item_callee_${++ids}`;
      emit({ type: 'input_audio_buffer.committed', previous_item_id: null, item_id: itemId });
      transcribed(itemId, '');
    };

    // The caller's audio: a scripted step is heard, or the socket dropped, once enough has arrived.
    const hear = (bytes: number) => {
      seen.appendedBytes += bytes;
      bytesSinceTurn += bytes;
      inputMs += bytes / bytesPerMs(sessionEncodings(protocol, seen.session).input);
      const step = steps[0];
      if (!step) return;
      const afterBytes = 'afterBytes' in step ? (step.afterBytes ?? 0) : null;
      if (afterBytes === null || bytesSinceTurn < afterBytes) return;
      if ('drop' in step) {
        steps.shift();
        ws.terminate();
      } else if ('error' in step) {
        steps.shift();
        bytesSinceTurn = 0;
        emitError(step.error);
      } else if ('noise' in step) {
        steps.shift();
        const itemId = speechStarted();
        bytesSinceTurn = 0;
        if (step.ends === 'nothing') return;
        speechStopped(itemId);
        if (step.ends !== 'no-transcript') transcribed(itemId, '');
      } else if ('callee' in step) {
        steps.shift();
        const itemId = speechStarted();
        bytesSinceTurn = 0;
        if (step.midTurn) {
          speaking!.transcript = step.callee;
          speaking!.delayMs = step.transcriptDelayMs ?? 0;
          return;
        }
        speechStopped(itemId);
        if (step.transcriptAfterReply) {
          answerTurn();
          transcribed(itemId, step.callee, step.transcriptDelayMs);
        } else {
          transcribed(itemId, step.callee, step.transcriptDelayMs);
          answerTurn();
        }
      }
    };

    const onClientEvent = (event: Record<string, unknown> & { type: string }) => {
      if (event.type === 'session.update') {
        const problem = sessionShapeProblem(protocol, event.session);
        if (options.sessionUpdateError) {
          emitError(options.sessionUpdateError, event.event_id);
        } else if (problem) {
          emitError({ type: 'invalid_request_error', ...problem }, event.event_id);
          if (options.onBadSession === 'close') {
            seen.refused = problem.message;
            ws.close(1008, 'invalid session');
          }
        } else {
          seen.session = merge(seen.session, event.session as Json);
          emit({ type: 'session.updated', session: seen.session });
        }
      } else if (event.type === 'conversation.item.create') {
        const item = isObject(event.item) ? event.item : {};
        if (item.type === 'function_call_output' && pendingTool && item.call_id === pendingTool.callId) {
          pendingTool.answered = true;
          seen.toolOutputs.push({ callId: String(item.call_id), output: String(item.output) });
          const call = seen.functionCalls.find((c) => c.callId === item.call_id);
          if (call) call.afterMs = performance.now() - call.sentAt;
        } else if (item.type === 'message') {
          const problem = messageProblem(protocol, item);
          if (problem) return emitError({ type: 'invalid_request_error', code: 'invalid_value', message: problem.message, param: problem.param }, event.event_id);
          const added = { id: `item_note_${++ids}`, object: 'realtime.item', type: 'message', status: 'completed', role: item.role, content: item.content };
          seen.messages.push({ role: String(item.role), text: String((item.content as Json[])[0]!.text) });
          if (protocol === 'ga') {
            emit({ type: 'conversation.item.added', previous_item_id: null, item: added });
            emit({ type: 'conversation.item.done', previous_item_id: null, item: added });
          } else emit({ type: 'conversation.item.created', previous_item_id: null, item: added });
        }
      } else if (event.type === 'response.create') {
        // A response asked for while a tool call is unanswered gets nothing from this script.
        if (!pendingTool || pendingTool.answered) {
          pendingTool = null;
          respond();
        }
      } else if (event.type === 'response.cancel') {
        if (active) finish('cancelled', { type: 'cancelled', reason: 'client_cancelled' });
        else emitError({ type: 'invalid_request_error', code: 'response_cancel_not_active', message: 'Cancellation failed: no active response found' }, event.event_id);
      } else if (event.type === 'conversation.item.truncate') {
        if (typeof event.item_id === 'string' && agentItems.has(event.item_id)) {
          emit({ type: 'conversation.item.truncated', item_id: event.item_id, content_index: event.content_index ?? 0, audio_end_ms: event.audio_end_ms });
        }
      } else if (event.type === 'input_audio_buffer.commit') {
        commit(event.event_id);
      } else if (event.type === 'input_audio_buffer.append') hear(Buffer.from(String(event.audio), 'base64').length);
    };

    const beta = seen.headers['openai-beta'] === 'realtime=v1';
    if (beta !== (protocol === 'beta')) {
      seen.refused = protocol === 'ga' ? 'beta header on the GA interface' : 'no beta header on the beta interface';
      ws.close(1008, seen.refused);
      return;
    }
    // Client events that arrive before session.created wait for it, in order.
    let waiting: Array<Record<string, unknown> & { type: string }> | null = [];
    const created = () => {
      emit({ type: 'session.created', session: seen.session });
      for (const event of waiting ?? []) if (!seen.refused) onClientEvent(event);
      waiting = null;
      this.emit('change');
    };
    if (options.sessionCreatedDelayMs) this.later(options.sessionCreatedDelayMs, created);
    else created();
    const maxMs = options.maxSessionMs ?? MAX_SESSION_MS;
    const expiry = this.later(maxMs, () => {
      emitError({ type: 'invalid_request_error', code: 'session_expired', message: sessionExpiredMessage(maxMs) });
      ws.close(1000);
    });
    ws.on('message', (data: RawData) => {
      let event: Record<string, unknown> & { type: string };
      try {
        event = JSON.parse(data.toString());
      } catch {
        emitError({ type: 'invalid_request_error', code: 'invalid_json', message: 'The server could not parse the JSON body of your event.' });
        return;
      }
      seen.received.push(event);
      if (seen.refused) return;
      if (waiting) waiting.push(event);
      else onClientEvent(event);
      this.emit('change');
    });
    ws.on('close', () => {
      clearTimeout(expiry);
      this.timers.delete(expiry);
      seen.closed = true;
      this.emit('change');
    });
  }
}
