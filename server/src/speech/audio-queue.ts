// The hand-over between a vendor's stream (an HTTP body, a socket) that pushes audio as it arrives and the speak()
// iterator that takes it in order. The vendor's side never waits for the reader: a sentence's audio is a few
// hundred kB of mu-law at most, so it is buffered whole rather than pushed back on the vendor, and a failure is
// delivered after the audio that came before it.

export class AudioQueue {
  readonly #chunks: Buffer[] = [];
  #ended = false;
  #error: Error | null = null;
  #wake: (() => void) | null = null;
  /** Bytes pushed so far (whether or not they were taken yet). */
  pushed = 0;

  push(chunk: Buffer): void {
    if (this.#ended || chunk.length === 0) return;
    this.#chunks.push(chunk);
    this.pushed += chunk.length;
    this.#notify();
  }

  /** No more audio: the reader gets what is queued, then null, or then `error` thrown. */
  end(error?: Error): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error ?? null;
    this.#notify();
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** The next chunk; null once the queue ended and is empty; throws the failure that ended it. */
  async next(): Promise<Buffer | null> {
    for (;;) {
      const chunk = this.#chunks.shift();
      if (chunk) return chunk;
      if (this.#ended) {
        if (this.#error) throw this.#error;
        return null;
      }
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }
}
