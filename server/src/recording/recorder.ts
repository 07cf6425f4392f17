// The Recorder port: real audio of a conversation. The default synthesises each turn with an offline speech
// synthesiser, two voices, and lays it at the turn's time, so the file lasts exactly as long as the call.
import type { TimedTurn } from '../conversation/conversation.js';

export interface RecordingRequest {
  turns: readonly TimedTurn[];
  /** Length of the recording in ms of call time; turns running past it are cut there. */
  totalMs: number;
  /** BCP-47 language of the call. */
  language: string;
  /** Pure tones laid into the recording (an answering machine's beep), in call-time ms. */
  tones?: readonly Tone[];
}

export interface Tone {
  startMs: number;
  endMs: number;
  hz: number;
}

export interface Recorder {
  /** A complete WAV file (RIFF, PCM 16-bit mono). */
  render(request: RecordingRequest): Promise<Buffer>;
}

/** A request as a call keeps it until its recording is first asked for: its turns' times, speakers and words only. */
export function recordingRequestJson(request: RecordingRequest): string {
  const turns = request.turns.map(({ speaker, text, startMs, endMs }) => ({ speaker, text, startMs, endMs }));
  return JSON.stringify({ turns, totalMs: request.totalMs, language: request.language, ...(request.tones?.length ? { tones: request.tones } : {}) });
}
