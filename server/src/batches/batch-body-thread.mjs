// The batch thread (see batch-body-worker.ts): checks batch bodies with batch-body's checkBatchBody, off the event
// loop. In: { id, input }, the input's bytes transferred. Out: { id, body } for a sound body, { id, error } with the
// ApiError's parts for a refused one, { id, fault } for anything else.
import { existsSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

// The compiled service (dist/) has the module as JavaScript beside this file. Run from the sources it is
// TypeScript, which a thread reads only once tsx is registered in it: a thread does not inherit the loader.
const compiled = new URL('./batch-body.js', import.meta.url);
if (!existsSync(compiled)) (await import('tsx/esm/api')).register();
const { checkBatchBody } = await import(existsSync(compiled) ? compiled.href : new URL('./batch-body.ts', import.meta.url).href);

parentPort.on('message', async ({ id, input }) => {
  try {
    parentPort.postMessage({ id, body: await checkBatchBody(input) });
  } catch (err) {
    if (err?.name === 'ApiError') {
      parentPort.postMessage({ id, error: { status: err.status, token: err.token, message: err.message, headers: err.headers, fields: err.fields } });
    } else {
      parentPort.postMessage({ id, fault: String(err?.stack ?? err) });
    }
  }
});
