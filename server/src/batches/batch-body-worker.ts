// The batch thread's client: a batch's body is checked on a thread of its own (batch-body-thread.mjs runs
// batch-body.ts's checkBatchBody there), so that parsing and checking up to 16 MiB of calls never holds the event
// loop, and with it every other request of the process. One thread per process, started by the first batch,
// checking one body at a time in arrival order; the bytes are moved to it, not copied. A thread that ends is started
// again by the next batch; the checks it had are lost, and their requests answered 500.
import { Worker } from 'node:worker_threads';
import { ApiError } from '../errors/api-error.js';
import type { ErrorToken } from '../generated/types.gen.js';
import type { BatchBody, BatchBodyInput } from './batch-body.js';

const THREAD = new URL('./batch-body-thread.mjs', import.meta.url);

interface Pending {
  resolve(body: BatchBody): void;
  reject(err: Error): void;
}

type Answer =
  | { id: number; body: BatchBody }
  | { id: number; error: { status: number; token: ErrorToken; message: string; headers: Record<string, string>; body: Uint8Array } }
  | { id: number; fault: string };

export class BatchBodyWorker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Bodies the thread has answered for (tests). */
  checked = 0;

  /** `script`: the thread's script; tests give one that misbehaves. */
  constructor(private readonly script: URL = THREAD) {}

  /** The body checked on the thread; rejects with the ApiError the batch is refused with. */
  check(input: BatchBodyInput): Promise<BatchBody> {
    const worker = this.start();
    const id = this.nextId++;
    // Moved when the bytes own their memory (a body read whole does), copied otherwise.
    const { bytes } = input;
    const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
    return new Promise<BatchBody>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // A check in flight keeps the process alive, as any pending I/O does; an idle thread does not.
      worker.ref();
      worker.postMessage({ id, input: { ...input, bytes: owned } }, [owned.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.fail(new Error('the batch thread was closed'));
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script);
    this.worker = worker;
    worker.on('message', (answer: Answer) => {
      const p = this.pending.get(answer.id);
      if (!p) return;
      this.pending.delete(answer.id);
      this.checked++;
      if (this.pending.size === 0) worker.unref();
      if ('body' in answer) p.resolve(answer.body);
      else if ('error' in answer) p.reject(new ApiError(answer.error.status, answer.error.token, answer.error.message, answer.error.headers, {}, answer.error.body));
      else p.reject(new Error(`the batch thread failed: ${answer.fault}`));
    });
    let failure: Error | undefined;
    worker.on('error', (err) => (failure = err));
    worker.on('exit', (code) => {
      if (this.worker !== worker) return; // closed: its checks have failed already
      this.worker = undefined;
      this.fail(failure ?? new Error(`the batch thread exited (code ${code})`));
    });
    worker.unref();
    return worker;
  }

  private fail(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}

/** The process's batch thread. */
export const batchBodyWorker = new BatchBodyWorker();
