// The chat model of any OpenAI-compatible server (OpenAI, vLLM, llama.cpp's llama-server, …): one streamed
// `POST <base>/chat/completions` per reply, read as server-sent events with eventsource-parser. Text is yielded as
// it comes; tool calls arrive in pieces keyed by `index` (id and name first, arguments split across chunks, several
// at once) and are yielded whole once the model says it is done with them.
//
// The servers differ on bad days, and each way is read as the ProviderError the session acts on: an HTTP status
// (401/403/400/404 refused, 429 throttled with Retry-After, 5xx unavailable); an error sent inside a 200 stream
// (vLLM and llama.cpp: `data: {"error": …}`, vLLM's flat `{"object": "error", …}`, older llama.cpp's non-standard
// `error: {…}` field) unavailable; a body that ends before the reply does dropped; no first token, or then no
// chunk, within its bound stalled. An abort through the request's signal ends the reply quietly. A plain POST
// (speech/provider-http.ts): the `openai` package's current major needs Node 22. The key goes only into the
// Authorization header: error bodies are never read into a message, since providers echo the key in them.
import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import { ProviderError, failureOfStatus, retryAfterMs } from '../speech/provider-error.js';
import { ProviderHttp, type ProviderResponse } from '../speech/provider-http.js';
import type { ChatDelta, ChatModel, ChatRequest, ToolCallRequest } from './chat-model.js';

export const PROVIDER = 'chat';
/** No chunk for this long, once the reply has begun, means the stream stalled. */
export const DEFAULT_STALL_MS = 10_000;
/**
 * No first token this long after the request means the server is stuck: past it the callee has heard seconds of
 * silence, and a fresh request (or the session's apology) serves them better than waiting on.
 */
export const DEFAULT_FIRST_TOKEN_MS = 8_000;

export interface OpenAiCompatibleOptions {
  /** The API root, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8000/v1`. */
  baseUrl: string;
  /** Sent as a bearer token; empty or absent for a local server that takes none. */
  apiKey?: string;
  model: string;
  stallMs?: number;
  firstTokenMs?: number;
  /**
   * Whether to ask for the usage chunk (`stream_options.include_usage`), logged at debug. OpenAI, vLLM and
   * llama.cpp accept it; turn it off for a server that rejects unknown fields.
   */
  streamOptions?: boolean;
  /** The connections the requests go over (kept alive between them). */
  http?: ProviderHttp;
}

interface ToolCallSlot {
  id: string;
  name: string;
  arguments: string;
}

/** What a streamed chunk carries, as far as a reply is concerned. */
interface ChunkChoice {
  index?: number;
  delta?: { content?: unknown; tool_calls?: unknown };
  finish_reason?: unknown;
}

/** A parsed SSE event: a data line, or older llama.cpp's `error:` field. */
type SseEvent = { data: string } | { errorField: string };

export class OpenAiCompatibleChatModel implements ChatModel {
  readonly name = 'openai-compatible';
  // Private fields: the key stays out of anything that logs or serialises the model.
  readonly #apiKey: string;
  readonly #url: URL;
  readonly #model: string;
  readonly #stallMs: number;
  readonly #firstTokenMs: number;
  readonly #streamOptions: boolean;
  readonly #http: ProviderHttp;

  constructor(options: OpenAiCompatibleOptions) {
    this.#apiKey = options.apiKey ?? '';
    this.#url = new URL(`${options.baseUrl.replace(/\/+$/, '')}/chat/completions`);
    this.#model = options.model;
    this.#stallMs = options.stallMs ?? DEFAULT_STALL_MS;
    this.#firstTokenMs = options.firstTokenMs ?? DEFAULT_FIRST_TOKEN_MS;
    this.#streamOptions = options.streamOptions ?? true;
    this.#http = options.http ?? new ProviderHttp();
  }

