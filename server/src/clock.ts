// Time is injected so tests can drive it: what time it is, and every wait for a time to come (a worker loop's
// sleep, a back-off), so that moving a test's clock fires what fell due. Waits that pace or bound something real
// (a socket's timeout, audio on a live line) are the wall's, not the clock's (docs/design.md).
export interface Clock {
  now(): number;
  /** Resolves once `ms` have passed on this clock. */
  sleep(ms: number): Promise<void>;
  /** Calls `fn` once `ms` have passed on this clock; the function returned cancels it. */
  setTimer(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  setTimer(ms, fn) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};
