// OpenAI's speech endpoint behind the text-to-speech port: `POST <base>/audio/speech` with {model, voice, input,
// response_format: 'pcm'} answers raw 16-bit little-endian mono PCM at 24 kHz, streamed with chunked transfer
// encoding as it is generated (the API reference's createSpeech: input up to 4096 characters, response_format
// mp3/opus/aac/flac/wav/pcm, https://platform.openai.com/docs/api-reference/audio/createSpeech; the text-to-speech
// guide's formats and streaming, https://platform.openai.com/docs/guides/text-to-speech; the OpenAPI spec's
// PcmAudioFormat, "Only a 24kHz sample rate is supported"; openai-node's src/resources/audio/speech.ts). A plain
// POST (provider-http.ts), as for the chat model: the `openai` package's current major needs Node 22.
//
// Shaped for a phone line:
// - One request per sentence, so the first sentence is spoken while the model still writes the rest. The next
//   sentence's request starts while the one before it streams (one ahead at most, so an interrupted turn wastes
//   one request), and audio is yielded strictly in order.
// - PCM is resampled to 8 kHz and encoded as mu-law chunk by chunk as it arrives; an odd byte and the
//   resampler's position carry over to the next chunk, so the chunks join without a click.
// - A refusal (400/401/403/404, or a 429 whose code says the quota is spent) is thrown at once. A throttle (429)
//   or the vendor's own failure (5xx), or a connection that fails before any audio of the sentence came, is tried
//   once more after the wait the vendor names (or retryWaitMs), if that wait is at most maxRetryWaitMs: nothing
//   of the sentence reached the line yet, so the retry cannot repeat words. A body cut mid-stream is `dropped`,
//   a stream silent for stallMs is `stalled`, and neither is retried: part of the sentence was heard, or the
//   callee already waited stallMs.
// - The key goes in the Authorization header only. Error messages carry the status and OpenAI's error type and
//   code, never its message: the message of a 401 quotes part of the key.
import { encodeMuLaw, LINE_RATE, pcm16, StreamResampler } from '../audio.js';
import { AudioQueue } from '../audio-queue.js';
import { failureOfStatus, ProviderError, retryAfterMs } from '../provider-error.js';
import { ProviderHttp, type ProviderResponse } from '../provider-http.js';
import type { SpeechOptions, SpeechSynthesizer } from '../voice.js';

const PROVIDER = 'openai-tts';
/** The only rate OpenAI's `pcm` comes in. */
export const OPENAI_PCM_RATE = 24_000;

export interface OpenAiVoiceOptions {
  apiKey: string;
  /** The API root; requests go to `<baseUrl>/audio/speech`. */
  baseUrl?: string;
  /** `gpt-4o-mini-tts` by default. */
  model?: string;
  /** The voice when the call names none; `alloy` by default. */
  voice?: string;
  /** No byte (of the answer's head or its body) for this long is a stall; 5 s by default. */
  stallMs?: number;
  /** The wait before the one retry when the vendor names none; 500 ms by default. */
  retryWaitMs?: number;
  /** The longest wait worth a retry on a live call; a Retry-After beyond it is thrown at once. 2 s by default. */
  maxRetryWaitMs?: number;
  /** The connections the requests go over (kept alive between them). */
  http?: ProviderHttp;
}

export class OpenAiVoice implements SpeechSynthesizer {
  readonly name = 'openai';
  // Private fields: the key stays out of anything that logs or serialises the adapter.
  readonly #apiKey: string;
  readonly #url: URL;
  readonly #model: string;
  readonly #voice: string;
  readonly #stallMs: number;
  readonly #retryWaitMs: number;
  readonly #maxRetryWaitMs: number;
  readonly #http: ProviderHttp;

