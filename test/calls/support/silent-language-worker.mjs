// A language worker thread that says it is ready and then never answers (language-worker.test.ts).
import { parentPort } from 'node:worker_threads';

parentPort.on('message', () => {});
parentPort.postMessage({ ready: true });
