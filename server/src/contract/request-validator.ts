// Validates a request against its operation in openapi.yaml and turns the first failure into the spec's token;
// a placement also reads every failure of its body (bodyProblems), each top-level property's first.
// The tokens come from the document: `x-error` on a parameter or property, `x-error-missing` for a property
// that is absent, null or blank, `x-error-additional` for unknown properties, and `x-error-order` for which
// failure wins when several apply. Text is checked here too, whatever the schema says: a string (or key) holding
// U+0000 or a lone surrogate is refused with its top-level property's token, because Postgres cannot store the
// first and neither store can store the second as UTF-8; refusing both at the door keeps the stores alike. A body
// that nests deeper than MAX_NESTING is refused before anything else looks at it (json-nesting.ts), with the token
// of the top-level property holding the too-deep value. The path's parameters and the query's values are read
// from the raw URL by request-text.ts's one rule: a path parameter that is not text names nothing (404), a query
// value that is not text is its parameter's 400.
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction, ErrorObject } from 'ajv';
import { closest, distance } from 'fastest-levenshtein';
import type { ErrorToken, RequestProblem } from '../generated/types.gen.js';
import { ApiError } from '../errors/api-error.js';
import { MAX_NESTING, tooDeepAt } from './json-nesting.js';
import { FAULTY_TEXT, pathParameters, queryParameters } from './request-text.js';
import { resolveRef, type OpenApiDocument, type Operation, type Parameter, type Schema } from './openapi-document.js';
import { pointer, tokenMessages, type FormatReasons } from './schema-ajv.js';

