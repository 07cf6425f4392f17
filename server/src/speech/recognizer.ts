// The speech-to-text port of the cascaded agent: a stream per call that hears the callee's audio (8 kHz mu-law, as
// the live line carries it) and says what was said, in pieces as a streaming recogniser does. An adapter per
// vendor (deepgram/, openai/, pocketsphinx/, and the sandbox's oracle) implements it; the cascaded session decides
// turns from these events and its own voice activity detection, so a vendor's own endpointing is a hint, not law.
import type { Logger } from 'pino';
import type { ProviderError } from './provider-error.js';

export interface RecognitionOptions {
  callId: string;
  /** BCP-47 (`en-US`, `fr`); the adapter maps it to the vendor's form, or leaves detection to the vendor. */
  language: string;
  logger: Logger;
}

/** What a recognition stream tells the session. Times are call time: ms of the callee's audio sent so far. */
export interface RecognitionListener {
  /** The vendor heard speech begin (Deepgram's SpeechStarted; OpenAI's speech_started), at `atMs` when it says. */
  speechStarted?(atMs: number | null): void;
  /** A hypothesis that may still change (Deepgram's is_final false; OpenAI's transcription delta). */
  interim(text: string): void;
  /**
   * Words that will not change. `endOfTurn` is the vendor's own end-of-speech mark (Deepgram's speech_final, or a
   * completed OpenAI transcription): a hint the session may end the turn on sooner than its silence bound.
   */
  final(text: string, endOfTurn: boolean, span: { startMs: number; endMs: number } | null): void;
  /** The vendor saw the end of an utterance by a gap in words (Deepgram's UtteranceEnd), at `atMs` when it says. */
  utteranceEnd?(atMs: number | null): void;
  /**
   * The stream failed and the adapter could not carry on (its own retry, where the vendor allows one, is done).
   * Nothing more comes after it.
   */
  failed(error: ProviderError): void;
}

export interface RecognitionStream {
  /** Sends callee audio: 8 kHz mu-law, any length (a line's frame is 20 ms, 160 bytes). */
  send(audio: Buffer): void;
  /**
   * Asks for the words heard so far now, without waiting for the vendor's endpointing (Deepgram's Finalize,
   * OpenAI's input_audio_buffer.commit); they arrive as `final` events.
   */
  flush(): void;
  /**
   * Ends the stream (Deepgram's CloseStream): what was sent is transcribed and reported, then the socket closes.
   * Resolves once it has, or after `graceMs` at most.
   */
  close(graceMs?: number): Promise<void>;
}

export interface SpeechRecognizer {
  /** `deepgram`, `openai`, `pocketsphinx`, `oracle`. */
  readonly name: string;
  /**
   * Opens a stream for one call. Resolves once the vendor accepted it (the socket is open, the session
   * configured); rejects with a ProviderError when it will not. Audio sent before it resolves is the caller's to keep.
   */
  open(options: RecognitionOptions, listener: RecognitionListener): Promise<RecognitionStream>;
}
