// Builds the console into server/static/console (committed; `npm run console:check` fails when it is stale). The
// place-a-call form is built from openapi.yaml's PlaceCallRequest, read here at build time.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { defineConfig, type Plugin } from 'vite';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCHEMA_ID = 'virtual:place-call-schema';

type Json = Record<string, any>;

/** The placeCall body's fields as the form shows them: name, label hint, and how each is entered. */
function placeCallFields(): Json[] {
  const doc = parse(readFileSync(`${ROOT}/openapi.yaml`, 'utf8'));
  const deref = (s: Json): Json =>
    s.$ref
      ? deref(
          s.$ref
            .split('/')
            .slice(1)
            .reduce((o: Json, k: string) => o[k], doc),
        )
      : s;
  const schema = deref(doc.components.schemas.PlaceCallRequest);
  return Object.entries<Json>(schema.properties).map(([name, raw]) => {
    const p = deref(raw);
    const types = ([] as string[]).concat(p.type ?? []);
    const kind =
      types.includes('array') || (types.includes('object') && name !== 'metadata') || p.oneOf || p.anyOf || p.allOf
        ? 'json'
        : name === 'metadata'
          ? 'pairs'
          : types.includes('boolean')
            ? 'boolean'
            : (p.maxLength ?? 0) > 500
              ? 'textarea'
              : 'text';
    return { name, required: (schema.required ?? []).includes(name), kind, maxLength: p.maxLength ?? null, description: String(raw.description ?? p.description ?? '').trim() };
  });
}

function placeCallSchema(): Plugin {
  return {
    name: 'place-call-schema',
    resolveId: (id) => (id === SCHEMA_ID ? `\0${SCHEMA_ID}` : null),
    load: (id) => (id === `\0${SCHEMA_ID}` ? `export default ${JSON.stringify(placeCallFields())};` : null),
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
