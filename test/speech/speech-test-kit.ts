// What the text-to-speech adapters' tests share: a text source the test feeds sentence by sentence (and can fail),
// a logger whose lines the test reads, the port's options, and draining an adapter's audio.
import { inspect } from 'node:util';
import { expect } from 'chai';
import pino from 'pino';
import type { SpeechOptions } from '../../server/src/speech/voice.js';

/** Sentences the test pushes while the adapter reads; `pulled` counts the adapter's reads. */
export class TextFeed implements AsyncIterable<string> {
  readonly #queue: Array<{ text: string } | { end: true } | { error: Error }> = [];
  #wake: (() => void) | null = null;
  pulled = 0;

  constructor(...sentences: string[]) {
    for (const text of sentences) this.push(text);
  }

  push(text: string): this {
    return this.#add({ text });
  }
  end(): this {
    return this.#add({ end: true });
  }
  fail(error: Error): this {
    return this.#add({ error });
  }

  #add(item: { text: string } | { end: true } | { error: Error }): this {
    this.#queue.push(item);
    this.#wake?.();
    this.#wake = null;
    return this;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<string> {
    for (;;) {
      this.pulled++;
      let item = this.#queue.shift();
      while (!item) {
        await new Promise<void>((resolve) => (this.#wake = resolve));
        item = this.#queue.shift();
      }
      if ('end' in item) return;
      if ('error' in item) throw item.error;
      yield item.text;
    }
  }
}

/** A logger at debug level whose output the test reads. */
export function capturedLogger() {
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

export function speechOptions(over: Partial<SpeechOptions> & Pick<SpeechOptions, 'logger'>): SpeechOptions {
  return { callId: 'call-tts-1', language: 'en-US', voice: null, signal: new AbortController().signal, ...over };
}

/** All of an adapter's audio, joined; a failure is returned with the audio before it. */
export async function drain(audio: AsyncIterable<Buffer>): Promise<{ audio: Buffer; chunks: Buffer[]; error: unknown }> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of audio) chunks.push(chunk);
  } catch (error) {
    return { audio: Buffer.concat(chunks), chunks, error };
  }
  return { audio: Buffer.concat(chunks), chunks, error: null };
}

/** Nothing the error or the logs say, however printed, holds the key. */
export function expectNoKey(key: string, ...things: unknown[]): void {
  for (const thing of things) {
    const printed = typeof thing === 'string' ? thing : `${inspect(thing, { showHidden: true, depth: 6 })} ${JSON.stringify(thing) ?? ''} ${(thing as Error)?.stack ?? ''}`;
    expect(printed).not.to.include(key);
  }
}