  constructor(options: OpenAiVoiceOptions) {
    this.#apiKey = options.apiKey;
    this.#url = new URL(`${(options.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '')}/audio/speech`);
    this.#model = options.model ?? 'gpt-4o-mini-tts';
    this.#voice = options.voice ?? 'alloy';
    this.#stallMs = options.stallMs ?? 5000;
    this.#retryWaitMs = options.retryWaitMs ?? 500;
    this.#maxRetryWaitMs = options.maxRetryWaitMs ?? 2000;
    this.#http = options.http ?? new ProviderHttp();
  }

  speak(text: AsyncIterable<string>, options: SpeechOptions): AsyncIterable<Buffer> {
    return this.#speak(text, options);
  }

  async *#speak(text: AsyncIterable<string>, options: SpeechOptions): AsyncGenerator<Buffer> {
    if (options.signal.aborted) return;
    // Ends every request of the turn: the caller's abort, or the caller leaving the iterator early.
    const turn = new AbortController();
    /** Sentences whose requests started, in order; [0] is the one being read, [1] the one ahead. */
    const started: AudioQueue[] = [];
    const changed = new Wakeup();
    const slotFreed = new Wakeup();
    let textEnded = false;
    let textError: unknown = null;
    const onAbort = () => {
      turn.abort();
      changed.wake();
      slotFreed.wake();
    };
    options.signal.addEventListener('abort', onAbort, { once: true });

    const readText = async () => {
      try {
        for await (const piece of text) {
          const sentence = piece.trim();
          if (!sentence) continue;
          while (started.length >= 2 && !turn.signal.aborted) await slotFreed.wait();
          if (turn.signal.aborted) return;
          started.push(this.#start(sentence, turn.signal, options));
          changed.wake();
        }
      } catch (err) {
        textError = err;
      } finally {
        textEnded = true;
        changed.wake();
      }
    };
    void readText();

    try {
      for (;;) {
        while (started.length === 0 && !textEnded && !turn.signal.aborted) await changed.wait();
        if (turn.signal.aborted) return;
        const sentence = started[0];
        if (!sentence) {
          // The model's reply failed after the sentences before the failure were spoken.
          if (textError) throw textError;
          return;
        }
        for (;;) {
          const chunk = await sentence.next();
          if (turn.signal.aborted || chunk === null) break;
          yield chunk;
        }
        started.shift();
        slotFreed.wake();
      }
    } finally {
      options.signal.removeEventListener('abort', onAbort);
      onAbort();
    }
  }

