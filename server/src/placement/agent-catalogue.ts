// What the configured agent can do: its voices and languages. Placement checks requests against it.
import { DEFAULT_LANGUAGES } from './language.js';

export interface AgentCatalogue {
  voices: readonly string[];
  /** The platform default voice, used when neither the request nor the key names one. */
  defaultVoice: string;
  /** Base language subtags the agent speaks. */
  languages: readonly string[];
}

/**
 * The agents' catalogue: the voice names are the realtime model's built-in voices (OpenAI's Realtime API: marin and
 * cedar came with the GA model and are the ones it recommends), and the sandbox's scripted agent takes the same names.
 */
export const DEFAULT_AGENT_CATALOGUE: AgentCatalogue = {
  voices: ['alloy', 'ash', 'ballad', 'coral', 'echo', 'sage', 'shimmer', 'verse', 'marin', 'cedar'],
  defaultVoice: 'alloy',
  languages: DEFAULT_LANGUAGES,
};
