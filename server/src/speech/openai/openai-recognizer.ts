// Speech-to-text on OpenAI's Realtime API in transcription mode (the generally-available interface): one WebSocket
// per call, configured as a transcription session that takes the line's G.711 mu-law as it is. Written from:
// - https://developers.openai.com/api/docs/guides/realtime-transcription: connect to
//   wss://api.openai.com/v1/realtime?intent=transcription with `Authorization: Bearer <key>` and no model in the
//   URL, then send session.update with `session.type: "transcription"`;
// - https://developers.openai.com/api/reference/resources/realtime/client-events (session.update,
//   input_audio_buffer.append with base64 audio, input_audio_buffer.commit) and the server events of the same
//   reference, as the `openai` package types them (src/resources/realtime/realtime.ts): the transcription session's
//   audio.input {format {type: "audio/pcmu"}, transcription {model, language (ISO-639-1)}, turn_detection
//   {type: "server_vad"}, noise_reduction {type: "near_field"}}; input_audio_buffer.speech_started (audio_start_ms)
//   / speech_stopped (audio_end_ms) / committed (item_id, previous_item_id);
//   conversation.item.input_audio_transcription.delta (item_id, delta) / .completed (item_id, transcript) /
//   .failed (item_id, error); and `error` events, of which the reference says most are recoverable and leave the
//   session open; a commit of less than 100 ms of audio is answered with the error input_audio_buffer_commit_empty.
//   Transcription runs per committed item and asynchronously, so the completion of one item may come after the
//   deltas of a later one: the text is kept per item_id.
//
// How it maps onto the port: an interim is the text of one item so far (its deltas accumulated), a final is an
// item's completed transcript with endOfTurn true and the span server VAD gave it (speech_started to
// speech_stopped, or to where the call stood at a flush's commit). A failed transcription loses that turn, not the
// call: it is logged and no final comes for it. Times are call time (ms of the call's audio sent); OpenAI counts
// from the first audio of its session, so a reopened session's times are offset by where the call stood then.
//
// Bad days: the handshake refused (401 refused, 429 throttled with Retry-After, 5xx unavailable) or not finished
// within the bound (stalled) rejects open(); a session.update the server refuses rejects it too. A socket that
// closes mid-call is reopened once (session.update sent again, the audio sent meanwhile appended first); a second
// loss or a failed reopen ends the stream with listener.failed. The key is sent only as a header; OpenAI's refusals
// quote keys, so their messages are never copied, only their codes.
import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from 'pino';
import type { RawData, WebSocket } from 'ws';
import { LINE_BYTES_PER_MS } from '../audio.js';
import { HeldAudio } from '../held-audio.js';
import { type ProviderFailure, ProviderError } from '../provider-error.js';
import { jsonField, openProviderSocket } from '../provider-socket.js';
import type { RecognitionListener, RecognitionOptions, RecognitionStream, SpeechRecognizer } from '../recognizer.js';

export const OPENAI_TRANSCRIPTION_URL = 'wss://api.openai.com/v1/realtime?intent=transcription';
const PROVIDER = 'openai-stt';

export interface OpenAiTranscriptionConfig {
  apiKey: string;
  /** The transcription endpoint (SVC_STT_URL); OpenAI's own unless told; `intent=transcription` is added when missing. */
  url?: string;
  /** gpt-4o-transcribe unless told. */
  model?: string;
  /** Server VAD's silence that ends a turn: 500 ms unless told. */
  silenceMs?: number;
  /** The bound on the handshake and the session's confirmation: 5 s. */
  openTimeoutMs?: number;
  /** The most audio kept while a dropped socket is reopened (the oldest goes first): 10 s. */
  reopenBufferMs?: number;
}

/** How long close() waits for the last transcriptions, unless told. */
const CLOSE_GRACE_MS = 5000;
/** Items remembered as finished, so a late event for one is known as late. */
const DONE_MEMORY = 64;
/** Items whose transcription is awaited at once: a session that never answers cannot grow the map without bound. */
const OPEN_ITEMS = 64;

