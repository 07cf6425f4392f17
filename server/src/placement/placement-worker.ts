// The placement worker: a thread that does ahead of a placement the pure computation that costs the most on the
// event loop: ELD's language detection and libphonenumber's parse of its numbers. Tasks asked for in one turn of the event loop go over in one message and come
// back in one (see placement-worker-thread.mjs for what each answers).
//
// Answers are what placement-compute.mjs computes, which is also what the placement computes in-thread
// (language.ts, caller-id.ts); it uses them only for the very text they were computed for. Whenever the worker cannot
// answer (still starting, gone, or silent past `timeoutMs`), a task resolves null and the placement computes it
// in-thread: it never waits on the worker for long and never fails because of it. A worker that exits is started
// again on a later request, at most once per `restartAfterMs`; one that is silent is terminated first.
import { Worker } from 'node:worker_threads';
import type { NumberFacts, RawDetection } from './placement-compute.mjs';

type Task = readonly ['lang', text: string, subset: string] | readonly ['e164', text: string];

export interface PlacementWorkerOptions {
  /** The thread's script; tests give one that misbehaves. */
  script?: URL;
  /** How long a batch may go unanswered before its texts are detected in-thread; default 2 s. */
  timeoutMs?: number;
  /** The least time between two starts; default 5 s. */
  restartAfterMs?: number;
}

interface Pending {
  task: Task;
  resolve(result: unknown): void;
}

interface Sent {
  items: Pending[];
  timer: NodeJS.Timeout;
}

const THREAD = new URL('./placement-worker-thread.mjs', import.meta.url);

export class PlacementWorker {
  private worker: Worker | undefined;
  private ready = false;
  private readyWaiters: (() => void)[] = [];
  private lastStart = -Infinity;
  private queue: Pending[] = [];
  private readonly sent = new Map<number, Sent>();
  private nextId = 1;
  private readonly script: URL;
  private readonly timeoutMs: number;
  private readonly restartAfterMs: number;
  /** Tasks the worker answered, and the messages they were sent in (tests). */
  answered = 0;
  batchesSent = 0;

  constructor(opts: PlacementWorkerOptions = {}) {
    this.script = opts.script ?? THREAD;
    this.timeoutMs = opts.timeoutMs ?? 2000;
    this.restartAfterMs = opts.restartAfterMs ?? 5000;
  }

  /** Starts the thread unless it runs or was started too recently. */
  start(): void {
    if (this.worker || Date.now() - this.lastStart < this.restartAfterMs) return;
    this.lastStart = Date.now();
    const worker = new Worker(this.script);
    this.worker = worker;
    worker.on('message', (m: { ready?: true; id?: number; results?: unknown[] }) => {
      if (m.ready) {
        this.ready = true;
        if (this.sent.size === 0) worker.unref();
        for (const wake of this.readyWaiters.splice(0)) wake();
        return;
      }
      const sent = this.sent.get(m.id!);
      if (!sent) return; // answered after its timeout: already detected in-thread
      this.sent.delete(m.id!);
      if (this.sent.size === 0) worker.unref();
      clearTimeout(sent.timer);
      this.answered += sent.items.length;
      for (let i = 0; i < sent.items.length; i++) sent.items[i]!.resolve(m.results![i]);
    });
    worker.on('error', () => {}); // followed by 'exit'
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.ready = false;
      this.failSent();
    });
    // It must not keep alive a process that has nothing else to do (after the listeners: adding one refs it again).
    worker.unref();
  }

  /** Resolves once the thread answers (tests; the service does not wait for it), keeping the process alive till then. */
  whenReady(): Promise<void> {
    this.start();
    if (this.ready) return Promise.resolve();
    this.worker?.ref();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** ELD's detection of `text` among `subset` (comma-separated codes); null: detect in-thread. */
  detect(text: string, subset: string): Promise<RawDetection | null> {
    return this.ask<RawDetection>(['lang', text, subset]);
  }

  /** libphonenumber's facts of an E.164 number; null: parse in-thread. */
  parseNumber(text: string): Promise<NumberFacts | null> {
    return this.ask<NumberFacts>(['e164', text]);
  }

  private ask<T>(task: Task): Promise<T | null> {
    this.start();
    if (!this.ready) return Promise.resolve(null);
    return new Promise((resolve) => {
      if (this.queue.length === 0) setImmediate(this.flush);
      this.queue.push({ task, resolve: resolve as (result: unknown) => void });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.ready = false;
    this.failSent();
    if (worker) await worker.terminate();
  }

  private readonly flush = (): void => {
    const items = this.queue;
    this.queue = [];
    const worker = this.worker;
    if (!worker || !this.ready) {
      for (const p of items) p.resolve(null);
      return;
    }
    const id = this.nextId++;
    const timer = setTimeout(() => {
      this.sent.delete(id);
      for (const p of items) p.resolve(null);
      // Silent: end it (what else it was sent is computed in-thread too), so that a later request starts a fresh one.
      if (this.worker === worker) {
        this.worker = undefined;
        this.ready = false;
        this.failSent();
        void worker.terminate();
      }
    }, this.timeoutMs);
    timer.unref();
    this.sent.set(id, { items, timer });
    // A batch in flight keeps the process alive, as any pending I/O does; an idle worker does not.
    worker.ref();
    this.batchesSent++;
    worker.postMessage({ id, tasks: items.map((p) => p.task) });
  };

  private failSent(): void {
    for (const { items, timer } of this.sent.values()) {
      clearTimeout(timer);
      for (const p of items) p.resolve(null);
    }
    this.sent.clear();
  }
}

/** The process's placement worker, started by the first app (createApp). */
export const placementWorker = new PlacementWorker();
