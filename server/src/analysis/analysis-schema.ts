// The JSON schema the model must answer with, built from the call's field definitions, and the check of a reply.
// The schema follows the strict structured-outputs rules (every property required, additionalProperties false, a
// missing value spelt null); the reply is checked against the same rules, since a local model server may ignore
// response_format.
import type { ExtractedValues, FieldDefinition } from '../generated/types.gen.js';
import { fieldType } from '../voice-agent/field-label.js';

export interface JsonSchema {
  [keyword: string]: unknown;
}

/** `{ summary, extracted: { <name>: <type> | null } }`; without fields, `{ summary }` alone (extracted is then null). */
export function analysisSchema(fields: readonly FieldDefinition[]): JsonSchema {
  const summary = { type: 'string', description: 'Plain-English summary of the call: the objective, the outcome and what was learnt.' };
  if (fields.length === 0) return { type: 'object', properties: { summary }, required: ['summary'], additionalProperties: false };
  // fromEntries, not assignment: a field may be named __proto__.
  const properties = Object.fromEntries(
    fields.map((field) => {
      const description = field.description?.trim();
      return [field.name, { type: [fieldType(field), 'null'], ...(description ? { description } : {}) }];
    }),
  );
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

export type ReplyCheck = { ok: true; analysis: ParsedAnalysis } | { ok: false; reason: string };

/**
 * Parses the model's message content and checks it against analysisSchema(fields), rule by rule. By hand rather
 * than with Ajv: Ajv mishandles a property named __proto__, which is a valid field name. The problems name the
 * path and the rule, never the value, so what the callee said stays out of logs.
 */
export function checkReply(content: string, fields: readonly FieldDefinition[]): ReplyCheck {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    return { ok: false, reason: 'the reply was not JSON' };
  }
  const problems: string[] = [];
  const expectKeys = (at: string, value: Record<string, unknown>, keys: readonly string[]) => {
    for (const key of keys) if (!Object.hasOwn(value, key)) problems.push(`${at} must have property ${key}`);
    if (Object.keys(value).some((key) => !keys.includes(key))) problems.push(`${at} must not have other properties`);
  };
  if (!isObject(data)) return { ok: false, reason: 'the reply did not match the schema (/ must be an object)' };
  expectKeys('/', data, fields.length > 0 ? ['summary', 'extracted'] : ['summary']);
  if (Object.hasOwn(data, 'summary') && typeof data.summary !== 'string') problems.push('/summary must be a string');
  const extracted = data.extracted;
  if (fields.length > 0 && Object.hasOwn(data, 'extracted')) {
    if (!isObject(extracted)) problems.push('/extracted must be an object');
    else {
      expectKeys('/extracted', extracted, fields.map((f) => f.name));
      for (const field of fields) {
        const value = Object.hasOwn(extracted, field.name) ? extracted[field.name] : null;
        const type = fieldType(field);
        if (value !== null && typeof value !== type) problems.push(`/extracted/${field.name} must be ${type} or null`);
      }
    }
  }
  if (problems.length > 0) return { ok: false, reason: `the reply did not match the schema (${problems.join('; ')})` };
  const summary = (data.summary as string).trim();
  if (summary === '') return { ok: false, reason: 'the reply had an empty summary' };
  return { ok: true, analysis: { summary, extracted: fields.length > 0 ? (extracted as ExtractedValues) : null } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
