// The call's voice: the request's, else the key's default, else the platform default; it must be one the
// configured agent has. Names match case-insensitively and come back spelled as in the catalogue.
export function resolveVoice(
  requested: string | null | undefined,
  keyDefault: string | null,
  catalogue: readonly string[],
  platformDefault: string,
): { ok: true; voice: string } | { ok: false; token: 'invalid_voice'; message: string } {
  const wanted = requested ?? keyDefault ?? platformDefault;
  const found = catalogue.find((v) => v.toLowerCase() === wanted.toLowerCase());
  if (found) return { ok: true, voice: found };
  return { ok: false, token: 'invalid_voice', message: `Unknown voice ${JSON.stringify(wanted)}; valid voices: ${catalogue.join(', ')}.` };
}
