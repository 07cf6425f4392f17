// The two interfaces of OpenAI's realtime WebSocket: the generally available one (the default) and the beta one
// that came before it, kept behind SVC_REALTIME_PROTOCOL=beta for servers that still speak only it. They differ in
// how the session is set up and in the names of the events that carry the model's audio and its transcript; the
// rest of a call (input_audio_buffer.append, response.create, conversation.item.truncate, speech_started and
// speech_stopped, the input transcription's completed event, function calls, errors) is the same in both.
//
// GA, per the Realtime API reference (https://platform.openai.com/docs/api-reference/realtime-client-events and
// .../realtime-server-events) and the openai package's types (src/resources/realtime/realtime.ts): no OpenAI-Beta
// header; session.update carries `session.type: "realtime"`, `output_modalities`, and the audio settings nested
// under `audio.input` (format, transcription, turn_detection) and `audio.output` (format, voice), formats being
// objects (`{ type: "audio/pcmu" }` for G.711 mu-law); the model's audio comes as response.output_audio.delta, its
// end as response.output_audio.done and its words as response.output_audio_transcript.done. The GA model is
// `gpt-realtime` (config.ts's default).
//
// Beta (OpenAI-Beta: realtime=v1): flat session fields (modalities, voice, input_audio_format: "g711_ulaw", …),
// response.audio.delta, response.audio.done and response.audio_transcript.done; model gpt-4o-realtime-preview.
//
// Either way the phone line's 8 kHz mu-law goes to the model and comes back untouched: no transcoding.
import type { LineBrief } from '../conversation/conversation.js';
import { realtimeInstructions, transcriptionLanguage } from './realtime-instructions.js';
import { CALL_TOOLS, type OfferedTool } from './tools.js';
import { DEFAULT_TURN_TAKING, type TurnTaking } from '../settings/turn-taking.js';
import { noiseReduction, turnDetection } from './turn-taking.js';
import type { Speaker } from '../conversation/conversation.js';

export type RealtimeProtocolName = 'ga' | 'beta';

export interface RealtimeProtocol {
  readonly name: RealtimeProtocolName;
  /** Headers of the WebSocket upgrade, besides Authorization. */
  readonly headers: Readonly<Record<string, string>>;
  /** The server events that carry the model's audio, end an item's audio, and carry the transcript of what it said. */
  readonly events: { readonly audioDelta: string; readonly audioDone: string; readonly audioTranscriptDone: string };
  /** The session.update that sets the call up, offering the model `tools` (the call's tools unless told). */
  sessionUpdate(brief: LineBrief, tools?: readonly OfferedTool[], turnTaking?: TurnTaking): { type: 'session.update'; session: Record<string, unknown> };
  /** A session.update that changes only turn detection: whether the callee's end of turn makes the model answer. */
  answering(turnTaking: TurnTaking, answers: boolean): { type: 'session.update'; session: Record<string, unknown> };
  /** Whether a session (session.updated's) speaks G.711 mu-law both ways, as the phone line does. */
  confirms(session: unknown): boolean;
  /** A turn said before this session began, as a conversation item (a new session carries the call on). */
  historyItem(speaker: Speaker, text: string): Record<string, unknown>;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

/** What the transcriber is asked for: a model, and the language when it is known. */
function transcription(model: string, brief: LineBrief): Record<string, string> {
  const language = transcriptionLanguage(brief);
  return language ? { model, language } : { model };
}

export const GA_PROTOCOL: RealtimeProtocol = {
  name: 'ga',
  headers: {},
  events: { audioDelta: 'response.output_audio.delta', audioDone: 'response.output_audio.done', audioTranscriptDone: 'response.output_audio_transcript.done' },
  sessionUpdate: (brief, tools = CALL_TOOLS.offered, turnTaking = DEFAULT_TURN_TAKING) => ({
    type: 'session.update',
    session: {
      type: 'realtime',
      output_modalities: ['audio'],
      instructions: realtimeInstructions(brief),
      audio: {
        input: {
          format: { type: 'audio/pcmu' },
          transcription: transcription('gpt-4o-mini-transcribe', brief),
          noise_reduction: noiseReduction(turnTaking),
          turn_detection: turnDetection(turnTaking),
        },
        output: { format: { type: 'audio/pcmu' }, voice: brief.voice },
      },
      tools,
      tool_choice: 'auto',
    },
  }),
  answering: (turnTaking, answers) => ({ type: 'session.update', session: { type: 'realtime', audio: { input: { turn_detection: turnDetection(turnTaking, answers) } } } }),
  confirms: (session) => {
    const audio = obj(obj(session).audio);
    return obj(obj(audio.input).format).type === 'audio/pcmu' && obj(obj(audio.output).format).type === 'audio/pcmu';
  },
  historyItem: (speaker, text) =>
    speaker === 'agent' ? { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] } : { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
};

export const BETA_PROTOCOL: RealtimeProtocol = {
  name: 'beta',
  headers: { 'OpenAI-Beta': 'realtime=v1' },
  events: { audioDelta: 'response.audio.delta', audioDone: 'response.audio.done', audioTranscriptDone: 'response.audio_transcript.done' },
  sessionUpdate: (brief, tools = CALL_TOOLS.offered, turnTaking = DEFAULT_TURN_TAKING) => ({
    type: 'session.update',
    session: {
      modalities: ['audio', 'text'],
      instructions: realtimeInstructions(brief),
      voice: brief.voice,
      input_audio_format: 'g711_ulaw',
      output_audio_format: 'g711_ulaw',
      input_audio_transcription: transcription('whisper-1', brief),
      input_audio_noise_reduction: noiseReduction(turnTaking),
      turn_detection: turnDetection(turnTaking),
      tools,
      tool_choice: 'auto',
    },
  }),
  answering: (turnTaking, answers) => ({ type: 'session.update', session: { turn_detection: turnDetection(turnTaking, answers) } }),
  confirms: (session) => obj(session).input_audio_format === 'g711_ulaw' && obj(session).output_audio_format === 'g711_ulaw',
  historyItem: (speaker, text) =>
    speaker === 'agent' ? { type: 'message', role: 'assistant', content: [{ type: 'text', text }] } : { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
};

export function realtimeProtocol(name: RealtimeProtocolName): RealtimeProtocol {
  return name === 'beta' ? BETA_PROTOCOL : GA_PROTOCOL;
}
