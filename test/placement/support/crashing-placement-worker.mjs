// A placement worker thread that says it is ready and dies on its first batch (placement-worker.test.ts).
import { parentPort } from 'node:worker_threads';

parentPort.on('message', () => {
  throw new Error('the placement worker fell over');
});
parentPort.postMessage({ ready: true });
