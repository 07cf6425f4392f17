// ElevenLabs' text-to-speech WebSocket behind the text-to-speech port:
// `wss://api.elevenlabs.io/v1/text-to-speech/{voice_id}/stream-input?model_id=…&output_format=ulaw_8000` (the root
// overridable, SVC_TTS_URL), which
// takes text as it is written and answers audio as it is made, already 8 kHz mu-law for the line (the API
// reference, https://elevenlabs.io/docs/api-reference/text-to-speech/v-1-text-to-speech-voice-id-stream-input, and
// its AsyncAPI spec, elevenlabs/elevenlabs-docs fern/apis/api/asyncapi.yml; the websocket guide's buffering,
// elevenlabs-docs api-reference/how-to-use-websocket.mdx).
//
// The protocol as used: the first message is {text: ' '} (with voice_settings when configured: the server takes
// them in the first message only); each sentence goes as {text: 'Sentence. ', flush: true}, `flush` because the
// server otherwise buffers text until chunk_length_schedule's 120 characters and a short first sentence would wait
// for the next; {text: ''} ends the input; the answers are {audio: base64, isFinal, normalizedAlignment,
// alignment}, then {isFinal: true} and the server's close.
//
// Decisions:
// - The key goes in the handshake's `xi-api-key` header, not the first message's `xi_api_key` (the reference
//   allows both): a wrong key is then a 401 on the upgrade, `refused` before any text is sent, and the key is never
//   in a message frame that a trace or an echoing error could carry.
// - One socket per agent turn (per speak call). The stream ends with {text: ''}, after which the server closes the
//   socket; voice_settings cannot change after the first message; an interrupted turn is stopped by closing its
//   socket, and no late audio of it can arrive on the next turn's; an idle socket between turns would be closed by
//   the server's inactivity timeout (20 s by default) anyway. The socket opens when speak() is called, so its
//   handshake overlaps the model writing the first sentence.
// - Failures: a handshake refused with 401/403/400/404 is `refused`; 429 `throttled` and 5xx `unavailable`, tried
//   once more after the wait the server names (or retryWaitMs, if at most maxRetryWaitMs), as is a connection that
//   fails before the upgrade: nothing was sent or heard yet. Once open nothing is retried (text was sent, audio may
//   have been heard): an error message ({message, error}; the socket may stay open) is mapped by its `error` and
//   the socket closed; a close before isFinal is mapped by its code and reason (1008, policy violation, is a quota,
//   a key or a bad message, or a transient fault the server names); a socket that ends without a close frame is
//   `dropped`; no message for stallMs while audio is owed (after a sentence is sent, until anything comes; after
//   the end of input, until isFinal) is `stalled`. Messages carry the status, code and ElevenLabs' error token,
//   never its words.
import { WebSocket, type RawData } from 'ws';
import { AudioQueue } from '../audio-queue.js';
import { failureOfStatus, ProviderError, type ProviderFailure, retryAfterMs } from '../provider-error.js';
import type { SpeechOptions, SpeechSynthesizer } from '../voice.js';

const PROVIDER = 'elevenlabs';

/** ElevenLabs' voice settings, as the first message takes them. */
export interface ElevenLabsVoiceSettings {
  stability: number;
  similarity_boost: number;
  style?: number;
  use_speaker_boost?: boolean;
  speed?: number;
}

export interface ElevenLabsVoiceOptions {
  apiKey: string;
  /** The API root (SVC_TTS_URL); sockets open at `<baseUrl>/text-to-speech/<voice>/stream-input`. */
  baseUrl?: string;
  /** `eleven_flash_v2_5` by default (the lowest latency). */
  model?: string;
  /** The voice id when the call names none. */
  voice?: string;
  /** Sent in the first message; the voice's own settings when absent. */
  voiceSettings?: ElevenLabsVoiceSettings | null;
  /** No message for this long while audio is owed (or the handshake) is a stall; 5 s by default. */
  stallMs?: number;
  /** The wait before the one handshake retry when the server names none; 500 ms by default. */
  retryWaitMs?: number;
  /** The longest wait worth a retry on a live call; 2 s by default. */
  maxRetryWaitMs?: number;
}

