// openapi.yaml, loaded once per process: the route table, the validators and /openapi.json all come from it. It is
// read from its JSON copy that `npm run codegen` writes beside the generated types (the drift gate keeps the two
// equal): every process parses the document as it starts, and JSON parses many times faster than YAML.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** openapi.yaml as JSON, written by `npm run codegen`. */
const PARSED_DOCUMENT_PATH = resolve(fileURLToPath(new URL('../generated/openapi.gen.json', import.meta.url)));

export type Schema = Record<string, any>;
export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
  'x-error'?: string;
}
export interface Operation {
  operationId: string;
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, unknown>;
  'x-deprecation'?: { at: string; sunset: string; successor?: string };
  /** A larger body limit than the service's for this operation (createBatch: 16 MiB). */
  'x-max-body-bytes'?: number;
}
export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown> & { 'x-versioning-policy': string };
  servers?: { url: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, any>>;
  [key: string]: unknown;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** A document of the caller's own, parsed afresh: a test may change its copy. */
export function loadDocument(): OpenApiDocument {
  return JSON.parse(readFileSync(PARSED_DOCUMENT_PATH, 'utf8')) as OpenApiDocument;
}

let shipped: OpenApiDocument | undefined;

/**
 * openapi.yaml as the service serves it, parsed once per process and frozen: every app of the process shares it, and
 * so shares the validators compiled from it (operation-router.ts), which a document that could change could not.
 */
export function shippedDocument(): OpenApiDocument {
  shipped ??= deepFreeze(loadDocument());
  return shipped;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Follows a local `#/…` reference. */
export function resolveRef<T>(doc: OpenApiDocument, node: T | { $ref: string }): T {
  let current: any = node;
  while (current && typeof current.$ref === 'string') {
    const ref: string = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`only local references are supported, got ${ref}`);
    current = ref
      .slice(2)
      .split('/')
      .reduce((acc: any, seg) => acc?.[seg.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    if (current === undefined) throw new Error(`unresolved reference ${ref}`);
  }
  return current as T;
}

/** The document as served at /openapi.json: the deployment's base URL as server, the policy URL made absolute. */
export function publicDocument(doc: OpenApiDocument, publicBaseUrl: string): OpenApiDocument {
  return {
    ...doc,
    info: { ...doc.info, 'x-versioning-policy': new URL(doc.info['x-versioning-policy'], `${publicBaseUrl}/`).href },
    servers: [{ url: publicBaseUrl, description: 'This deployment.' }],
  };
}
