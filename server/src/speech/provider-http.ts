// A vendor's streamed HTTP answer (the chat model's server-sent events, the voice's PCM), on node:http and
// node:https with the connections kept alive between requests. Both HTTP adapters post here rather than through
// fetch: a streamed answer read through fetch goes through undici and WHATWG streams, whose work per request and
// per chunk lands on the event loop that also carries every call's audio, at the moment a turn ends (the chat
// request, then one speech request per sentence). docs/performance.md has the measurement.
//
// What the adapters need of an answer and no more: its status, a header, the body's chunks as they arrive, the body
// as text (for an error's type and code), and a way to stop it. The request's signal aborts it at any point: before
// the answer, the promise rejects; after it, reading the body throws. A connection that breaks mid-body makes
// reading throw too (Node ends a chunked body cut short with an error, never as a clean end).
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';

/**
 * An idle kept-alive connection is closed after this long, well before the servers' own idle bounds (OpenAI's
 * edge, nginx's 75 s), so a request is seldom written onto a connection the server is closing.
 */
const IDLE_MS = 30_000;

/** How long a body the reader is done with may take to end on its own before its connection is closed instead. */
const RELEASE_MS = 2000;

export interface ProviderResponse {
  readonly status: number;
  /** A header's value (the first, for one sent twice), or null. */
  header(name: string): string | null;
  /** The body decoded as UTF-8 text as it arrives (call before reading). */
  utf8(): void;
  /** The body's next chunk as it arrives (a string once `utf8` was called); done at its end. */
  next(): Promise<IteratorResult<Buffer | string>>;
  /** The rest of the body as text, at most `limit` bytes of it. */
  text(limit?: number): Promise<string>;
  /**
   * The reader is done with a body the server has finished (the events' `[DONE]`): what is left of it is read and
   * dropped, so its connection goes back to be reused; one that does not end soon (RELEASE_MS) is stopped.
   */
  release(): void;
  /** Stops the body where it is (its connection is closed rather than reused). */
  cancel(): void;
}

export class ProviderHttp {
  readonly #http = new http.Agent({ keepAlive: true, timeout: IDLE_MS });
  readonly #https = new https.Agent({ keepAlive: true, timeout: IDLE_MS });

  constructor(private readonly releaseMs = RELEASE_MS) {}

  /** POSTs `body`; resolves with the answer once its status and headers have come. */
  post(url: URL, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<ProviderResponse> {
    const payload = Buffer.from(body);
    const secure = url.protocol === 'https:';
    return new Promise((resolve, reject) => {
      const req = (secure ? https : http).request(url, { method: 'POST', agent: secure ? this.#https : this.#http, headers: { ...headers, 'content-length': String(payload.length) }, signal }, (res) =>
        resolve(new Answer(res, this.releaseMs)),
      );
      // Errors after the answer has come reach its reader through the body; this one only settles the promise.
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Closes the connections kept alive. */
  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}

class Answer implements ProviderResponse {
  readonly #chunks: AsyncIterator<Buffer | string>;

  constructor(
    private readonly res: IncomingMessage,
    private readonly releaseMs: number,
  ) {
    // A body nobody reads may still fail (its connection breaks): that is no crash. A reader sees the error.
    res.on('error', () => undefined);
    this.#chunks = (res as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  }

  get status(): number {
    return this.res.statusCode ?? 0;
  }

  header(name: string): string | null {
    const value = this.res.headers[name.toLowerCase()];
    return (Array.isArray(value) ? value[0] : value) ?? null;
  }

  utf8(): void {
    this.res.setEncoding('utf8');
  }

  next(): Promise<IteratorResult<Buffer | string>> {
    return this.#chunks.next();
  }

  async text(limit = 65_536): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for (let chunk = await this.next(); !chunk.done && size < limit; chunk = await this.next()) {
      const bytes = Buffer.from(chunk.value);
      chunks.push(bytes);
      size += bytes.length;
    }
    if (size >= limit) this.cancel();
    return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
  }

  release(): void {
    if (this.res.destroyed) return;
    const timer = setTimeout(() => this.cancel(), this.releaseMs);
    const drain = async () => {
      for (let chunk = await this.next(); !chunk.done; chunk = await this.next());
    };
    drain()
      .catch(() => undefined)
      .finally(() => clearTimeout(timer));
  }

  cancel(): void {
    this.res.destroy();
  }
}
