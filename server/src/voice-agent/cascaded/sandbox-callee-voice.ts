// The sandbox's callee as a voice on a live line: the simulated callee's lines of the call's script (the same the
// text sandbox writes, so either agent hears the same person), each spoken by espeak-ng in the callee's voice and
// made 8 kHz mu-law. Lines repeat across calls ("Hello?", the answers), so the spoken ones are kept (bounded).
import type { LineBrief } from '../../conversation/conversation.js';
import { ESPEAK_SAMPLE_RATE, sharedSynthesizer, type Synthesizer } from '../../recording/espeak-synthesizer.js';
import { DEFAULT_VOICES, espeakLanguageFor } from '../../recording/speech-recorder.js';
import { encodeMuLaw, LINE_RATE, resample } from '../../speech/audio.js';
import type { CalleeLine } from '../../telephony/sandbox/line-callee.js';
import { LONG_CALL_TALK_MS, scriptedConversation } from '../scripted-agent.js';
import { sandboxScenario } from '../../numbers/sandbox-numbers.js';

/** Spoken lines kept, by language and text. */
const MAX_KEPT = 2000;
const kept = new Map<string, Buffer>();

/** The callee's lines of the call, spoken. */
export async function sandboxCalleeLines(brief: LineBrief, load: () => Promise<Synthesizer> = sharedSynthesizer): Promise<CalleeLine[]> {
  const long = brief.to !== undefined && sandboxScenario(brief.to) === 'long';
  const texts = scriptedConversation(brief, long ? LONG_CALL_TALK_MS : 0)
    .filter((t) => t.speaker === 'callee')
    .map((t) => t.text);
  const synth = await load();
  const language = espeakLanguageFor(brief.language, synth.languages);
  return texts.map((text) => ({ text, audio: spoken(synth, language, text) }));
}

function spoken(synth: Synthesizer, language: string, text: string): Buffer {
  const key = `${language}\n${text}`;
  let audio = kept.get(key);
  if (!audio) {
    audio = encodeMuLaw(resample(synth.synthesize(text, { language, ...DEFAULT_VOICES.callee }), ESPEAK_SAMPLE_RATE, LINE_RATE));
    if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(key, audio);
  }
  return audio;
}
