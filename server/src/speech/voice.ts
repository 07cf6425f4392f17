// The text-to-speech port of the cascaded agent: text in as the chat model writes it (a sentence at a time, so the
// first sentence is spoken before the reply is finished), audio out as 8 kHz mu-law as soon as the vendor makes it
// (so the first audio reaches the line before the sentence is fully synthesised). An adapter per vendor (openai,
// elevenlabs, espeak) implements it.
import type { Logger } from 'pino';

export interface SpeechOptions {
  callId: string;
  /** BCP-47. */
  language: string;
  /** The vendor's voice (SVC_TTS_VOICE, or the call's `voice` where the vendor has it); the adapter's default when null. */
  voice: string | null;
  logger: Logger;
  /** Aborted when the callee cuts in or the call ends: the adapter stops asking and its audio iterator ends. */
  signal: AbortSignal;
}

export interface SpeechSynthesizer {
  /** `openai`, `elevenlabs`, `espeak`. */
  readonly name: string;
  /**
   * Speaks one agent turn. `text` yields the turn's pieces in order (whole sentences, trimmed) and ends when the
   * model's reply does; the result yields 8 kHz mu-law audio in order, in chunks of any size, and ends once the
   * last piece is spoken. It throws a ProviderError when the vendor fails (after the adapter's own retry, where one
   * is safe: nothing of the failed piece was yielded yet); on abort it ends quietly.
   */
  speak(text: AsyncIterable<string>, options: SpeechOptions): AsyncIterable<Buffer>;
}
