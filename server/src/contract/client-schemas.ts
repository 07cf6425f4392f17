// Whether a client's JSON Schema (a client tool's parameters, placed with the call) is one: checked against the
// 2020-12 meta-schema and then compiled, by an Ajv of its own, so that a schema the model will be offered is one
// a validator can read, with nothing it cannot resolve and no pattern that is not a regular expression. Ajv's
// advice for schemas from outside is followed: they are bounded in size here and in depth at the door
// (json-nesting.ts), no data is ever validated against them (so a slow pattern costs nothing), and no schema is
// kept: each is removed once compiled, and one with an `$id` is never registered. A batch repeats the same tools
// across its calls, so answers are kept by the schema's text (a few hundred).
import { Ajv2020 } from 'ajv/dist/2020.js';

const KEPT = 256;

let ajv: Ajv2020 | undefined;
const answers = new Map<string, string | null>();

/** Why `value` is not a JSON Schema of at most `maxBytes` as JSON, in a few words; null when it is one. */
export function jsonSchemaProblem(value: unknown, maxBytes: number): string | null {
  const text = JSON.stringify(value);
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) return `is ${bytes} bytes as JSON, more than ${maxBytes}`;
  const known = answers.get(text);
  if (known !== undefined) return known;
  const problem = compileProblem(value);
  if (answers.size >= KEPT) answers.delete(answers.keys().next().value!);
  answers.set(text, problem);
  return problem;
}

function compileProblem(value: unknown): string | null {
  // Formats are not checked (no data is), and a keyword it does not know is the model's concern, not an error.
  ajv ??= new Ajv2020({ strict: false, validateFormats: false, addUsedSchema: false, logger: false });
  const schema = value as Record<string, unknown>;
  try {
    if (!ajv.validateSchema(schema)) {
      const first = ajv.errors?.[0];
      return `is not a valid JSON Schema: ${first ? `${first.instancePath || 'its root'} ${first.message}` : 'the meta-schema refuses it'}`;
    }
    ajv.compile(schema);
    return null;
  } catch (err) {
    return `does not compile as a JSON Schema: ${(err as Error).message}`;
  } finally {
    ajv.removeSchema(schema);
  }
}
