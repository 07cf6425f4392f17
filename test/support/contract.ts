// The contract helper: every HTTP response a test receives is checked against openapi.yaml — its status must be
// declared for the operation, its JSON body must match the declared schema, and every declared header marked
// required must be present with a value that matches its schema. Responses off the document's routes must still
// be the spec's error body.
import { expect } from 'chai';
import type { ValidateFunction } from 'ajv';
import { loadDocument, resolveRef, HTTP_METHODS, type OpenApiDocument } from '../../server/src/contract/openapi-document.js';
import { ajvFor, pointer } from '../../server/src/contract/schema-ajv.js';

const doc: OpenApiDocument = loadDocument();
const ajv = ajvFor(doc, { allowPrivateWebhooks: true });
const compiled = new Map<string, ValidateFunction>();
function validator(ref: string, schema?: object): ValidateFunction {
  let v = compiled.get(ref);
  if (!v) {
    v = schema ? ajv.compile(schema) : ajv.compile({ $ref: ref });
    compiled.set(ref, v);
  }
  return v;
}

const routes = Object.entries(doc.paths).map(([template, item]) => ({
  template,
  regex: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
  item,
}));

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  operationId: string | null;
}

/** Throws an assertion error when the response breaks the contract. */
export function assertContract(method: string, path: string, status: number, headers: Headers, text: string): string | null {
  const m = method.toLowerCase();
  const route = routes.find((r) => r.regex.test(path));
  const op = route && (HTTP_METHODS as readonly string[]).includes(m) ? (route.item as any)[m === 'head' ? 'get' : m] : undefined;
  const where = `${method} ${path} → ${status}`;
  const type = headers.get('content-type') ?? '';
  if (!op) {
    expect(type, `${where}: content type`).to.match(/^application\/json/);
    const v = validator(pointer('components', 'schemas', 'ApiError'));
    expect(v(JSON.parse(text)), `${where}: error body ${text} ${ajv.errorsText(v.errors)}`).to.equal(true);
    return null;
  }
  const declared = op.responses[String(status)] ?? op.responses.default;
  expect(declared, `${where}: status ${status} is not declared in openapi.yaml`).to.not.equal(undefined);
  const response = resolveRef<any>(doc, declared);
  const responseRef = declared.$ref ? declared.$ref.replace(/^#\//, `openapi#/`) : pointer('paths', route!.template, m, 'responses', String(status));
  for (const [name, h] of Object.entries<any>(response.headers ?? {})) {
    const header = resolveRef<any>(doc, h);
    const value = headers.get(name);
    if (header.required) expect(value, `${where}: required header ${name}`).to.not.equal(null);
    if (value !== null && header.schema) {
      const typed = header.schema.type === 'integer' ? Number(value) : value;
      const v = validator(`${responseRef}/headers/${name}`, header.schema);
      expect(v(typed), `${where}: header ${name}: ${value} ${ajv.errorsText(v.errors)}`).to.equal(true);
    }
  }
  const content = response.content ?? {};
  const mediaType = Object.keys(content).find((t) => type.startsWith(t));
  if (Object.keys(content).length > 0) expect(mediaType, `${where}: content type ${type} not in ${Object.keys(content)}`).to.not.equal(undefined);
  if (mediaType === 'application/json') {
    const v = validator(`${responseRef.replace(/\/$/, '')}/content/application~1json/schema`);
    expect(v(JSON.parse(text)), `${where}: body ${text.slice(0, 400)} ${ajv.errorsText(v.errors)}`).to.equal(true);
  }
  return op.operationId;
}

export interface RequestOptions {
  key?: string | null;
  headers?: Record<string, string>;
  body?: unknown;
  /** Send this exact text, or these exact bytes, as the body. */
  rawBody?: string | Uint8Array;
}

/** A fetch-based client for tests; every response goes through assertContract. */
export function apiClient(baseUrl: string, defaultKey?: string) {
  async function request<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    const key = opts.key === undefined ? defaultKey : opts.key;
    if (key) headers.authorization = `Bearer ${key}`;
    let body: BodyInit | undefined;
    if (opts.rawBody !== undefined) body = typeof opts.rawBody === 'string' ? opts.rawBody : new Blob([new Uint8Array(opts.rawBody)]);
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(baseUrl + path, { method, headers, body });
    const buf = Buffer.from(await res.arrayBuffer());
    const text = buf.toString('utf8');
    const isJson = (res.headers.get('content-type') ?? '').startsWith('application/json');
    const operationId = assertContract(method, path.split('?')[0], res.status, res.headers, isJson ? text : '{}');
    return { status: res.status, headers: res.headers, body: (isJson ? JSON.parse(text) : buf) as T, text, operationId };
  }
  return {
    request,
    get: <T = any>(path: string, opts?: RequestOptions) => request<T>('GET', path, opts),
    post: <T = any>(path: string, opts?: RequestOptions) => request<T>('POST', path, opts),
  };
}
export type ApiClient = ReturnType<typeof apiClient>;
