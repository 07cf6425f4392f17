// How deep a request body may nest arrays and objects. Every part of the service that reads a body whole walks it
// by recursion (the schema check, the text check, an Idempotency-Key's fingerprint, JSON.stringify, a message to a
// thread), and a body of a few hundred kilobytes can nest a hundred thousand levels, past any stack. So the depth
// is measured first, here, without recursion, and a body past the limit goes no further.

/**
 * The deepest a body may nest: the body itself is level 1, each array or object inside it one more. The deepest
 * body the document accepts is level 5 (a batch's call's `fields` item, or its `callingWindow.days`), but for a
 * tool's `parameters`, a client's JSON Schema, which may nest to this limit.
 */
export const MAX_NESTING = 32;

/**
 * Where `body` nests past MAX_NESTING: the top-level property holding the too-deep value (the first in the body's
 * order), null when the body is an array that does, or undefined when the body is within the limit.
 */
export function tooDeepAt(body: unknown): string | null | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  if (Array.isArray(body)) return deeperThan(body, 1) ? null : undefined;
  for (const [prop, value] of Object.entries(body)) if (deeperThan(value, 2)) return prop;
  return undefined;
}

/** Whether `value`, at level `level`, holds an array or object past MAX_NESTING: depth first, on a stack of its own. */
function deeperThan(value: unknown, level: number): boolean {
  const stack: [unknown, number][] = [[value, level]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > MAX_NESTING) return true;
    if (Array.isArray(node)) {
      for (const item of node) if (item !== null && typeof item === 'object') stack.push([item, depth + 1]);
    } else {
      for (const inner of Object.values(node)) if (inner !== null && typeof inner === 'object') stack.push([inner, depth + 1]);
    }
  }
  return false;
}
