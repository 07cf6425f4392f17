// Whether the callee asked, in the transcript, not to be called again: a phrase of the call language's opt-out
// vocabulary (or English's, which callees fall back to) in a line the callee said. Both analysts ask it: it is
// the rule-based analyst's whole reading, and the LLM analyst's floor (an opt-out is never lost because a model
// missed it or was down).
import { SPEAKER_LABEL } from '../conversation/conversation.js';
import { EN } from '../conversation/lexicon-en.js';
import { lexiconFor } from '../conversation/lexicon.js';

const CALLEE = `${SPEAKER_LABEL.callee}: `;

/** Lower-case, one kind of apostrophe, single spaces: how the vocabulary is written. */
const normal = (text: string) => text.normalize('NFC').toLowerCase().replace(/[’‘ʼ]/g, "'").replace(/\s+/g, ' ');

export function heardOptOut(transcript: string, language: string): boolean {
  const phrases = new Set([...lexiconFor(language).vocabulary.optOut, ...EN.vocabulary.optOut]);
  return transcript
    .split('\n')
    .filter((line) => line.startsWith(CALLEE))
    .some((line) => {
      const said = normal(line.slice(CALLEE.length));
      for (const phrase of phrases) if (said.includes(phrase)) return true;
      return false;
    });
}