  /** Starts one sentence's request; its audio arrives in the queue as the answer streams. */
  #start(input: string, signal: AbortSignal, options: SpeechOptions): AudioQueue {
    const queue = new AudioQueue();
    this.#synthesize(input, signal, options, queue).then(
      () => queue.end(),
      (err: Error) => queue.end(err),
    );
    return queue;
  }

  async #synthesize(input: string, signal: AbortSignal, options: SpeechOptions, queue: AudioQueue): Promise<void> {
    const { logger, callId } = options;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#request(input, signal, options, queue);
        return;
      } catch (err) {
        if (signal.aborted) return;
        if (!(err instanceof ProviderError) || attempt > 1 || queue.pushed > 0 || !RETRIED.has(err.failure)) throw err;
        const waitMs = err.retryAfterMs ?? this.#retryWaitMs;
        if (waitMs > this.#maxRetryWaitMs) throw err;
        logger.warn({ callId, provider: PROVIDER, failure: err.failure, waitMs }, 'text-to-speech request failed before any audio; trying it once more');
        await sleep(waitMs, signal);
        if (signal.aborted) return;
      }
    }
  }

  /** One attempt: the POST, then its body resampled and encoded into the queue as it arrives. */
  async #request(input: string, turn: AbortSignal, options: SpeechOptions, queue: AudioQueue): Promise<void> {
    const controller = new AbortController();
    const onTurnAbort = () => controller.abort();
    turn.addEventListener('abort', onTurnAbort, { once: true });
    let stalled = false;
    const stall = () => {
      stalled = true;
      controller.abort();
    };
    let timer = setTimeout(stall, this.#stallMs);
    const heard = () => {
      clearTimeout(timer);
      timer = setTimeout(stall, this.#stallMs);
    };
    const failed = (err: unknown) => this.#failure(err, stalled);
    const started = performance.now();
    try {
      let response: ProviderResponse;
      try {
        const body = JSON.stringify({ model: this.#model, voice: options.voice ?? this.#voice, input, response_format: 'pcm' });
        response = await this.#http.post(this.#url, { Authorization: `Bearer ${this.#apiKey}`, 'Content-Type': 'application/json' }, body, controller.signal);
      } catch (err) {
        throw failed(err);
      }
      if (response.status < 200 || response.status > 299) throw await refusal(response, failed);
      heard();
      const resampler = new StreamResampler(OPENAI_PCM_RATE, LINE_RATE);
      let odd: Buffer = Buffer.alloc(0);
      let firstAudioMs: number | null = null;
      const read = async () => {
        try {
          return await response.next();
        } catch (err) {
          throw failed(err);
        }
      };
      for (let chunk = await read(); !chunk.done; chunk = await read()) {
        heard();
        const bytes = chunk.value as Buffer;
        const { samples, rest } = pcm16(odd.length ? Buffer.concat([odd, bytes]) : bytes);
        odd = Buffer.from(rest);
        const audio = resampler.push(samples);
        if (audio.length) {
          firstAudioMs ??= Math.round(performance.now() - started);
          queue.push(encodeMuLaw(audio));
        }
      }
      queue.push(encodeMuLaw(resampler.flush()));
      options.logger.debug({ callId: options.callId, chars: input.length, bytes: queue.pushed, firstAudioMs }, 'text-to-speech sentence spoken');
    } finally {
      clearTimeout(timer);
      turn.removeEventListener('abort', onTurnAbort);
    }
  }

  /** What a request or body failure was: our stall timer's abort, or the connection failing. */
  #failure(err: unknown, stalled: boolean): ProviderError {
    if (stalled) return new ProviderError(PROVIDER, 'stalled', `OpenAI speech sent nothing for ${this.#stallMs} ms`);
    // The error's code (ECONNREFUSED, ECONNRESET…) says what happened; its message may quote the address.
    const own = (err as { code?: unknown }).code;
    const code = typeof own === 'string' ? own : err instanceof Error ? err.name : 'unknown';
    return new ProviderError(PROVIDER, 'dropped', `OpenAI speech request failed mid-stream (${code})`);
  }
}

const RETRIED = new Set(['throttled', 'unavailable', 'dropped']);

/** The failure a non-2xx answer means, from its status, Retry-After and OpenAI's error type and code. */
async function refusal(response: ProviderResponse, failed: (err: unknown) => ProviderError): Promise<ProviderError> {
  let type: string | null = null;
  let code: string | null = null;
  try {
    const body = JSON.parse(await response.text()) as { error?: { type?: unknown; code?: unknown } };
    if (typeof body.error?.type === 'string') type = body.error.type.slice(0, 64);
    if (typeof body.error?.code === 'string') code = body.error.code.slice(0, 64);
  } catch (err) {
    // A body that is not JSON says nothing more; one that stalls is a stall.
    const failure = failed(err);
    if (failure.failure === 'stalled') return failure;
  }
  // A spent quota answers 429 too, and waiting does not refill it.
  const failure = code === 'insufficient_quota' ? 'refused' : failureOfStatus(response.status);
  const detail = [type, code].filter((s) => s !== null).join(', ');
  return new ProviderError(PROVIDER, failure, `OpenAI speech answered ${response.status}${detail ? ` (${detail})` : ''}`, retryAfterMs(response.header('retry-after')));
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

/** Wakes every waiter at once. */
class Wakeup {
  #waiters: Array<() => void> = [];
  wait(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
  wake(): void {
    for (const resolve of this.#waiters.splice(0)) resolve();
  }
}