export const ELEVENLABS_BASE_URL = 'wss://api.elevenlabs.io/v1';
/** A premade voice of ElevenLabs' library (George, the docs' examples' voice). */
export const ELEVENLABS_DEFAULT_VOICE = 'JBFqnCBsd6RMkjVDRZzb';

export class ElevenLabsVoice implements SpeechSynthesizer {
  readonly name = 'elevenlabs';
  // Private fields: the key stays out of anything that logs or serialises the adapter.
  readonly #apiKey: string;
  readonly #baseUrl: string;
  readonly #model: string;
  readonly #voice: string;
  readonly #voiceSettings: ElevenLabsVoiceSettings | null;
  readonly #stallMs: number;
  readonly #retryWaitMs: number;
  readonly #maxRetryWaitMs: number;

  constructor(options: ElevenLabsVoiceOptions) {
    this.#apiKey = options.apiKey;
    this.#baseUrl = (options.baseUrl ?? ELEVENLABS_BASE_URL).replace(/\/+$/, '');
    this.#model = options.model ?? 'eleven_flash_v2_5';
    this.#voice = options.voice ?? ELEVENLABS_DEFAULT_VOICE;
    this.#voiceSettings = options.voiceSettings ?? null;
    this.#stallMs = options.stallMs ?? 5000;
    this.#retryWaitMs = options.retryWaitMs ?? 500;
    this.#maxRetryWaitMs = options.maxRetryWaitMs ?? 2000;
  }

  speak(text: AsyncIterable<string>, options: SpeechOptions): AsyncIterable<Buffer> {
    return this.#speak(text, options);
  }