export class OpenAiRecognizer implements SpeechRecognizer {
  readonly name = 'openai';
  constructor(private readonly config: OpenAiTranscriptionConfig) {}

  async open(options: RecognitionOptions, listener: RecognitionListener): Promise<RecognitionStream> {
    const stream = new OpenAiStream(this.config, options, listener);
    await stream.start();
    return stream;
  }
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * The URL of a transcription session: `intent=transcription` is added when the URL has no intent (SVC_STT_URL given
 * as the realtime endpoint), since without it the socket is a conversation session, which refuses the update.
 */
export function transcriptionUrl(url: string | undefined): string {
  const u = new URL(url ?? OPENAI_TRANSCRIPTION_URL);
  if (!u.searchParams.has('intent')) u.searchParams.set('intent', 'transcription');
  return u.toString();
}

/** ISO-639-1 from BCP-47 (`en-US` → `en`); null when there is none (the model then detects the language). */
export function iso6391(language: string): string | null {
  const primary = language.split(/[-_]/)[0]!.toLowerCase();
  return /^[a-z]{2}$/.test(primary) ? primary : null;
}

/** The session.update that makes the session a mu-law transcription session. */
export function transcriptionSession(config: OpenAiTranscriptionConfig, language: string): Json {
  const lang = iso6391(language);
  return {
    type: 'session.update',
    event_id: 'svc_session_update',
    session: {
      type: 'transcription',
      audio: {
        input: {
          format: { type: 'audio/pcmu' },
          transcription: { model: config.model ?? 'gpt-4o-transcribe', ...(lang ? { language: lang } : {}) },
          turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: config.silenceMs ?? 500 },
          noise_reduction: { type: 'near_field' },
        },
      },
    },
  };
}

/** OpenAI's reason for a refused upgrade: the error's code or type, never its message (which quotes the key). */
function refusal(_status: number, _headers: IncomingHttpHeaders, body: string): string | null {
  return jsonField(body, 'error', 'code') ?? jsonField(body, 'error', 'type');
}

/** An error event's failure when it refuses a session: passing ones are throttled or unavailable. */
function sessionErrorFailure(error: Json): ProviderFailure {
  if (error.code === 'rate_limit_exceeded') return 'throttled';
  if (error.type === 'server_error' || error.code === 'server_error') return 'unavailable';
  return 'refused';
}

interface Item {
  text: string;
  startMs: number | null;
  endMs: number | null;
  committed: boolean;
}

type Phase = 'open' | 'reopening' | 'closing' | 'done';

class OpenAiStream implements RecognitionStream {
  private readonly log: Logger;
  private ws: WebSocket | null = null;
  private phase: Phase = 'open';
  private reopened = false;
  /** Bytes handed to send(): where the call stands. */
  private callBytes = 0;
  /** The call position (bytes) of the current session's first audio, which OpenAI counts as 0 ms. */
  private streamStartBytes = 0;
  private readonly held: HeldAudio;
  private flushAfterReopen = false;
  private closeAfterReopen = false;
  private readonly items = new Map<string, Item>();
  private readonly done = new Set<string>();
  /** Commits sent and not yet answered, oldest first, with where the call stood when each was sent. */
  private commits: Array<{ eventId: string; atMs: number }> = [];
  private commitIds = 0;
  /** The socket whose session.update is awaited, and what to do once it is confirmed or refused. */
  private confirming: { ws: WebSocket; ready: () => void; refused: (e: ProviderError) => void } | null = null;
  private closeGrace: NodeJS.Timeout | null = null;
  private closing: Promise<void> | null = null;
  private closed: (() => void) | null = null;

  constructor(
    private readonly config: OpenAiTranscriptionConfig,
    private readonly options: RecognitionOptions,
    private readonly listener: RecognitionListener,
  ) {
    this.log = options.logger.child({ provider: PROVIDER, callId: options.callId });
    this.held = new HeldAudio(config.reopenBufferMs ?? 10_000);
  }

