// Units of work under one lock key, queued in the process before they take a connection. Postgres serialises them
// with the key's advisory lock anyway; a unit waiting for that lock holds a pooled connection while it waits, so a
// burst of one account's placements would take every connection of the pool, and every other request of the
// process (reads, other accounts) would wait behind them until the pool's wait ran out (503 store_error). Here at
// most two units of a key hold a connection: the one under the lock and the next, which waits for it in Postgres
// and takes it the moment it is released; the rest wait in this queue, holding nothing.
const AT_ONCE = 2;

export class KeyQueue {
  private readonly keys = new Map<string, { running: number; waiting: Array<() => void> }>();

  async run<T>(key: string, unit: () => Promise<T>): Promise<T> {
    let entry = this.keys.get(key);
    if (!entry) this.keys.set(key, (entry = { running: 0, waiting: [] }));
    if (entry.running >= AT_ONCE) await new Promise<void>((resolve) => entry!.waiting.push(resolve));
    else entry.running++;
    try {
      return await unit();
    } finally {
      // The slot passes to the next waiter as it is, or is given back.
      const next = entry.waiting.shift();
      if (next) next();
      else if (--entry.running === 0) this.keys.delete(key);
    }
  }
}
