// The JSON schema the model must answer with, built from the call's field definitions, and the check of a reply.
// The schema follows the strict structured-outputs rules (every property required, additionalProperties false, a
// missing value spelt null); the reply is checked against the same rules, since a local model server may ignore
// response_format.
import type { ExtractedValues, FieldDefinition } from '../generated/types.gen.js';
import { fieldType } from '../conversation/field-label.js';

export interface JsonSchema {
  [keyword: string]: unknown;
}

/**
 * `{ summary, opt_out, extracted: { <name>: <type> | null }, evidence: { <name>: { turn, quote } | null } }`; without
 * fields, `{ summary, opt_out }` alone (extracted and evidence are then null).
 */
export function analysisSchema(fields: readonly FieldDefinition[]): JsonSchema {
  const summary = { type: 'string', description: 'Plain-English summary of the call: the objective, the outcome and what was learnt.' };
  const opt_out = { type: 'boolean', description: 'True when the callee asked not to be called again (to be taken off the list, to stop calling).' };
  if (fields.length === 0) return { type: 'object', properties: { summary, opt_out }, required: ['summary', 'opt_out'], additionalProperties: false };
  // fromEntries, not assignment: a field may be named __proto__.
  const properties = Object.fromEntries(
    fields.map((field) => {
      const description = field.description?.trim();
      return [field.name, { type: [fieldType(field), 'null'], ...(description ? { description } : {}) }];
    }),
  );
  const quote = {
    type: ['object', 'null'],
    description: 'Where the value was said; null when the value is null.',
    properties: {
      turn: { type: 'integer', description: 'The number in brackets of the transcript line in which the callee gave the value.' },
      quote: { type: 'string', description: 'The words of that line that give the value, copied exactly.' },
    },
    required: ['turn', 'quote'],
    additionalProperties: false,
  };
  const evidence = Object.fromEntries(fields.map((field) => [field.name, quote]));
  return {
    type: 'object',
    properties: {
      summary,
      opt_out,
      extracted: { type: 'object', properties, required: fields.map((f) => f.name), additionalProperties: false },
      evidence: { type: 'object', properties: evidence, required: fields.map((f) => f.name), additionalProperties: false },
    },
    required: ['summary', 'opt_out', 'extracted', 'evidence'],
    additionalProperties: false,
  };
}

export interface ParsedAnalysis {
  summary: string;
  /** The model's opt_out; false when a reply left it out. */
  optOut: boolean;
  extracted: ExtractedValues | null;
  /** As the model gave it: not yet checked against the transcript. */
  evidence: Record<string, { turn: number; quote: string } | null> | null;
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
  // opt_out is asked for but not required of a reply: a model (or a local server ignoring the schema) that leaves it
  // out still gives the fields, and the opt-out has the transcript's phrases as its floor (opt-out.ts).
  const { opt_out: optOut = false, ...rest } = data;
  expectKeys('/', rest, fields.length > 0 ? ['summary', 'extracted', 'evidence'] : ['summary']);
  if (typeof optOut !== 'boolean') problems.push('/opt_out must be a boolean');
  if (Object.hasOwn(data, 'summary') && typeof data.summary !== 'string') problems.push('/summary must be a string');
  const extracted = data.extracted;
  if (fields.length > 0 && Object.hasOwn(data, 'extracted')) {
    if (!isObject(extracted)) problems.push('/extracted must be an object');
    else {
      expectKeys(
        '/extracted',
        extracted,
        fields.map((f) => f.name),
      );
      for (const field of fields) {
        const value = Object.hasOwn(extracted, field.name) ? extracted[field.name] : null;
        const type = fieldType(field);
        if (value !== null && typeof value !== type) problems.push(`/extracted/${field.name} must be ${type} or null`);
      }
    }
  }
  const evidence = data.evidence;
  if (fields.length > 0 && Object.hasOwn(data, 'evidence')) {
    if (!isObject(evidence)) problems.push('/evidence must be an object');
    else {
      expectKeys(
        '/evidence',
        evidence,
        fields.map((f) => f.name),
      );
      for (const field of fields) {
        const claim = Object.hasOwn(evidence, field.name) ? evidence[field.name] : null;
        if (claim === null) continue;
        if (!isObject(claim)) problems.push(`/evidence/${field.name} must be an object or null`);
        else {
          expectKeys(`/evidence/${field.name}`, claim, ['turn', 'quote']);
          if (!Number.isInteger(claim.turn)) problems.push(`/evidence/${field.name}/turn must be an integer`);
          if (typeof claim.quote !== 'string') problems.push(`/evidence/${field.name}/quote must be a string`);
        }
      }
    }
  }
  if (problems.length > 0) return { ok: false, reason: `the reply did not match the schema (${problems.join('; ')})` };
  const summary = (data.summary as string).trim();
  if (summary === '') return { ok: false, reason: 'the reply had an empty summary' };
  if (fields.length === 0) return { ok: true, analysis: { summary, optOut: optOut as boolean, extracted: null, evidence: null } };
  return { ok: true, analysis: { summary, optOut: optOut as boolean, extracted: extracted as ExtractedValues, evidence: evidence as ParsedAnalysis['evidence'] } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