  async start(): Promise<void> {
    await this.connect((ws) => (this.ws = ws));
  }

  send(audio: Buffer): void {
    if (audio.length === 0 || this.phase === 'closing' || this.phase === 'done' || this.closeAfterReopen) return;
    this.callBytes += audio.length;
    if (this.phase === 'reopening' || !this.ws) return this.held.push(audio);
    this.append(this.ws, audio);
  }

  flush(): void {
    if (this.phase === 'reopening') this.flushAfterReopen = true;
    else if (this.phase === 'open') this.commit();
  }

  close(graceMs = CLOSE_GRACE_MS): Promise<void> {
    if (this.closing) return this.closing;
    if (this.phase === 'done') return Promise.resolve();
    this.closing = new Promise<void>((resolve) => (this.closed = resolve));
    this.closeGrace = setTimeout(() => {
      this.log.warn({ graceMs, awaiting: this.awaited() }, 'openai transcription did not finish within the grace; closing it');
      this.finish();
    }, graceMs);
    if (this.phase === 'reopening') this.closeAfterReopen = true;
    else this.beginClose();
    return this.closing;
  }

  /** Opens a socket and configures its session; `ready` runs as the session is confirmed, before anything after it. */
  private connect(ready: (ws: WebSocket) => void): Promise<void> {
    const timeoutMs = this.config.openTimeoutMs ?? 5000;
    const began = Date.now();
    return new Promise<void>((resolve, reject) => {
      openProviderSocket({
        provider: PROVIDER,
        url: transcriptionUrl(this.config.url),
        headers: { Authorization: `Bearer ${this.config.apiKey}` },
        secret: this.config.apiKey,
        timeoutMs,
        describe: refusal,
        opened: (ws) => {
          ws.on('message', (data: RawData, isBinary: boolean) => !isBinary && this.onMessage(ws, data));
          ws.on('close', (code: number) => this.onClose(ws, code));
          ws.on('error', (err: NodeJS.ErrnoException) => this.log.warn({ code: err.code ?? null }, 'openai transcription socket error'));
          // The rest of the bound, from the dial, is the session's to be confirmed in.
          const timer = setTimeout(
            () => refused(new ProviderError(PROVIDER, 'stalled', `openai-stt did not confirm the session within ${timeoutMs} ms`)),
            Math.max(0, timeoutMs - (Date.now() - began)),
          );
          const refused = (e: ProviderError) => {
            clearTimeout(timer);
            this.confirming = null;
            ws.terminate();
            reject(e);
          };
          this.confirming = {
            ws,
            ready: () => {
              clearTimeout(timer);
              this.confirming = null;
              ready(ws);
              resolve();
            },
            refused,
          };
          ws.send(JSON.stringify(transcriptionSession(this.config, this.options.language)));
        },
      }).catch(reject);
    });
  }

