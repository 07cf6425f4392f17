// The batch thread (batch-body-worker.ts): checks batch bodies with batch-body's checkBatchBody, off the event loop.
// In: { id, input }, the input's bytes transferred. Out: { id, body } for a sound body (its errors' JSON
// transferred), { id, error } for a refused one (batch-body's refusal, its rendered body transferred), { id, fault }
// for anything else. Plain JavaScript, as a thread's first module cannot be TypeScript: when the sources run as .ts
// (under tsx), the thread registers tsx before it loads them; the compiled service has .js beside this file.
import { existsSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parentPort } from 'node:worker_threads';

if (!existsSync(fileURLToPath(new URL('./batch-body.js', import.meta.url)))) (await import('tsx/esm/api')).register();
const { checkBatchBody, refusal } = await import('./batch-body.js');

// Checking a batch is one client's work: its thread takes the CPU only when the service's own thread (every other
// request, dials, deliveries) does not want it. Linux keeps a nice value per thread, and /proc names this one;
// elsewhere the thread keeps the process's priority.
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 10);
} catch {
  // no /proc, or not allowed: the same priority as the rest
}

parentPort.on('message', async ({ id, input }) => {
  try {
    const body = await checkBatchBody(input);
    parentPort.postMessage({ id, body }, [body.errorsJson.buffer]);
  } catch (err) {
    if (err?.name === 'ApiError') {
      const error = refusal(err);
      parentPort.postMessage({ id, error }, [error.body.buffer]);
    } else {
      parentPort.postMessage({ id, fault: String(err?.stack ?? err) });
    }
  }
});
