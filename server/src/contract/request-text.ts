// The text a request may carry, wherever it sits: the body's strings and keys, the path's parameters and the
// query's values. Text must be Unicode the stores can hold alike: no U+0000 (Postgres refuses it) and no lone
// surrogate (not UTF-8, so neither store can hold it as sent). The path and the query are percent-encoded UTF-8:
// a value whose encoding is broken (`%zz`, `%ff`, `%ED%A0%80`) is no text at all, and is never decoded with
// U+FFFD, which would make two different requests read as one.

/** With the u flag, \p{Cs} matches only a surrogate that is not half of a pair. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this pattern refuses.
export const FAULTY_TEXT = /\u0000|\p{Cs}/u;

/** A percent-encoded path segment or query component as text; null when it is not text the stores can hold. */
export function decodeText(raw: string): string | null {
  let text: string;
  try {
    text = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return FAULTY_TEXT.test(text) ? null : text;
}

/**
 * Reads the parameters of a route's template (`/calls/{id}`) from a raw path, matched as the router matches it (any
 * case, an optional trailing slash): each decoded, or null where it is not text.
 */
export function pathParameters(template: string): (rawPath: string) => Record<string, string | null> {
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '([^/]+)')}/?$`, 'i');
  return (rawPath) => {
    const match = pattern.exec(rawPath);
    return Object.fromEntries(names.map((name, i) => [name, match ? decodeText(match[i + 1]) : null]));
  };
}

/**
 * The raw query's values by name, in order, each decoded (`+` is a space, as in forms), or null where it is not
 * text. A name that is not text names no parameter and is left out.
 */
export function queryParameters(rawQuery: string): Map<string, (string | null)[]> {
  const params = new Map<string, (string | null)[]>();
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeText((eq === -1 ? pair : pair.slice(0, eq)).replace(/\+/g, ' '));
    if (name === null) continue;
    const value = decodeText((eq === -1 ? '' : pair.slice(eq + 1)).replace(/\+/g, ' '));
    params.set(name, [...(params.get(name) ?? []), value]);
  }
  return params;
}
