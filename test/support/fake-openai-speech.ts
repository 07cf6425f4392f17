// A local stand-in for OpenAI's speech endpoint, written from the API reference
// (https://platform.openai.com/docs/api-reference/audio/createSpeech), the text-to-speech guide
// (https://platform.openai.com/docs/guides/text-to-speech) and the error guide
// (https://platform.openai.com/docs/guides/error-codes): `POST /v1/audio/speech` with a bearer key and a JSON body
// {model, input (1 to 4096 characters), voice, response_format}, answered with raw 16-bit little-endian mono PCM at
// 24 kHz in chunked transfer encoding, a chunk at a time at a pace, as the real service streams it.
//
// Its PCM is a tone whose length follows the input (msPerChar a character), so a test knows to the sample what it
// sent (`pcmFor`). Requests are checked as the real API checks them: a wrong key is a 401 whose message quotes the
// key (the real one quotes part of it), an unknown model a 404, an unknown voice, an empty or over-long input or an
// unknown format a 400, each in OpenAI's {error: {message, type, param, code}} shape. It speaks only `pcm`; another
// format is a 400 saying so.
//
// Bad days are queued per request (`play`): an error status (429 with Retry-After, 429 insufficient_quota, 5xx),
// a socket destroyed after some body bytes, a body that stalls after some bytes (the socket stays open), or a body
// held after some bytes until the test releases it (to see what the client does while a sentence is still coming).
// Every request is recorded with its headers, body and arrival time, and `events` lists what happened in order.
// `firstAudioDelayMs` holds every answer's first audio that long after its head, as the service's time to first
// audio.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SPEECH_PCM_RATE = 24_000;
const MODELS = new Set(['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'gpt-4o-mini-tts-2025-12-15']);
const VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'onyx', 'nova', 'sage', 'shimmer', 'verse', 'marin', 'cedar'];
const FORMATS = new Set(['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm']);

/** How the fake answers one request. */
export type SpeechPlay =
  /** 200 and the whole PCM, paced. */
  | 'ok'
  /** An error answer: 429 (`rate_limit_exceeded`, or `insufficient_quota` when code says so), 5xx, any 4xx. */
  | { status: number; retryAfter?: string; code?: string }
  /** 200, then the socket destroyed once this many body bytes were sent. */
  | { dropAfterBytes: number }
  /** 200, then nothing more once this many body bytes were sent; the socket stays open. */
  | { stallAfterBytes: number }
  /** 200, then a pause once this many body bytes were sent, until `release()`. */
  | { holdAfterBytes: number };

export interface RecordedSpeechRequest {
  /** 1-based, in arrival order. */
  n: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; `any` so a test asserts its exact shape. */
  body: any;
  /** Body bytes written so far. */
  sent: number;
  /** The whole body was sent and the response ended. */
  ended: boolean;
  /** The client closed the connection before the response ended. */
  aborted: boolean;
  /** When the request arrived (performance.now()), for the benches' timings. */
  at: number;
}

export interface FakeOpenAiSpeechOptions {
  /** The key it accepts. */
  apiKey: string;
  /** Speech per input character; 50 ms by default. */
  msPerChar?: number;
  /** Body bytes a chunk; 4800 (100 ms) by default. An odd size splits samples across chunks. */
  chunkBytes?: number;
  /** Pause between chunks; 5 ms by default. */
  intervalMs?: number;
  /** Pause between the head and the first chunk of audio; none by default. */
  firstAudioDelayMs?: number;
}

export interface FakeOpenAiSpeech {
  /** The API root to configure, `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  requests: RecordedSpeechRequest[];
  /** `request 1`, `first-byte 1`, `held 1`, `end 1`, `aborted 1`, `dropped 1`, `stalled 1`, `status 1 429`. */
  events: string[];
  /** Queues answers, used in order; a request with none queued is answered 'ok'. */
  play(...plays: SpeechPlay[]): void;
  /** Lets every held body go on. */
  release(): void;
  /** The PCM it speaks for an input. */
  pcmFor(input: string): Buffer;
  close(): Promise<void>;
}

export async function startFakeOpenAiSpeech(options: FakeOpenAiSpeechOptions): Promise<FakeOpenAiSpeech> {
  const msPerChar = options.msPerChar ?? 50;
  const chunkBytes = options.chunkBytes ?? 4800;
  const intervalMs = options.intervalMs ?? 5;
  const firstAudioDelayMs = options.firstAudioDelayMs ?? 0;
  const requests: RecordedSpeechRequest[] = [];
  const events: string[] = [];
  const queue: SpeechPlay[] = [];
  let held: Array<() => void> = [];

  const release = () => {
    for (const resolve of held) resolve();
    held = [];
  };

  // Every answer is the start of one tone, made once and grown as a longer input asks: a bench's hundreds of
  // requests at once would otherwise each compute theirs on the fake's one thread, and stall the calls it measures.
  let tone = Buffer.alloc(0);
  const pcmFor = (input: string): Buffer => {
    const samples = Math.round((input.length * msPerChar * SPEECH_PCM_RATE) / 1000);
    if (tone.length < samples * 2) {
      tone = Buffer.alloc(Math.max(samples * 2, tone.length * 2));
      for (let i = 0; i < tone.length / 2; i++) tone.writeInt16LE(Math.round(6000 * Math.sin((2 * Math.PI * 440 * i) / SPEECH_PCM_RATE)), i * 2);
    }
    return tone.subarray(0, samples * 2);
  };

  const error = (res: ServerResponse, status: number, body: { message: string; type: string; param?: string | null; code: string | null }, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ error: { param: null, ...body } }));
  };

  const stream = async (res: ServerResponse, record: RecordedSpeechRequest, pcm: Buffer, play: SpeechPlay) => {
    res.writeHead(200, { 'content-type': 'audio/pcm', 'transfer-encoding': 'chunked' });
    const dropAt = typeof play === 'object' && 'dropAfterBytes' in play ? play.dropAfterBytes : null;
    const stallAt = typeof play === 'object' && 'stallAfterBytes' in play ? play.stallAfterBytes : null;
    let holdAt = typeof play === 'object' && 'holdAfterBytes' in play ? play.holdAfterBytes : null;
    let closed = false;
    res.on('close', () => {
      closed = true;
      if (!record.ended && !events.includes(`dropped ${record.n}`)) {
        record.aborted = true;
        events.push(`aborted ${record.n}`);
      }
    });
    // The head goes out at once, as the real service sends it before the first audio.
    res.flushHeaders();
    if (firstAudioDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, firstAudioDelayMs));
    while (!closed) {
      if (dropAt !== null && record.sent >= dropAt) {
        events.push(`dropped ${record.n}`);
        res.socket?.destroy();
        return;
      }
      if (stallAt !== null && record.sent >= stallAt) {
        events.push(`stalled ${record.n}`);
        return;
      }
      if (holdAt !== null && record.sent >= holdAt) {
        holdAt = null;
        events.push(`held ${record.n}`);
        await new Promise<void>((resolve) => held.push(resolve));
        if (closed) return;
      }
      if (record.sent >= pcm.length) {
        record.ended = true;
        events.push(`end ${record.n}`);
        res.end();
        return;
      }
      const limit = Math.min(...[pcm.length, record.sent + chunkBytes, dropAt, stallAt, holdAt].filter((n): n is number => n !== null && n > record.sent));
      res.write(pcm.subarray(record.sent, limit));
      if (record.sent === 0) events.push(`first-byte ${record.n}`);
      record.sent = limit;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/audio/speech') return error(res, 404, { message: `Invalid URL (${req.method} ${req.url})`, type: 'invalid_request_error', code: null });
      let body: any = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {}
      const record: RecordedSpeechRequest = { n: requests.length + 1, method: req.method, path: req.url, headers: req.headers, body, sent: 0, ended: false, aborted: false, at: performance.now() };
      requests.push(record);
      events.push(`request ${record.n}`);
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (key !== options.apiKey) {
        events.push(`status ${record.n} 401`);
        return error(res, 401, {
          message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        });
      }
      if (body === null || typeof body !== 'object') return error(res, 400, { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error', code: null });
      const invalid = (param: string, message: string) => error(res, 400, { message, type: 'invalid_request_error', param, code: 'invalid_value' });
      if (typeof body.model !== 'string' || !MODELS.has(body.model)) {
        return error(res, 404, { message: `The model \`${body.model}\` does not exist or you do not have access to it.`, type: 'invalid_request_error', code: 'model_not_found' });
      }
      if (typeof body.input !== 'string' || body.input.length === 0) return invalid('input', "Invalid 'input': string too short. Expected a string with minimum length 1.");
      if (body.input.length > 4096) return invalid('input', `Invalid 'input': string too long. Expected a string with maximum length 4096, but got a string with length ${body.input.length} instead.`);
      if (!VOICES.includes(body.voice)) return invalid('voice', `Invalid value: '${body.voice}'. Supported values are: ${VOICES.map((v) => `'${v}'`).join(', ')}.`);
      const format = body.response_format ?? 'mp3';
      if (!FORMATS.has(format)) return invalid('response_format', `Invalid value: '${format}'. Supported values are: 'mp3', 'opus', 'aac', 'flac', 'wav', and 'pcm'.`);
      if (format !== 'pcm') return invalid('response_format', `This fake speaks 'pcm' only, not '${format}'.`);

      const play = queue.shift() ?? 'ok';
      if (typeof play === 'object' && 'status' in play) {
        events.push(`status ${record.n} ${play.status}`);
        const headers: Record<string, string> = play.retryAfter !== undefined ? { 'retry-after': play.retryAfter } : {};
        if (play.status === 429 && play.code === 'insufficient_quota') {
          return error(res, 429, { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', code: 'insufficient_quota' });
        }
        if (play.status === 429) {
          return error(
            res,
            429,
            { message: `Rate limit reached for ${body.model} on requests per min (RPM): Limit 50, Used 50, Requested 1.`, type: 'requests', code: 'rate_limit_exceeded' },
            headers,
          );
        }
        if (play.status >= 500) return error(res, play.status, { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', code: null }, headers);
        return error(res, play.status, { message: 'The request was refused.', type: 'invalid_request_error', code: play.code ?? null }, headers);
      }
      void stream(res, record, pcmFor(body.input), play);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    events,
    play: (...plays) => void queue.push(...plays),
    release,
    pcmFor,
    async close() {
      release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
