// When the callee's speech cuts the agent off: once it has lasted `afterMs` (turn-taking.ts), so a cough or an
// "mm-hm" that stops sooner leaves the agent talking. With 0 it cuts at the speech's start.
export class BargeIn {
  private pending: NodeJS.Timeout | null = null;

  constructor(
    private readonly afterMs: number,
    private readonly cut: () => void,
  ) {}

  /** The callee's speech started. */
  started(): void {
    if (this.afterMs <= 0) return this.cut();
    this.pending ??= setTimeout(() => {
      this.pending = null;
      this.cut();
    }, this.afterMs);
  }

  /** The callee's speech stopped: shorter than the bound, it cuts nothing. */
  stopped(): void {
    this.close();
  }

  close(): void {
    if (this.pending) clearTimeout(this.pending);
    this.pending = null;
  }
}
