// Builds the console into server/static/console (committed; `npm run console:check` fails when it is stale). What the
// place-a-call form takes from openapi.yaml's PlaceCallRequest is read here at build time: which property each error
// token is about (x-error, x-error-missing), so an API error is shown at its field, and the voices the placement's
// `voice` description lists.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { defineConfig, type Plugin } from 'vite';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCHEMA_ID = 'virtual:place-call-schema';

type Json = Record<string, any>;

function placeCallRequest(): { tokens: Record<string, string>; voices: string[] } {
  const doc = parse(readFileSync(`${ROOT}/openapi.yaml`, 'utf8'));
  const schema: Json = doc.components.schemas.PlaceCallRequest;
  const tokens: Record<string, string> = {};
  for (const [name, p] of Object.entries<Json>(schema.properties)) {
    for (const key of ['x-error', 'x-error-missing']) if (p[key]) tokens[p[key]] = name;
  }
  // "…; the agents offer `alloy`, `ash`, … and `cedar` (…)": the names quoted in that sentence.
  const offer = /offer (.*?)\(/.exec(String(schema.properties.voice.description))?.[1] ?? '';
  const voices = [...offer.matchAll(/`([a-z]+)`/g)].map((m) => m[1]);
  if (voices.length === 0) throw new Error('openapi.yaml: the placeCall voice description lists no voices');
  return { tokens, voices };
}

function placeCallSchema(): Plugin {
  return {
    name: 'place-call-schema',
    resolveId: (id) => (id === SCHEMA_ID ? `\0${SCHEMA_ID}` : null),
    load: (id) => {
      if (id !== `\0${SCHEMA_ID}`) return null;
      const { tokens, voices } = placeCallRequest();
      return `export const tokens = ${JSON.stringify(tokens)};\nexport const voices = ${JSON.stringify(voices)};`;
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  logLevel: 'warn',
  plugins: [placeCallSchema()],
  build: {
    outDir: `${ROOT}/server/static/console`,
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
  },
});
