// The recorder's thread (threaded-recorder.ts): renders recordings with the SpeechRecorder off the event loop.
// In: { id, request }; out: { id, wav } (the WAV's bytes, transferred) or { id, error }. Plain JavaScript, as a
// thread's first module cannot be TypeScript: when the sources run as .ts (under tsx), the thread registers tsx
// before it loads them; the compiled service has .js beside this file.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parentPort } from 'node:worker_threads';

if (!existsSync(fileURLToPath(new URL('./speech-recorder.js', import.meta.url)))) (await import('tsx/esm/api')).register();
const { SpeechRecorder } = await import('./speech-recorder.js');

const recorder = new SpeechRecorder();

parentPort.on('message', ({ id, request }) => {
  recorder.render(request).then(
    (wav) => {
      // A WAV is far larger than Buffer's pool, so it owns its memory, which moves to the service's thread uncopied.
      const bytes = wav.byteOffset === 0 && wav.byteLength === wav.buffer.byteLength ? wav.buffer : wav.buffer.slice(wav.byteOffset, wav.byteOffset + wav.byteLength);
      parentPort.postMessage({ id, wav: bytes }, [bytes]);
    },
    (err) => parentPort.postMessage({ id, error: err.message }),
  );
});
