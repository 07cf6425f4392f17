// Wakes: how a write says that jobs of a queue are due now (a call placed, an event written), so that the loops
// running that queue look at once rather than at their next poll. The loops of the writing process are woken at
// once. A process that runs no loop of that queue (an api process placing a call) wakes every other process's, on
// Postgres (postgres/pg-wakes.ts); one that runs one keeps the work to itself: a worker's own engine dials the
// calls its batches release and its own dispatcher sends the events its steps write, and the other workers are
// spared a notification and a claim that would find nothing. A wake is only a hint: a loop that misses one (a
// dropped connection, a process still starting, a loop busy to its last slot) finds the job at its next poll.
export type WakeTopic = 'calls' | 'webhooks' | 'batches';
export const WAKE_TOPICS: readonly WakeTopic[] = ['calls', 'webhooks', 'batches'];

/** Wakes carried to the other processes sharing the store. */
export interface RemoteWakes {
  send(topic: WakeTopic): void;
  /** From the first call on, `fire` is called with each topic another process wakes. */
  listen(fire: (topic: WakeTopic) => void): void;
  close(): Promise<void>;
}

export class Wakes {
  private readonly listeners = new Map<WakeTopic, Array<() => void>>();

  constructor(private readonly remote: RemoteWakes | null = null) {}

  wake(topic: WakeTopic): void {
    if (this.listeners.has(topic)) this.fire(topic);
    else this.remote?.send(topic);
  }

  onWake(topic: WakeTopic, fn: () => void): void {
    this.listeners.set(topic, [...(this.listeners.get(topic) ?? []), fn]);
    this.remote?.listen((t) => this.fire(t));
  }

  close(): Promise<void> {
    return this.remote?.close() ?? Promise.resolve();
  }

  private fire(topic: WakeTopic): void {
    for (const fn of this.listeners.get(topic) ?? []) fn();
  }
}
