// One Ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses) holding the whole document, so any schema in it can be
// compiled by JSON pointer. It knows the document's own formats and keywords:
//   format e164         `+` and digits, and a valid number for its country (libphonenumber full metadata)
//   format webhook-url  an https URL with a public host and no credentials (see placement/webhook-url.ts)
//   x-unique-by: <prop> the array's items must differ in that property
//   x-reserved-names    the string must not be one of these (the names of svc's own tools)
//   x-json-schema       the object must be a JSON Schema that compiles, at most `maxBytes` as JSON (a client
//                       tool's parameters; client-schemas.ts)
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { SchemaValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { isE164 } from '../placement/caller-id.js';
import { checkWebhookUrl } from '../placement/webhook-url.js';
import { numberProblem } from '../placement/number-problem.js';
import type { OpenApiDocument } from './openapi-document.js';
import { jsonSchemaProblem } from './client-schemas.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const DOCUMENT_ID = 'openapi';

export interface SchemaOptions {
  /** SVC_WEBHOOK_ALLOW_PRIVATE: accept http and loopback webhook URLs (local development only). */
  allowPrivateWebhooks: boolean;
}

/**
 * Formats that can say why a value fails them, in sentences a client can act on (they name the field, `at`). A
 * property of such a format is explained by it whatever rule of its schema the value breaks (its type, its pattern).
 */
export type FormatReasons = Record<string, (value: unknown, at: string) => string | null>;

export function formatReasons(options: SchemaOptions): FormatReasons {
  return {
    e164: (value, at) => numberProblem(value, `\`${at}\``),
    'webhook-url': (url, at) => (typeof url === 'string' ? checkWebhookUrl(url, { allowPrivate: options.allowPrivateWebhooks }, at) : null),
  };
}

export function ajvFor(doc: OpenApiDocument, options: SchemaOptions): Ajv2020 {
  // strict: false because the document's own keys (openapi, paths, x-…) are not JSON Schema keywords.
  const ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: false });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addFormat('e164', { type: 'string', validate: isE164 });
  const reasons = formatReasons(options);
  ajv.addFormat('webhook-url', { type: 'string', validate: (url: string) => reasons['webhook-url']!(url, 'webhookUrl') === null });
  ajv.addKeyword({
    keyword: 'x-unique-by',
    type: 'array',
    schemaType: 'string',
    error: { message: ({ schema }) => `must not repeat a ${String(schema)}` },
    validate: (prop: string, items: unknown[]) => {
      const seen = new Set<unknown>();
      for (const item of items) {
        const value = item && typeof item === 'object' ? (item as Record<string, unknown>)[prop] : undefined;
        if (value === undefined) continue;
        if (seen.has(value)) return false;
        seen.add(value);
      }
      return true;
    },
  });
  ajv.addKeyword({
    keyword: 'x-reserved-names',
    type: 'string',
    schemaType: 'array',
    error: { message: ({ schema }) => `must not be one of svc's own tools' names (${(schema as string[]).join(', ')})` },
    validate: (names: string[], value: string) => !names.includes(value),
  });
  const jsonSchema: SchemaValidateFunction = (bounds: { maxBytes: number }, value: unknown) => {
    const problem = jsonSchemaProblem(value, bounds.maxBytes);
    jsonSchema.errors = problem === null ? [] : [{ keyword: 'x-json-schema', message: problem, params: {} }];
    return problem === null;
  };
  ajv.addKeyword({ keyword: 'x-json-schema', type: 'object', schemaType: 'object', errors: true, validate: jsonSchema });
  ajv.addSchema(doc, DOCUMENT_ID);
  return ajv;
}

export function pointer(...segments: string[]): string {
  return `${DOCUMENT_ID}#/${segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/** The meaning of each error token, from ErrorToken's x-enum-descriptions without the leading status. */
export function tokenMessages(doc: OpenApiDocument): Record<string, string> {
  const descriptions: Record<string, string> = doc.components.schemas?.ErrorToken?.['x-enum-descriptions'] ?? {};
  return Object.fromEntries(Object.entries(descriptions).map(([t, d]) => [t, d.replace(/^\d{3}\.\s*/, '')]));
}