export interface RequestParts {
  /** The path as sent, still percent-encoded. */
  rawPath: string;
  /** The query string as sent, without `?`. */
  rawQuery: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface ValidatedRequest {
  path: Record<string, string>;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  /** The parsed body, not yet checked: a handler decides when (placeCall checks it inside its idempotent section). */
  body: unknown;
  /** Throws the body's ApiError, if any. */
  checkBody(): void;
  /** Every problem of the body, the first being checkBody's; empty when it is valid. */
  bodyProblems(): RequestProblem[];
  /** The body's bytes, for a handler that reads its own body (operation-router.ts's Handler.readsBody). */
  readBody?: () => Promise<Buffer | undefined>;
}

export type RequestValidator = (parts: RequestParts) => ValidatedRequest;

interface CompiledParameter {
  param: Parameter;
  validate: ValidateFunction;
}

export function compileRequestValidator(doc: OpenApiDocument, ajv: Ajv2020, path: string, method: string, op: Operation, reasons: FormatReasons = {}): RequestValidator {
  const messages = tokenMessages(doc);
  const params: CompiledParameter[] = (op.parameters ?? []).map((p) => {
    const param = resolveRef<Parameter>(doc, p);
    return { param, validate: ajv.compile(param.schema) };
  });
  const bodySchemaNode = op.requestBody?.content['application/json']?.schema;
  const bodyAt = ['paths', path, method, 'requestBody', 'content', 'application/json', 'schema'];
  const problemsOf = bodySchemaNode ? compileBodyProblems(doc, ajv, bodyAt, reasons) : undefined;
  const bodySchema = bodySchemaNode ? resolveRef<Schema>(doc, bodySchemaNode) : undefined;
  const pathOf = pathParameters(path);

  return (parts) => {
    // At once, as for a body that is not JSON: a handler may fingerprint the body before it checks it.
    const deep = bodySchema ? nestingError(bodySchema, parts.body) : null;
    if (deep) throw deep;
    const out: ValidatedRequest = { path: {}, query: {}, headers: {}, body: parts.body, checkBody, bodyProblems };
    // Path ids name a resource: one that names nothing is a 404 from its handler, and one that is not text names nothing.
    for (const [name, value] of Object.entries(pathOf(parts.rawPath))) {
      if (value === null) throw new ApiError(404, 'not_found', `The path's \`${name}\` ${NOT_TEXT}, so it names nothing.`);
      out.path[name] = value;
    }
    const query = queryParameters(parts.rawQuery);
    for (const { param, validate } of params) {
      if (param.in === 'path') continue;
      const raw = param.in === 'query' ? query.get(param.name) : parts.headers[param.name.toLowerCase()];
      if (raw === undefined) {
        if (param.required) throw parameterError(param, `${param.name} is required.`);
        if (param.in === 'query' && param.schema.default !== undefined) out.query[param.name] = param.schema.default;
        continue;
      }
      if (Array.isArray(raw) && raw.length > 1) throw parameterError(param, `${param.name} must be given once.`);
      const text = Array.isArray(raw) ? raw[0] : raw;
      if (text === null) throw parameterError(param, `${param.name} ${NOT_TEXT}.`);
      const value = coerce(text, param.schema);
      if (value === undefined || !validate(value)) throw parameterError(param, describeParameter(param, messages));
      if (param.in === 'query') out.query[param.name] = value;
      else out.headers[param.name.toLowerCase()] = value as string;
    }
    return out;

    function checkBody(): void {
      const [first] = bodyProblems();
      if (first) throw new ApiError(400, first.error, first.message);
    }

    function bodyProblems(): RequestProblem[] {
      if (!problemsOf) return [];
      if (parts.body === undefined) return op.requestBody?.required ? [NOT_AN_OBJECT] : [];
      return problemsOf(parts.body);
    }
  };
}

/**
 * A check of a JSON value against the document's schema at `at` (the path of keys to it in the document): the first
 * failure as the spec's ApiError, by the schema's x-error tokens and order, or null when the value is valid. A
 * request's body is checked with it, and so is each call of a batch against placeCall's schema.
 */
export function compileBodyCheck(doc: OpenApiDocument, ajv: Ajv2020, at: string[], reasons: FormatReasons = {}): (body: unknown) => ApiError | null {
  const problemsOf = compileBodyProblems(doc, ajv, at, reasons);
  return (body) => {
    const [first] = problemsOf(body);
    return first ? new ApiError(400, first.error, first.message) : null;
  };
}

/**
 * Every problem of a JSON value against the document's schema at `at`: each top-level property's first (by the
 * same rules as compileBodyCheck's one error), in the order of the schema's x-error-order, so that the first is
 * compileBodyCheck's error; empty when the value is valid. A valid value costs what it did before: ajv is
 * compiled with allErrors once, and the problems are only worked out for a value that fails.
 */
export function compileBodyProblems(doc: OpenApiDocument, ajv: Ajv2020, at: string[], reasons: FormatReasons = {}): (body: unknown) => RequestProblem[] {
  const messages = tokenMessages(doc);
  const node = at.reduce<unknown>((n, key) => (n as Record<string, unknown> | undefined)?.[key], doc) as Schema;
  const schema = resolveRef<Schema>(doc, node);
  const validate = ajv.compile({ $ref: pointer(...at) });
  return (body) => {
    const deep = nestingError(schema, body);
    if (deep) return [{ error: deep.token, message: deep.message, field: tooDeepAt(body) ?? '' }];
    const valid = validate(body);
    const faults = textFaults(body);
    if (valid && faults.length === 0) return [];
    return bodyProblems(schema, body, valid ? [] : (validate.errors ?? []), faults, messages, reasons);
  };
}

const NOT_AN_OBJECT: RequestProblem = { error: 'invalid_body', message: 'The request body must be a JSON object.', field: '' };

/** 400 for a body nesting past MAX_NESTING, with the token of the top-level property holding the too-deep value. */
function nestingError(schema: Schema, body: unknown): ApiError | null {
  const prop = tooDeepAt(body);
  if (prop === undefined) return null;
  const what = `nests arrays and objects more than ${MAX_NESTING} levels deep (the body itself is level 1)`;
  if (prop === null) return new ApiError(400, 'invalid_body', `The request body ${what}.`);
  return new ApiError(400, propertyToken(schema, prop), `\`${prop}\` ${what}.`);
}

/** The token of a top-level property: its own x-error, the schema's for an unknown one, else invalid_body. */
function propertyToken(schema: Schema, prop: string): ErrorToken {
  const known = schema.properties !== undefined && Object.hasOwn(schema.properties, prop);
  return ((known ? schema.properties[prop]['x-error'] : schema['x-error-additional']) ?? 'invalid_body') as ErrorToken;
}

const NOT_TEXT = 'is not text: it holds an invalid percent-encoding, bytes that are not UTF-8, or U+0000';

/** Query and header values arrive as strings; integers must be written as plain decimal digits. */
function coerce(raw: string, schema: Schema): unknown {
  if (schema.type === 'integer') return /^-?\d{1,15}$/.test(raw) ? Number(raw) : undefined;
  if (schema.type === 'number') return raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : undefined;
  return raw;
}

/** One plain sentence: the token's own description in openapi.yaml, never the parameter's whole documentation. */
function describeParameter(param: Parameter, messages: Record<string, string>): string {
  const s = param.schema;
  if (s.type === 'integer' && s.minimum !== undefined && s.maximum !== undefined) {
    return `${param.name} must be an integer from ${s.minimum} to ${s.maximum}.`;
  }
  const token = param['x-error'];
  return (token && messages[token]) || `${param.name} is not valid.`;
}

function parameterError(param: Parameter, message: string): ApiError {
  return new ApiError(400, (param['x-error'] ?? 'invalid_body') as ErrorToken, message);
}

const isBlank = (v: unknown) => v === null || (typeof v === 'string' && v.trim() === '');

interface TextFault {
  /** Path from the body's root, e.g. ['fields', '0', 'description']. */
  segments: string[];
  message: string;
}

/** The first faulty string (value or key) under each top-level property. */
function textFaults(body: unknown): TextFault[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const faults: TextFault[] = [];
  for (const [prop, value] of Object.entries(body)) {
    const found = findFault(value, [prop]);
    if (found) faults.push(found);
  }
  return faults;
}

function findFault(value: unknown, segments: string[]): TextFault | undefined {
  if (typeof value === 'string') return FAULTY_TEXT.test(value) ? { segments, message: faultMessage(segments, value) } : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (FAULTY_TEXT.test(key)) return { segments, message: `A key in \`${segments.join('.')}\` ${faultKind(key)}.` };
    const found = findFault(inner, [...segments, key]);
    if (found) return found;
  }
  return undefined;
}