  /** The request body: tools and tool_choice only when there are tools (OpenAI refuses an empty list). */
  private body(request: Pick<ChatRequest, 'messages' | 'tools'>): Record<string, unknown> {
    return {
      model: this.#model,
      messages: request.messages,
      stream: true,
      ...(this.#streamOptions ? { stream_options: { include_usage: true } } : {}),
      ...(request.tools.length > 0 ? { tools: request.tools, tool_choice: 'auto' } : {}),
    };
  }

  async *reply(request: ChatRequest): AsyncIterable<ChatDelta> {
    if (request.signal.aborted) return;
    const abort = new AbortController();
    const onAbort = () => abort.abort();
    request.signal.addEventListener('abort', onAbort, { once: true });
    // The bound in force: until the first token, an overall deadline from the request; then one per read.
    const firstTokenBy = performance.now() + this.#firstTokenMs;
    let begun = false;
    // Set by the bound's timer (an object, so the reads after an await see the timer's write).
    const bound: { stalled: string | null } = { stalled: null };
    const bounded = async <T>(work: Promise<T>): Promise<T> => {
      const ms = begun ? this.#stallMs : firstTokenBy - performance.now();
      const why = begun ? `no chunk for ${this.#stallMs} ms` : `no first token within ${this.#firstTokenMs} ms`;
      const timer = setTimeout(
        () => {
          bound.stalled = why;
          abort.abort();
        },
        Math.max(0, ms),
      );
      try {
        return await work;
      } finally {
        clearTimeout(timer);
      }
    };
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    let res: ProviderResponse | undefined;
    /** The body was read to its end: nothing is left to stop. */
    let ended = false;
    /** The server said [DONE]: what is left of the body is its end. */
    let done = false;
    try {
      try {
        res = await bounded(this.#http.post(this.#url, headers, JSON.stringify(this.body(request)), abort.signal));
      } catch (err) {
        if (request.signal.aborted) return;
        if (bound.stalled) throw new ProviderError(PROVIDER, 'stalled', `the chat server sent ${bound.stalled}`);
        throw new ProviderError(PROVIDER, 'unavailable', `the chat request failed (${errorCode(err)})`);
      }
      if (res.status < 200 || res.status > 299) {
        const failure = failureOfStatus(res.status);
        const wait = failure === 'throttled' ? waitOf(res) : null;
        throw new ProviderError(PROVIDER, failure, `the chat server answered HTTP ${res.status}`, wait);
      }

      const events: SseEvent[] = [];
      const parser = createParser({
        onEvent: (e: EventSourceMessage) => void events.push({ data: e.data }),
        // Older llama.cpp servers send a failure as an `error:` field, which SSE does not define.
        onError: (e: ParseError) => void (e.type === 'unknown-field' && e.field === 'error' && events.push({ errorField: e.value ?? '' })),
      });
      res.utf8();
      const slots = new Map<number, ToolCallSlot>();
      let finished = false;
      for (;;) {
        let chunk: IteratorResult<Buffer | string>;
        try {
          chunk = await bounded(res.next());
        } catch (err) {
          if (request.signal.aborted) return;
          // Past finish_reason the reply is whole; what is lost is the usage chunk.
          if (finished) break;
          if (bound.stalled) throw new ProviderError(PROVIDER, 'stalled', `the chat server sent ${bound.stalled}`);
          throw new ProviderError(PROVIDER, 'dropped', `the chat stream broke mid-reply (${errorCode(err)})`);
        }
        if (chunk.done) {
          ended = true;
          parser.reset({ consume: true });
        } else parser.feed(chunk.value as string);
        for (const event of events.splice(0)) {
          // Aborted while the consumer held a delta: nothing more is its to hear.
          if (request.signal.aborted) return;
          if ('errorField' in event) throw midStreamError(parseJson(event.errorField));
          if (event.data === '[DONE]') {
            done = true;
            break;
          }
          const payload = parseJson(event.data);
          if (payload === undefined || payload === null || typeof payload !== 'object') continue;
          if ('error' in payload || (payload as { object?: unknown }).object === 'error') throw midStreamError(payload);
          const { choices, usage } = payload as { choices?: unknown; usage?: unknown };
          if (usage) request.logger.debug({ callId: request.callId, usage }, 'chat usage');
          const choice = Array.isArray(choices) ? (choices as ChunkChoice[]).find((c) => (c.index ?? 0) === 0) : undefined;
          if (!choice) continue;
          const text = choice.delta?.content;
          if (typeof text === 'string' && text !== '') {
            begun = true;
            yield { type: 'text', text };
          }
          if (Array.isArray(choice.delta?.tool_calls) && choice.delta.tool_calls.length > 0) {
            begun = true;
            assemble(slots, choice.delta.tool_calls);
          }
          if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') {
            begun = true;
            finished = true;
            // The calls are whole: hand them over without waiting for the usage chunk.
            if (choice.finish_reason === 'tool_calls') yield* whole(slots);
          }
        }
        if (done || chunk.done) break;
      }
      if (!finished && !done) throw new ProviderError(PROVIDER, 'dropped', 'the chat stream ended before the reply was finished');
      yield* whole(slots);
    } finally {
      request.signal.removeEventListener('abort', onAbort);
      // Stops the body when the reply ends early (an error, an abort, a consumer that stops reading). A body read to
      // its end needs nothing; one whose server said [DONE] is left to end, so its connection is reused.
      if (!ended && done && !request.signal.aborted) res?.release();
      else if (!ended) {
        abort.abort();
        res?.cancel();
      }
    }
  }
}

/** Adds a chunk's tool-call pieces to the calls being assembled, keyed by index. */
function assemble(slots: Map<number, ToolCallSlot>, pieces: readonly unknown[]): void {
  for (const raw of pieces) {
    const piece = raw as { index?: unknown; id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    const id = typeof piece.id === 'string' && piece.id !== '' ? piece.id : null;
    // A server that leaves out the index (it is the spec's) starts a new call with each new id.
    let index = typeof piece.index === 'number' ? piece.index : null;
    if (index === null) {
      const known = id === null ? undefined : [...slots].find(([, s]) => s.id === id);
      index = known ? known[0] : id !== null || slots.size === 0 ? slots.size : Math.max(...slots.keys());
    }
    const slot = slots.get(index) ?? { id: '', name: '', arguments: '' };
    slots.set(index, slot);
    if (id !== null && slot.id === '') slot.id = id;
    const name = piece.function?.name;
    if (typeof name === 'string' && slot.name === '') slot.name = name;
    const args = piece.function?.arguments;
    if (typeof args === 'string') slot.arguments += args;
  }
}

/** The assembled calls in index order, and forgets them; a call that never got a name is no call. */
function* whole(slots: Map<number, ToolCallSlot>): Generator<ChatDelta> {
  const calls = [...slots].sort(([a], [b]) => a - b);
  slots.clear();
  for (const [index, slot] of calls) {
    if (slot.name === '') continue;
    const call: ToolCallRequest = { id: slot.id || `call_${index}`, name: slot.name, arguments: slot.arguments };
    yield { type: 'tool_call', call };
  }
}

/** How long a 429 asks to wait: OpenAI's `retry-after-ms` when sent, else the standard Retry-After. */
function waitOf(res: ProviderResponse): number | null {
  const ms = Number(res.header('retry-after-ms') ?? Number.NaN);
  return Number.isFinite(ms) && ms >= 0 ? Math.round(ms) : retryAfterMs(res.header('retry-after'));
}

/** An error sent inside the stream: its type and code when they are plain words; its message is not kept. */
function midStreamError(payload: unknown): ProviderError {
  const inner = (payload as { error?: unknown } | undefined)?.error;
  const error = (inner !== null && typeof inner === 'object' ? inner : payload) as { type?: unknown; code?: unknown } | undefined;
  const words = [error?.type, error?.code].filter((w) => (typeof w === 'string' && /^[\w.-]{1,64}$/.test(w)) || typeof w === 'number').join(' ');
  return new ProviderError(PROVIDER, 'unavailable', `the chat server sent an error mid-stream${words ? ` (${words})` : ''}`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A short, secret-free name for a network error: its code (ECONNREFUSED…) or its class. */
function errorCode(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown } })?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string') return code;
  return err instanceof Error ? err.name : 'unknown error';
}
