// The default Recorder of the service: the SpeechRecorder's work in a thread of its own. Synthesising a call's
// turns is CPU-heavy; on the event loop it would hold up every request, dial and delivery behind it
// (docs/performance.md). One thread, started at the first recording and kept while renders are pending;
// should it die, its pending renders fail (the request for the recording is answered 503 recording_unavailable, and
// the call keeps what its recording is made from) and the next render starts a new one. The thread is the
// process's, shared by every recorder (as the synthesiser is): it holds the speech engine's 64 MB and the utterance
// cache.
import { Worker } from 'node:worker_threads';
import type { Recorder, RecordingRequest } from './recorder.js';

const THREAD = new URL('./recorder-thread.mjs', import.meta.url);

interface Pending {
  resolve(wav: Buffer): void;
  reject(err: Error): void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

let shared: Thread | null = null;
let nextId = 0;

export class ThreadedRecorder implements Recorder {
  render(request: RecordingRequest): Promise<Buffer> {
    const thread = shared ?? start();
    const id = ++nextId;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.ref();
      thread.worker.postMessage({ id, request });
    });
  }
}

/** Starts the process's recorder thread. */
function start(): Thread {
  const worker = new Worker(THREAD);
  const pending = new Map<number, Pending>();
  const thread = { worker, pending };
  worker.on('message', (m: { id: number; wav?: ArrayBuffer; error?: string }) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    // An idle thread does not keep the process alive.
    if (pending.size === 0) worker.unref();
    if (m.error !== undefined) p.reject(new Error(m.error));
    else p.resolve(Buffer.from(m.wav!));
  });
  const fail = (err: Error) => {
    if (shared === thread) shared = null;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the recorder's thread exited (${code})`)));
  shared = thread;
  return thread;
}