  private onMessage(ws: WebSocket, data: RawData): void {
    let m: Json;
    try {
      m = obj(JSON.parse(data.toString()));
    } catch {
      return;
    }
    if (this.confirming?.ws === ws) return this.onConfirming(m);
    if (ws !== this.ws || this.phase === 'done') return;
    const itemId = str(m.item_id);
    switch (m.type) {
      case 'input_audio_buffer.speech_started': {
        const at = num(m.audio_start_ms);
        const startMs = at === null ? null : this.callMs(at);
        if (itemId) this.item(itemId).startMs = startMs;
        return this.listener.speechStarted?.(startMs);
      }
      case 'input_audio_buffer.speech_stopped': {
        const at = num(m.audio_end_ms);
        if (itemId && at !== null) this.item(itemId).endMs = this.callMs(at);
        return;
      }
      case 'input_audio_buffer.committed': {
        if (!itemId || this.done.has(itemId)) return;
        const item = this.item(itemId);
        item.committed = true;
        // A commit of ours ends the item where the call stood when it was sent (server VAD's own has speech_stopped).
        const ours = item.endMs === null ? this.commits.shift() : undefined;
        if (ours) item.endMs = ours.atMs;
        return;
      }
      case 'conversation.item.input_audio_transcription.delta': {
        if (!itemId || this.done.has(itemId)) return;
        const item = this.item(itemId);
        item.text += str(m.delta) ?? '';
        const text = item.text.trim();
        if (text) this.listener.interim(text);
        return;
      }
      case 'conversation.item.input_audio_transcription.completed':
        return this.completed(itemId, (str(m.transcript) ?? '').trim());
      case 'conversation.item.input_audio_transcription.failed': {
        if (!itemId || this.done.has(itemId)) return;
        const error = obj(m.error);
        this.log.warn({ itemId, type: str(error.type), code: str(error.code) }, 'openai transcription of a turn failed; the turn is lost');
        this.forget(itemId);
        return this.maybeEndClose();
      }
      case 'error':
        return this.onError(obj(m.error));
    }
  }

  private onConfirming(m: Json): void {
    const confirming = this.confirming!;
    if (m.type === 'session.updated') {
      const session = obj(m.session);
      const format = obj(obj(obj(session.audio).input).format);
      if (session.type === 'transcription' && format.type === 'audio/pcmu') return confirming.ready();
      return confirming.refused(new ProviderError(PROVIDER, 'refused', 'openai-stt session is not a mu-law transcription session'));
    }
    if (m.type === 'error') {
      const error = obj(m.error);
      // The message may quote the request; the type, code and parameter say what went wrong.
      this.log.warn({ type: str(error.type), code: str(error.code), param: str(error.param) }, 'openai transcription session refused');
      const why = [str(error.code) ?? str(error.type), str(error.param)].filter(Boolean).join(' ');
      confirming.refused(new ProviderError(PROVIDER, sessionErrorFailure(error), `openai-stt refused the session${why ? `: ${why}` : ''}`));
    }
    // session.created (the defaults: PCM16 at 24 kHz) and anything else before the confirmation is not for us.
  }

  private onError(error: Json): void {
    const code = str(error.code);
    const eventId = str(error.event_id);
    const commit = eventId ? this.commits.findIndex((c) => c.eventId === eventId) : -1;
    if (commit >= 0) this.commits.splice(commit, 1);
    if (code === 'input_audio_buffer_commit_empty') {
      // A flush with under 100 ms since the last commit: there was nothing to transcribe.
      this.log.debug('openai transcription commit with too little audio; nothing to transcribe');
    } else {
      // Most errors leave the session open (OpenAI's reference); a fatal one closes the socket, handled as a drop.
      this.log.warn({ type: str(error.type), code, param: str(error.param), eventId }, 'openai transcription error');
    }
    this.maybeEndClose();
  }

  private completed(itemId: string | null, text: string): void {
    if (!itemId || this.done.has(itemId)) return;
    const item = this.items.get(itemId);
    this.forget(itemId);
    const span = item && item.startMs !== null && item.endMs !== null ? { startMs: item.startMs, endMs: Math.max(item.startMs, item.endMs) } : null;
    this.listener.final(text, true, span);
    // A later turn's words that came before this completion are still being heard: say so again.
    const latest = [...this.items.values()].reverse().find((i) => i.text.trim() !== '');
    if (latest) this.listener.interim(latest.text.trim());
    this.maybeEndClose();
  }

  private onClose(ws: WebSocket, code: number): void {
    if (this.confirming?.ws === ws) {
      return this.confirming.refused(new ProviderError(PROVIDER, 'unavailable', `openai-stt closed the socket before confirming the session (${code})`));
    }
    if (ws !== this.ws) return;
    this.ws = null;
    if (this.phase === 'closing') {
      if (code !== 1000 && this.awaited() > 0) this.log.warn({ code, awaiting: this.awaited() }, 'openai transcription socket closed before the last transcriptions');
      return this.finish();
    }
    if (this.phase !== 'open') return;
    if (this.reopened) return this.fail(new ProviderError(PROVIDER, 'dropped', `openai-stt socket closed twice (${code})`));
    this.log.warn({ code, lost: this.items.size }, 'openai transcription socket closed mid-call; reopening it once');
    void this.reopen();
  }

