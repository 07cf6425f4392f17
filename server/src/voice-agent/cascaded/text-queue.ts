// The pieces of a reply on their way to the voice: the model's stream pushes sentences as it writes them and the
// voice reads them as an async iterable, waiting while none is ready, until the reply ends.
export class TextQueue implements AsyncIterable<string> {
  private readonly pieces: string[] = [];
  private ended = false;
  private wake: (() => void) | null = null;

  push(piece: string): void {
    if (this.ended) return;
    this.pieces.push(piece);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    for (;;) {
      const piece = this.pieces.shift();
      if (piece !== undefined) {
        yield piece;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }
}
