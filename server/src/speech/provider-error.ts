// How a speech or chat provider fails, in words the agent acts on whichever vendor it is: what can be tried again
// (throttled, the vendor's own fault, a socket that dropped, a stream that stalled) and what cannot (the request
// was refused: a bad key, a model or voice that does not exist). A provider's message never carries its key.

export type ProviderFailure =
  /** 401/403/400/404: the key, model, voice or request is wrong; trying again gives the same answer. */
  | 'refused'
  /** 429: the vendor asks to wait (retryAfterMs when it says how long). */
  | 'throttled'
  /** 5xx, or an error event the vendor's docs call transient. */
  | 'unavailable'
  /** The socket closed or the request failed mid-stream. */
  | 'dropped'
  /** Nothing came for longer than the stream's bound. */
  | 'stalled';

export class ProviderError extends Error {
  constructor(
    /** Which provider: `deepgram`, `openai-stt`, `chat`, `openai-tts`, `elevenlabs`, … */
    readonly provider: string,
    readonly failure: ProviderFailure,
    message: string,
    /** How long the vendor asked to wait before a retry, when it said. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }

  /** Whether the same request may be tried again. */
  get retryable(): boolean {
    return this.failure !== 'refused';
  }
}

/** The failure an HTTP status means. */
export function failureOfStatus(status: number): ProviderFailure {
  if (status === 429) return 'throttled';
  if (status >= 500) return 'unavailable';
  return 'refused';
}

/** A Retry-After header's wait in ms (seconds or an HTTP date), or null. */
export function retryAfterMs(header: string | null | undefined, now: number = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}
