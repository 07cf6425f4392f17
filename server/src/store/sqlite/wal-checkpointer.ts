// Checkpoints a SQLite file's write-ahead log from a worker thread, so that the event loop does not wait for a
// checkpoint's fsyncs. Left to SQLite, the connection whose COMMIT takes the log past wal_autocheckpoint pages
// runs the checkpoint inside that COMMIT: it copies the log into the database file and syncs both, several
// milliseconds on a VM's disk, during which no request is served.
//
// The worker opens its own connection and runs a PASSIVE checkpoint every `intervalMs`. A PASSIVE checkpoint
// takes no write lock: the writer commits while it copies, and readers are not disturbed. The writer's own
// auto-checkpoint stays on, at BACKSTOP_PAGES, for when the worker falls behind or is gone. Under sustained
// writes it is also what rewinds the log: SQLite starts the log over only after a checkpoint that copied every
// frame, and the worker's rarely finishes before the next commit lands; the writer's then has little left to copy.
// Checkpointing moves committed pages; it decides nothing about what is committed, so a crash at any point loses
// nothing (SQLite recovers from the log).
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
const checkpoint = () => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ result });
  } catch (err) {
    parentPort.postMessage({ error: String((err && err.message) || err) });
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m === 'now') return checkpoint();
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface CheckpointResult {
  /** 1 when the checkpoint could not run to completion (a lock was held). */
  busy: number;
  /** Frames in the log, and how many of them are now in the database file. */
  log: number;
  checkpointed: number;
}

export interface WalCheckpointerOptions {
  /** How often the log is checkpointed; default 500 ms. */
  intervalMs?: number;
  /** Told of every checkpoint's result (tests). */
  onResult?(result: CheckpointResult): void;
  /** Told when checkpoints start failing (once, until one succeeds again); the next is tried all the same. */
  onError?(message: string): void;
}

const DEFAULT_CHECKPOINT_INTERVAL_MS = 500;
/** The writer's own auto-checkpoint threshold while a checkpointer runs (SQLite's default is 1,000 pages). */
export const BACKSTOP_PAGES = 4000;

export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  private closing = false;

  constructor(path: string, opts: WalCheckpointerOptions = {}) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path, driver, intervalMs: opts.intervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS, busyTimeoutMs: 1000 },
    });
    let failing = false;
    this.worker.on('message', (m: { result?: CheckpointResult; error?: string }) => {
      if (m.result) {
        failing = false;
        opts.onResult?.(m.result);
      } else if (m.error && !failing) {
        failing = true;
        opts.onError?.(m.error);
      }
    });
    // A worker that fails to start or dies leaves the checkpoints to the writer's auto-checkpoint.
    this.worker.on('error', (err) => opts.onError?.(err.message));
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    // It must not keep alive a process that has nothing else to do (after the listeners: adding one refs it again).
    this.worker.unref();
  }

  /** Asks for a checkpoint at once (tests). */
  checkpointNow(): void {
    this.worker.postMessage('now');
  }

  async close(): Promise<void> {
    if (!this.closing) {
      this.closing = true;
      this.worker.postMessage('close');
    }
    await this.exited;
  }
}