  private async reopen(): Promise<void> {
    this.phase = 'reopening';
    this.reopened = true;
    // The old session's turns will never be transcribed now.
    this.items.clear();
    this.commits = [];
    try {
      await this.connect((ws) => this.adopt(ws));
    } catch (err) {
      this.log.warn({ failure: err instanceof ProviderError ? err.failure : null }, 'openai transcription could not be reopened');
      this.fail(err instanceof ProviderError ? err : new ProviderError(PROVIDER, 'dropped', 'openai-stt could not be reopened'));
    }
  }

  /** The reopened session is confirmed: the audio held meanwhile goes first, then what was asked meanwhile. */
  private adopt(ws: WebSocket): void {
    if (this.phase !== 'reopening') {
      ws.terminate();
      return;
    }
    this.ws = ws;
    this.phase = 'open';
    this.streamStartBytes = this.callBytes - this.held.bytes;
    const held = this.held.take();
    for (const chunk of held) this.append(ws, chunk);
    this.log.info({ resentMs: (this.callBytes - this.streamStartBytes) / LINE_BYTES_PER_MS }, 'openai transcription reopened');
    if (this.flushAfterReopen) {
      this.flushAfterReopen = false;
      this.commit();
    }
    if (this.closeAfterReopen) this.beginClose();
  }

  private append(ws: WebSocket, audio: Buffer): void {
    ws.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: audio.toString('base64') }));
  }

  private commit(): void {
    if (!this.ws) return;
    const eventId = `svc_commit_${++this.commitIds}`;
    this.commits.push({ eventId, atMs: Math.round(this.callBytes / LINE_BYTES_PER_MS) });
    this.ws.send(JSON.stringify({ type: 'input_audio_buffer.commit', event_id: eventId }));
  }

  /** Commits what is left and waits for every turn to be transcribed before closing the socket. */
  private beginClose(): void {
    this.closeAfterReopen = false;
    this.commit();
    this.phase = 'closing';
    this.maybeEndClose();
  }

  /** Transcriptions still to come: commits unanswered and committed turns not yet completed or failed. */
  private awaited(): number {
    let n = this.commits.length;
    for (const item of this.items.values()) if (item.committed) n++;
    return n;
  }

  private maybeEndClose(): void {
    if (this.phase !== 'closing' || this.awaited() > 0) return;
    if (this.ws) this.ws.close(1000);
    else this.finish();
  }

  private item(id: string): Item {
    let item = this.items.get(id);
    if (!item) {
      item = { text: '', startMs: null, endMs: null, committed: false };
      this.items.set(id, item);
      if (this.items.size > OPEN_ITEMS) this.items.delete(this.items.keys().next().value!);
    }
    return item;
  }

  private forget(id: string): void {
    this.items.delete(id);
    this.done.add(id);
    if (this.done.size > DONE_MEMORY) this.done.delete(this.done.values().next().value!);
  }

  /** Call time of a moment OpenAI gives in ms of the current session's audio. */
  private callMs(sessionMs: number): number {
    return Math.round(this.streamStartBytes / LINE_BYTES_PER_MS + sessionMs);
  }

  private finish(): void {
    this.phase = 'done';
    // A session being reopened is given up too.
    this.confirming?.refused(new ProviderError(PROVIDER, 'dropped', 'openai-stt stream closed while its session was reopened'));
    if (this.closeGrace) clearTimeout(this.closeGrace);
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
    this.log.warn({ failure: error.failure }, 'openai transcription failed');
    if (!closing) this.listener.failed(error);
  }
}
