// The recorder's thread (threaded-recorder.ts): renders recordings with the SpeechRecorder off the event loop.
// In: { id, request }; out: { id, wav } (the WAV's bytes, transferred) or { id, error }. Plain JavaScript, as a
// thread's first module cannot be TypeScript: when the sources run as .ts (under tsx), the thread registers tsx
// before it loads them; the compiled service has .js beside this file.
import { existsSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parentPort } from 'node:worker_threads';

if (!existsSync(fileURLToPath(new URL('./speech-recorder.js', import.meta.url)))) (await import('tsx/esm/api')).register();
const { SpeechRecorder } = await import('./speech-recorder.js');

// A recording is background work: its thread takes the CPU only when the service's own thread (dials, deliveries,
// requests) does not want it. Linux keeps a nice value per thread, and /proc names this one; elsewhere the thread
// keeps the process's priority.
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 10);
} catch {
  // no /proc, or not allowed: the same priority as the rest
}

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
