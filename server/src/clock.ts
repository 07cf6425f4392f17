// Time is injected so tests can drive it.
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
