// A placement worker thread that says it is ready and then never answers (placement-worker.test.ts).
import { parentPort } from 'node:worker_threads';

parentPort.on('message', () => {});
parentPort.postMessage({ ready: true });
