// The sandbox's callee as a voice on a live line: the simulated callee's lines of the call's script (the same the
// text sandbox writes, so either agent hears the same person), each spoken by espeak-ng in the callee's voice and
// made 8 kHz mu-law; and a business line's recordings (its menus, its queue), in English, as the text sandbox's. Lines
// repeat across calls ("Hello?", the answers, the menus), so the spoken ones are kept (bounded).
import type { LineBrief } from '../../conversation/conversation.js';
import { ESPEAK_SAMPLE_RATE, sharedSynthesizer, type Synthesizer } from '../../recording/espeak-synthesizer.js';
import { DEFAULT_VOICES, espeakLanguageFor } from '../../recording/speech-recorder.js';
import { encodeMuLaw, LINE_RATE, resample } from '../../speech/audio.js';
import type { CalleeScript } from '../../telephony/sandbox/sandbox-lines.js';
import { isSpeech } from '../../conversation/turn-marks.js';
import { LONG_CALL_TALK_MS, scriptedPrelude, scriptedTalk } from '../scripted-agent.js';
import { sandboxScenario } from '../../numbers/sandbox-numbers.js';

/** Spoken lines kept, by language and text. */
const MAX_KEPT = 2000;
const kept = new Map<string, Buffer>();

/** The callee's lines of the call, spoken, and its business line's recordings. */
export async function sandboxCalleeLines(brief: LineBrief, load: () => Promise<Synthesizer> = sharedSynthesizer): Promise<CalleeScript> {
  const long = brief.to !== undefined && sandboxScenario(brief.to) === 'long';
  const texts = scriptedTalk(brief, long ? LONG_CALL_TALK_MS : 0)
    .filter((t) => t.speaker === 'callee')
    .map((t) => t.text);
  const synth = await load();
  const language = espeakLanguageFor(brief.language, synth.languages);
  const english = espeakLanguageFor('en-US', synth.languages);
  // What the script says to a spoken menu: the agent's words before the person.
  const option = scriptedPrelude(brief).find((t) => t.speaker === 'agent' && isSpeech(t));
  return {
    lines: texts.map((text) => ({ text, audio: spoken(synth, language, text) })),
    recordings: { say: (text) => spoken(synth, english, text), spokenOption: option?.text.replace(/\.$/, '') ?? null },
  };
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
