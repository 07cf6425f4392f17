// The JSON schema the model must answer with, built from the call's field definitions, and its validator. The
// schema follows the strict structured-outputs rules (every property required, additionalProperties false, a
// missing value spelt null), and the reply is checked against the very same schema, since a local model server
// may ignore response_format.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { ExtractedValues, FieldDefinition } from '../../generated/types.gen.js';
import { fieldType } from '../agent/field-label.js';

export interface JsonSchema {
  [keyword: string]: unknown;
}

/** `{ summary, extracted: { <name>: <type> | null } }`; without fields, `{ summary }` alone (extracted is then null). */
export function analysisSchema(fields: readonly FieldDefinition[]): JsonSchema {
  const summary = { type: 'string', description: 'Plain-English summary of the call: the objective, the outcome and what was learnt.' };
  if (fields.length === 0) return { type: 'object', properties: { summary }, required: ['summary'], additionalProperties: false };
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields) {
    const description = field.description?.trim();
    properties[field.name] = { type: [fieldType(field), 'null'], ...(description ? { description } : {}) };
  }
  return {
    type: 'object',
    properties: {
      summary,
      extracted: { type: 'object', properties, required: fields.map((f) => f.name), additionalProperties: false },
    },
    required: ['summary', 'extracted'],
    additionalProperties: false,
  };
}

export interface ParsedAnalysis {
  summary: string;
  extracted: ExtractedValues | null;
}

// One compiler for every call; each call has its own fields, so its schema is compiled, used once and removed
// (Ajv would otherwise keep every compiled schema for the life of the process).
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });

export type ReplyCheck = { ok: true; analysis: ParsedAnalysis } | { ok: false; reason: string };

/** Parses the model's message content and checks it against the schema of these fields. */
export function checkReply(content: string, fields: readonly FieldDefinition[]): ReplyCheck {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    return { ok: false, reason: 'the reply was not JSON' };
  }
  const schema = analysisSchema(fields);
  const validate: ValidateFunction = ajv.compile(schema);
  const valid = validate(data);
  ajv.removeSchema(schema);
  if (!valid) {
    // Ajv's messages name the path and the rule, never the value, so the transcript's content stays out of logs.
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
    return { ok: false, reason: `the reply did not match the schema (${problems})` };
  }
  const reply = data as { summary: string; extracted?: ExtractedValues };
  if (reply.summary.trim() === '') return { ok: false, reason: 'the reply had an empty summary' };
  return { ok: true, analysis: { summary: reply.summary.trim(), extracted: fields.length > 0 ? reply.extracted! : null } };
}
