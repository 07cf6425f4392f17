// The cascaded agent as configured (SVC_AGENT=cascaded, settings/cascaded.ts): the recogniser, chat model and voice
// each config names, and svc's ears with the configured bounds. On the sandbox with nothing named it is wholly
// offline: the oracle recogniser, the scripted model and espeak-ng.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { ChatModel } from '../../chat-model/chat-model.js';
import { OpenAiCompatibleChatModel } from '../../chat-model/openai-compatible.js';
import type { Config } from '../../config.js';
import type { CascadedConfig } from '../../settings/cascaded.js';
import { DEFAULT_TURN_TAKING } from '../../settings/turn-taking.js';
import { DeepgramRecognizer } from '../../speech/deepgram/deepgram-recognizer.js';
import { ElevenLabsVoice } from '../../speech/elevenlabs/elevenlabs-voice.js';
import { EspeakVoice } from '../../speech/espeak/espeak-voice.js';
import { OpenAiRecognizer } from '../../speech/openai/openai-recognizer.js';
import { OpenAiVoice } from '../../speech/openai/openai-voice.js';
import { OracleRecognizer } from '../../speech/oracle/oracle-recognizer.js';
import { PocketsphinxRecognizer } from '../../speech/pocketsphinx/pocketsphinx-recognizer.js';
import type { SpeechRecognizer } from '../../speech/recognizer.js';
import type { SpeechSynthesizer } from '../../speech/voice.js';
import type { Database } from '../../store/schema.js';
import { ScriptedChatModel } from '../scripted-chat-model.js';
import type { LatencyObserver } from '../turn-timing.js';
import { CascadedAgent } from './cascaded-agent.js';
import { ClientTools } from '../client-tools.js';
import { LineEars } from './ears.js';
import { loadFvad } from './voice-activity.js';
import { sharedSynthesizer } from '../../recording/espeak-synthesizer.js';

/** The recogniser a call of this configuration hears with (the doctor opens one too). */
export function cascadedRecognizer(c: CascadedConfig): SpeechRecognizer {
  const vendor = { apiKey: c.sttApiKey!, ...(c.sttUrl ? { url: c.sttUrl } : {}), ...(c.sttModel ? { model: c.sttModel } : {}) };
  switch (c.stt) {
    case 'oracle':
      return new OracleRecognizer();
    case 'deepgram':
      return new DeepgramRecognizer(vendor);
    case 'openai':
      return new OpenAiRecognizer(vendor);
    case 'pocketsphinx':
      return new PocketsphinxRecognizer();
    default:
      throw new Error(`SVC_STT=${c.stt} is not available in this build`);
  }
}

function chatModel(c: CascadedConfig): ChatModel {
  if (c.llm === 'scripted') return new ScriptedChatModel();
  return new OpenAiCompatibleChatModel({ baseUrl: c.llmBaseUrl, apiKey: c.llmApiKey ?? '', model: c.llmModel });
}

function voice(c: CascadedConfig): SpeechSynthesizer {
  switch (c.tts) {
    case 'openai':
      return new OpenAiVoice({ apiKey: c.ttsApiKey!, ...(c.ttsUrl ? { baseUrl: c.ttsUrl } : {}) });
    case 'elevenlabs':
      return new ElevenLabsVoice({ apiKey: c.ttsApiKey!, ...(c.ttsUrl ? { baseUrl: c.ttsUrl } : {}) });
    default:
      return new EspeakVoice();
  }
}

export function configuredCascadedAgent(config: Config, db: Kysely<Database>, logger?: Logger, observer?: LatencyObserver): CascadedAgent {
  const c = config.cascaded!;
  const fvad = loadFvad();
  // The offline voice loads and warms now, so the first call's first sentence is not the one that waits for it.
  if (c.tts === 'espeak')
    void sharedSynthesizer().then(
      (synth) => synth.synthesize('Hello.', { language: 'en-us', variant: 'f2', pitch: 55, wordsPerMinute: 165 }),
      () => undefined,
    );
  // A failed load surfaces as the ears hearing nothing; it is logged once here.
  fvad.catch((err: Error) => logger?.error({ err: err.message }, 'the voice activity detector did not load'));
  return new CascadedAgent(db, {
    providers: { recognizer: cascadedRecognizer(c), model: chatModel(c), voice: voice(c), voiceName: c.ttsVoice },
    timing: { greetAfterMs: config.realtimeTurnTaking?.greetAfterMs ?? DEFAULT_TURN_TAKING.greetAfterMs },
    ears: () => new LineEars(fvad, { endpointing: { silenceMs: c.endpointSilenceMs }, bargeIn: { minSpeechMs: c.interruptAfterMs } }),
    observer,
    clientTools: new ClientTools(db, { allowPrivate: config.webhookAllowPrivate }),
  });
}
