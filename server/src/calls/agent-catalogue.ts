// What the configured agent can do: its voices and languages. Placement checks requests against it.
import { DEFAULT_LANGUAGES } from './language.js';

export interface AgentCatalogue {
  voices: readonly string[];
  /** The platform default voice, used when neither the request nor the key names one. */
  defaultVoice: string;
  /** Base language subtags the agent speaks. */
  languages: readonly string[];
}

/** The default (scripted sandbox) agent's catalogue; its voice names match the realtime agent's. */
export const DEFAULT_AGENT_CATALOGUE: AgentCatalogue = {
  voices: ['alloy', 'ash', 'ballad', 'coral', 'echo', 'sage', 'shimmer', 'verse'],
  defaultVoice: 'alloy',
  languages: DEFAULT_LANGUAGES,
};
