// A language worker thread that says it is ready and dies on its first batch (language-worker.test.ts).
import { parentPort } from 'node:worker_threads';

parentPort.on('message', () => {
  throw new Error('the language worker fell over');
});
parentPort.postMessage({ ready: true });