  /** The socket's URL for a call: the voice in the path, the model, mu-law at 8 kHz and the language in the query. */
  #socketUrl(options: SpeechOptions): URL {
    const url = new URL(`${this.#baseUrl}/text-to-speech/${encodeURIComponent(options.voice ?? this.#voice)}/stream-input`);
    url.searchParams.set('model_id', this.#model);
    url.searchParams.set('output_format', 'ulaw_8000');
    // The reference takes language_code for the v2.5 models only.
    if (/_v2_5$/.test(this.#model)) url.searchParams.set('language_code', options.language.split('-')[0]!.toLowerCase());
    return url;
  }

  async *#speak(text: AsyncIterable<string>, options: SpeechOptions): AsyncGenerator<Buffer> {
    if (options.signal.aborted) return;
    const turn = new Turn(this.#socketUrl(options), this.#apiKey, options, { stallMs: this.#stallMs, retryWaitMs: this.#retryWaitMs, maxRetryWaitMs: this.#maxRetryWaitMs });
    const onAbort = () => turn.close();
    options.signal.addEventListener('abort', onAbort, { once: true });
    let textError: unknown = null;
    const sendText = async () => {
      if (!(await turn.open())) return;
      turn.send({ text: ' ', ...(this.#voiceSettings ? { voice_settings: this.#voiceSettings } : {}) }, false);
      let sent = 0;
      try {
        for await (const piece of text) {
          if (turn.closed) return;
          const sentence = piece.trim();
          if (!sentence) continue;
          turn.send({ text: `${sentence} `, flush: true }, true);
          sent++;
        }
      } catch (err) {
        // The model's reply failed: what was sent is spoken, then the failure is thrown.
        textError = err;
      }
      // A turn with nothing to say (a reply of tool calls only) is closed on our side: there is nothing to end.
      if (sent === 0) turn.close();
      else turn.send({ text: '' }, true);
    };
    void sendText();
    try {
      for (;;) {
        const chunk = await turn.audio.next();
        if (options.signal.aborted) return;
        if (chunk === null) break;
        yield chunk;
      }
    } finally {
      options.signal.removeEventListener('abort', onAbort);
      turn.close();
    }
    if (textError) throw textError;
  }
}

interface TurnTimings {
  stallMs: number;
  retryWaitMs: number;
  maxRetryWaitMs: number;
}

/** One speak call's socket: its handshake, what it owes, and how it ended. */
class Turn {
  readonly audio = new AudioQueue();
  #ws: WebSocket | null = null;
  /** Ended by us (abort, the caller leaving, a failure already reported) or by isFinal. */
  #closed = false;
  #endSent = false;
  #stall: NodeJS.Timeout | null = null;
  readonly #opening = new AbortController();

  constructor(
    private readonly url: URL,
    private readonly apiKey: string,
    private readonly options: SpeechOptions,
    private readonly timings: TurnTimings,
  ) {}

  get closed(): boolean {
    return this.#closed;
  }

  /** Opens the socket, trying a throttled or failed handshake once more; false when the turn is over. */
  async open(): Promise<boolean> {
    const { logger, callId } = this.options;
    for (let attempt = 1; ; attempt++) {
      try {
        this.#ws = await connect(this.url, this.apiKey, this.timings.stallMs, this.#opening.signal);
        break;
      } catch (err) {
        if (this.#closed) return false;
        const failure = err as ProviderError;
        const waitMs = failure.retryAfterMs ?? this.timings.retryWaitMs;
        if (attempt > 1 || !HANDSHAKE_RETRIED.has(failure.failure) || waitMs > this.timings.maxRetryWaitMs) {
          this.#fail(failure);
          return false;
        }
        logger.warn({ callId, provider: PROVIDER, failure: failure.failure, waitMs }, 'text-to-speech socket not opened; trying it once more');
        await sleep(waitMs, this.#opening.signal);
        if (this.#closed) return false;
      }
    }
    const ws = this.#ws;
    if (this.#closed) {
      ws.close(1000);
      return false;
    }
    ws.on('message', (data: RawData) => this.#heard(data));
    ws.on('close', (code: number, reason: Buffer) => this.#ended(code, reason.toString()));
    // The error's message may quote the server; its code says enough. A close always follows.
    ws.on('error', (err: NodeJS.ErrnoException) => logger.warn({ callId, provider: PROVIDER, code: err.code ?? null }, 'text-to-speech socket error'));
    return true;
  }

  /** Sends a message; `owed` when it asks for audio, which arms the stall bound. */
  send(message: Record<string, unknown>, owed: boolean): void {
    const ws = this.#ws;
    if (this.#closed || !ws || ws.readyState !== WebSocket.OPEN) return;
    if (message.text === '') this.#endSent = true;
    ws.send(JSON.stringify(message));
    if (owed) this.#arm();
  }

  /** Ends the turn on our side: the audio ends quietly and the socket closes. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#disarm();
    this.#opening.abort();
    this.audio.end();
    this.#ws?.close(1000);
  }

  #heard(data: RawData): void {
    if (this.#closed) return;
    let message: { audio?: unknown; isFinal?: unknown; error?: unknown; message?: unknown };
    try {
      message = JSON.parse(data.toString());
    } catch {
      return;
    }
    if (typeof message.audio === 'string' && message.audio.length > 0) this.audio.push(Buffer.from(message.audio, 'base64'));
    if (message.isFinal === true) {
      this.options.logger.debug({ callId: this.options.callId, bytes: this.audio.pushed }, 'text-to-speech turn spoken');
      return this.close();
    }
    if (message.error !== undefined && message.error !== null && !message.audio) return this.#fail(errorMessageFailure(message.error));
    // After the end of input every message restarts the bound until isFinal; before it, audio owed has come.
    if (this.#endSent) this.#arm();
    else this.#disarm();
  }

  #ended(code: number, reason: string): void {
    if (this.#closed) return;
    // The protocol ends with isFinal; a normal close right after the end of input ends the turn all the same.
    if (code === 1000 && this.#endSent) return this.close();
    this.#fail(closeFailure(code, reason));
  }

  #fail(error: ProviderError): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#disarm();
    this.#opening.abort();
    this.audio.end(error);
    const ws = this.#ws;
    if (ws && ws.readyState === WebSocket.OPEN) ws.close(1000);
    else ws?.terminate();
  }

  #arm(): void {
    this.#disarm();
    this.#stall = setTimeout(() => this.#fail(new ProviderError(PROVIDER, 'stalled', `ElevenLabs sent nothing for ${this.timings.stallMs} ms`)), this.timings.stallMs);
  }

  #disarm(): void {
    if (this.#stall) clearTimeout(this.#stall);
    this.#stall = null;
  }
}

const HANDSHAKE_RETRIED = new Set<ProviderFailure>(['throttled', 'unavailable', 'dropped']);

/** Opens a socket with the key in its handshake; rejects with the ProviderError its refusal or failure means. */
function connect(url: URL, apiKey: string, timeoutMs: number, signal: AbortSignal): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    // Compression is not offered: base64 audio gains little from it and would cost CPU on every message.
    const ws = new WebSocket(url, { headers: { 'xi-api-key': apiKey }, perMessageDeflate: false });
    let settled = false;
    const settle = (error: ProviderError | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (!error) return resolve(ws);
      ws.terminate();
      reject(error);
    };
    const timer = setTimeout(() => settle(new ProviderError(PROVIDER, 'stalled', `ElevenLabs did not open the socket within ${timeoutMs} ms`)), timeoutMs);
    const onAbort = () => settle(new ProviderError(PROVIDER, 'dropped', 'ElevenLabs socket abandoned before it opened'));
    signal.addEventListener('abort', onAbort, { once: true });
    ws.once('open', () => settle(null));
    ws.once('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0;
      res.resume();
      settle(new ProviderError(PROVIDER, failureOfStatus(status), `ElevenLabs refused the socket with ${status}`, retryAfterMs(res.headers['retry-after'])));
    });
    ws.on('error', (err: NodeJS.ErrnoException) => settle(new ProviderError(PROVIDER, 'dropped', `ElevenLabs socket failed before it opened (${err.code ?? 'unknown'})`)));
  });
}

/** An error message's failure, by its `error` token (ElevenLabs' error statuses). */
function errorMessageFailure(error: unknown): ProviderError {
  const token = (typeof error === 'string' ? error : typeof error === 'object' && error !== null && 'status' in error ? String(error.status) : 'error').slice(0, 64);
  return new ProviderError(PROVIDER, failureOfToken(token), `ElevenLabs reported an error (${token})`);
}

function failureOfToken(token: string): ProviderFailure {
  if (/concurrent|rate_limit|too_many|busy/i.test(token)) return 'throttled';
  // A spent quota, a bad key, a voice or model that does not exist, a message the server will not take.
  if (/quota|api_key|unauthori[sz]ed|not_found|invalid|payment|permission/i.test(token)) return 'refused';
  return 'unavailable';
}

/** What a close before isFinal means, by its code and, for a policy violation, its reason. */
function closeFailure(code: number, reason: string): ProviderError {
  const described = (failure: ProviderFailure) => new ProviderError(PROVIDER, failure, `ElevenLabs closed the socket mid-turn (${code}${failure === 'dropped' ? '' : `, ${failure}`})`);
  if (code === 1008) {
    if (/concurrent|rate limit|too many/i.test(reason)) return described('throttled');
    if (/quota|credits|api key|unauthori[sz]ed|not found|invalid|voice_settings|must/i.test(reason)) return described('refused');
    // The inactivity timeout: our text stopped coming, a new socket would serve.
    if (/timeout|have not received/i.test(reason)) return described('dropped');
    return described('unavailable');
  }
  if (code === 1011 || code === 1012 || code === 1013 || code === 1014) return described('unavailable');
  // 1000/1001/1005 before the end, or 1006: the stream ended with words unspoken.
  return described('dropped');
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
