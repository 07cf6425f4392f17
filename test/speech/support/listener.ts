// What a recognition stream told its listener, in order, for a test to compare whole; and a logger whose lines a
// test can read (to prove a key never reaches them).
import { pino, type Logger } from 'pino';
import type { ProviderError } from '../../../server/src/speech/provider-error.js';
import type { RecognitionListener, RecognitionStream } from '../../../server/src/speech/recognizer.js';

export type Heard =
  | ['speechStarted', number | null]
  | ['interim', string]
  | ['final', string, boolean, { startMs: number; endMs: number } | null]
  | ['utteranceEnd', number | null]
  | ['failed', ProviderError];

export function recorder(): { heard: Heard[]; listener: RecognitionListener; failures: () => ProviderError[] } {
  const heard: Heard[] = [];
  return {
    heard,
    listener: {
      speechStarted: (at) => heard.push(['speechStarted', at]),
      interim: (text) => heard.push(['interim', text]),
      final: (text, endOfTurn, span) => heard.push(['final', text, endOfTurn, span]),
      utteranceEnd: (at) => heard.push(['utteranceEnd', at]),
      failed: (error) => heard.push(['failed', error]),
    },
    failures: () => heard.filter((h): h is ['failed', ProviderError] => h[0] === 'failed').map((h) => h[1]),
  };
}

/** A pino logger at debug whose lines are kept. */
export function capturedLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: pino({ level: 'debug' }, { write: (line: string) => lines.push(line) }), lines };
}

/** Sends `bytes` of audio (each byte `fill`) in a line's 20 ms frames. */
export function sendAudio(stream: RecognitionStream, bytes: number, fill = 0xff): Buffer {
  const all = Buffer.alloc(bytes, fill);
  for (let at = 0; at < bytes; at += 160) stream.send(all.subarray(at, Math.min(bytes, at + 160)));
  return all;
}