const faultKind = (text: string) => (text.includes('\u0000') ? 'contains U+0000 (NUL), which text fields must not hold' : 'contains a lone surrogate, which is not valid Unicode text');

const faultMessage = (segments: string[], text: string) => `\`${segments.join('.')}\` ${faultKind(text)}.`;

/**
 * The problems of a body that failed its schema: for each top-level property (or unknown field), the first of its
 * failures with the lowest rank in the schema's x-error-order; then those in rank order, ties in the order they
 * were found. So the first is the failure that wins when only one is told: the first found with the lowest rank.
 */
function bodyProblems(schema: Schema, body: unknown, errors: ErrorObject[], faults: TextFault[], messages: Record<string, string>, reasons: FormatReasons): RequestProblem[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [NOT_AN_OBJECT];
  const data = body as Record<string, unknown>;
  const order: string[] = schema['x-error-order'] ?? [];
  const rank = (t: string) => (order.includes(t) ? order.indexOf(t) : order.length);
  const best = new Map<string, { problem: RequestProblem; found: number }>();
  let found = 0;
  const consider = (token: string | undefined, message: string, segments: string[]) => {
    if (!token) return;
    const held = best.get(segments[0]);
    if (!held || rank(token) < rank(held.problem.error)) best.set(segments[0], { problem: { error: token as ErrorToken, message, field: segments.join('.') }, found });
    found += 1;
  };
  // Faulty text first: for a property that also breaks its schema (a NUL in `to`), the fault is the clearer message.
  for (const fault of faults) consider(propertyToken(schema, fault.segments[0]), fault.message, fault.segments);
  // A format that can say why a value fails it explains its property whatever rule the value breaks (a `to` that
  // is a number, or fails the pattern, is explained as a phone number); the format's error comes first, so that
  // its reason is the message.
  const formatOf = (e: ErrorObject) => (e.keyword === 'format' ? String(e.params.format) : e.instancePath.split('/').length === 2 ? schema.properties?.[e.instancePath.slice(1)]?.format : undefined);
  const explained = (e: ErrorObject) => e.keyword === 'format' && reasons[String(e.params.format)] !== undefined;
  const known = Object.keys(schema.properties ?? {});
  const unknown = errors.filter((e) => e.instancePath === '' && e.keyword === 'additionalProperties').map((e) => String(e.params.additionalProperty));
  // An unknown field told as a required one's misspelling is not told again on its own.
  const missing = errors.filter((e) => e.instancePath === '' && e.keyword === 'required').map((e) => String(e.params.missingProperty));
  const told = new Set(unknown.filter((u) => missing.includes(likelyMeant(u, known) ?? '')));
  for (const e of [...errors].sort((a, b) => Number(explained(b)) - Number(explained(a)))) {
    if (e.instancePath === '') {
      if (e.keyword === 'required') {
        const prop = String(e.params.missingProperty);
        const ps = schema.properties?.[prop] ?? {};
        // A required field sent misspelt is missing and unknown at once: the message says both in one sentence.
        const misspelt = unknown.find((u) => likelyMeant(u, known) === prop);
        consider(
          ps['x-error-missing'] ?? ps['x-error'],
          misspelt ? `\`${prop}\` is required, and the body has an unknown field \`${misspelt}\`: did you mean \`${prop}\`?` : `\`${prop}\` is required.`,
          [prop],
        );
      } else if (e.keyword === 'additionalProperties') {
        const prop = String(e.params.additionalProperty);
        const guess = likelyMeant(prop, known);
        const rest = 'the request schema for the fields this version accepts.';
        if (!told.has(prop)) consider(schema['x-error-additional'], guess ? `Unknown field \`${prop}\`; did you mean \`${guess}\`? See ${rest}` : `Unknown field \`${prop}\`; see ${rest}`, [prop]);
      }
      continue;
    }
    const segments = e.instancePath
      .slice(1)
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const prop = segments[0];
    const ps = schema.properties?.[prop] ?? {};
    if (ps['x-error-missing'] && isBlank(data[prop])) {
      consider(ps['x-error-missing'], `\`${prop}\` is required and must not be blank.`, [prop]);
    } else {
      const token = ps['x-error'];
      // A format that can say why the value fails it says so; otherwise the token's meaning and ajv's detail.
      const format = formatOf(e);
      const reason = format === undefined ? null : reasons[format]?.(valueAt(data, segments), segments.join('.'));
      const detail = `\`${segments.join('.')}\` ${e.message ?? 'is invalid'}${allowed(e)}.`;
      consider(token, reason ?? (token && messages[token] ? `${messages[token]} (${detail})` : detail), segments);
    }
  }
  if (best.size === 0) return [{ error: 'invalid_body', message: 'The request body does not match the request schema.', field: '' }];
  return [...best.values()].sort((a, b) => rank(a.problem.error) - rank(b.problem.error) || a.found - b.found).map((b) => b.problem);
}

function valueAt(data: unknown, segments: string[]): unknown {
  return segments.reduce<unknown>((node, s) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[s] : undefined), data);
}

/** The known field a mistyped one most likely meant: the same letters in another case or spelling, or one or two edits away. */
function likelyMeant(prop: string, known: string[]): string | undefined {
  const letters = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const same = known.find((k) => letters(k) === letters(prop));
  if (same || known.length === 0) return same;
  const near = closest(prop, known);
  return distance(prop, near) <= Math.min(2, Math.floor(near.length / 3)) ? near : undefined;
}

function allowed(e: ErrorObject): string {
  return e.keyword === 'enum' ? `: ${(e.params.allowedValues as unknown[]).join(', ')}` : '';
}
