// Recently spoken utterances, least recently used first out. Synthesis is deterministic, so a hit is exactly the
// audio a new synthesis would give; scripted calls repeat most of their lines, so most turns hit.

export class UtteranceCache {
  private readonly entries = new Map<string, Int16Array>();
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  /** Bytes of samples held; never above maxBytes. */
  get bytes(): number {
    return this.size;
  }

  get(key: string): Int16Array | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, samples: Int16Array): void {
    if (samples.byteLength > this.maxBytes || this.entries.has(key)) return;
    this.entries.set(key, samples);
    this.size += samples.byteLength;
    for (const [oldest, old] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.size -= old.byteLength;
    }
  }
}
