// Audio kept while a vendor's socket is reopened mid-call: the newest `limitMs` of it, oldest dropped first, so a
// reopen that takes long costs the oldest words and never unbounded memory. The adapters send it to the new socket
// first, and count the new socket's time from its first byte.
import { LINE_BYTES_PER_MS } from './audio.js';

export class HeldAudio {
  private chunks: Buffer[] = [];
  private size = 0;
  private readonly limit: number;

  constructor(limitMs: number) {
    this.limit = limitMs * LINE_BYTES_PER_MS;
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.size;
  }

  /** Keeps a copy of `audio` (the caller may reuse its buffer), dropping the oldest past the bound. */
  push(audio: Buffer): void {
    this.chunks.push(Buffer.from(audio));
    this.size += audio.length;
    while (this.size > this.limit) {
      const over = this.size - this.limit;
      const first = this.chunks[0]!;
      if (first.length <= over) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(over);
        this.size -= over;
      }
    }
  }

  /** Everything held, oldest first; the holder is empty after. */
  take(): Buffer[] {
    const out = this.chunks;
    this.chunks = [];
    this.size = 0;
    return out;
  }
}
