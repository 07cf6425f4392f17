// The voices the place-a-call form offers, from one place: for now the list placeCall's `voice` description in
// openapi.yaml gives (read at build time, vite.config.ts). When the API has a read listing the service's voices, this
// is the one function to change.
import { voices } from 'virtual:place-call-schema';

export const offeredVoices = (): readonly string[] => voices;
