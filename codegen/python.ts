// The Python SDK's generated half, from openapi.yaml: a TypedDict or an alias for every schema (models.py), one
// method per operation over a transport the hand-written client supplies (operations.py), and the error tokens
// as data (error_tokens.py). The output is plain Python 3.9 (typing's Optional, Union, List, Dict, Literal), so it
// needs nothing outside the standard library.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const HEADER = '# DO NOT EDIT. Generated from openapi.yaml by `npm run codegen`.';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
const PY_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

type Schema = Record<string, any>;
interface Doc {
  paths: Record<string, Schema>;
  components: { schemas: Record<string, Schema>; parameters: Record<string, Schema>; responses: Record<string, Schema> };
}

/** Writes `<outDir>/__init__.py`, `models.py`, `operations.py` and `error_tokens.py`. */
export function generatePython(doc: Doc, outDir: string): void {
  mkdirSync(outDir, { recursive: true });
  const models = new Models(doc);
  for (const name of Object.keys(doc.components.schemas)) models.define(name);
  const operations = operationMethods(doc, models);
  writeFileSync(join(outDir, '__init__.py'), `${HEADER}\n"""The part of the SDK derived from openapi.yaml: models, operations and error tokens."""\n`);
  writeFileSync(join(outDir, 'models.py'), models.render());
  writeFileSync(join(outDir, 'operations.py'), operations);
  writeFileSync(join(outDir, 'error_tokens.py'), errorTokens(doc.components.schemas.ErrorToken));
}

function refName(ref: string): string {
  const m = /^#\/components\/schemas\/([A-Za-z0-9_]+)$/.exec(ref);
  if (!m) throw new Error(`python codegen: unsupported $ref ${ref}`);
  return m[1];
}

const pascal = (s: string) => s.replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_, __, c: string) => c.toUpperCase());
const snake = (s: string) =>
  s
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/^_|_$/g, '');
const upperSnake = (s: string) => snake(s).toUpperCase();

function identifier(name: string, where: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || PY_KEYWORDS.has(name)) {
    throw new Error(`python codegen: ${where} "${name}" is not a Python identifier; teach codegen/python.ts a spelling for it`);
  }
  return name;
}

const pyString = (s: string) => JSON.stringify(s);

/** A docstring body: the text as written, with what would end or escape the literal made safe. */
function docstring(text: string, indent: string): string[] {
  const body = text.trim().replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"');
  const lines = body.split('\n').map((l) => (l.trim() === '' ? '' : `${indent}${l.trimEnd()}`));
  if (lines.length === 1) return [`${indent}"""${body}"""`];
  return [`${indent}"""${lines[0].trimStart()}`, ...lines.slice(1), `${indent}"""`];
}

/** `#: ` comment lines, wrapped near 110 columns, for a property's description. */
function comment(text: string, indent: string): string[] {
  const words = text.trim().split(/\s+/);
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && `${indent}#: ${line} ${w}`.length > 110) {
      lines.push(`${indent}#: ${line}`);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(`${indent}#: ${line}`);
  return lines;
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  const nullable = unique.includes('None');
  const rest = unique.filter((t) => t !== 'None');
  if (rest.length === 0) return 'None';
  const one = rest.length === 1 ? rest[0] : `Union[${rest.join(', ')}]`;
  if (!nullable) return one;
  return rest.length === 1 ? `Optional[${one}]` : `Union[${rest.join(', ')}, None]`;
}

const SCALARS: Record<string, string> = { string: 'str', integer: 'int', number: 'float', boolean: 'bool', null: 'None' };

/** The models module: definitions are emitted dependencies first, so every alias names only what exists. */
class Models {
  private readonly out = new Map<string, string[]>();
  private readonly inProgress = new Set<string>();
  /** Every name defined, for `__all__` and for the operations module's imports. */
  readonly names: string[] = [];

  constructor(private readonly doc: Doc) {}

  define(name: string): string {
    if (this.out.has(name)) return name;
    if (this.inProgress.has(name)) throw new Error(`python codegen: ${name} refers to itself; models.py has no forward references`);
    const schema = this.doc.components.schemas[name];
    if (!schema) throw new Error(`python codegen: no schema ${name}`);
    this.inProgress.add(name);
    const lines = this.definition(name, schema);
    this.inProgress.delete(name);
    this.out.set(name, lines);
    this.names.push(name);
    return name;
  }

  /** The Python type of `schema`; `context` names an inline object that needs a class of its own. */
  typeOf(schema: Schema | boolean | undefined, context: string): string {
    if (schema === undefined || schema === true) return 'Any';
    if (schema === false) throw new Error(`python codegen: ${context} is the schema false`);
    if (schema.$ref) return this.define(refName(schema.$ref));
    // A JSON Schema the client writes (a tool's parameters) is open: any keyword may appear in it.
    if (schema['x-json-schema']) return 'Dict[str, Any]';
    if (schema.const !== undefined) return `Literal[${pyLiteral(schema.const)}]`;
    if (schema.enum) return `Literal[${schema.enum.map(pyLiteral).join(', ')}]`;
    const alternatives = schema.oneOf ?? schema.anyOf;
    if (alternatives) return union(alternatives.map((s: Schema, i: number) => this.typeOf(s, `${context}${i}`)));
    if (schema.allOf) return this.inlineClass(context, schema);
    const types: string[] = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
    if (types.length === 0) return schema.properties ? this.inlineClass(context, schema) : 'Any';
    return union(
      types.map((t) => {
        if (t === 'array') return `List[${this.typeOf(schema.items, `${context}Item`)}]`;
        if (t === 'object') {
          if (schema.properties) return this.inlineClass(context, schema);
          return `Dict[str, ${this.typeOf(schema.additionalProperties, `${context}Value`)}]`;
        }
        const scalar = SCALARS[t];
        if (!scalar) throw new Error(`python codegen: ${context} has type ${t}`);
        return scalar;
      }),
    );
  }

  private inlineClass(name: string, schema: Schema): string {
    if (this.doc.components.schemas[name] || this.out.has(name)) throw new Error(`python codegen: the inline object ${name} collides with a schema of that name`);
    this.out.set(name, this.typedDict(name, schema));
    this.names.push(name);
    return name;
  }

  private definition(name: string, schema: Schema): string[] {
    const isObject = schema.allOf || schema.properties || (schema.type === 'object' && schema.additionalProperties === undefined);
    if (isObject) return this.typedDict(name, schema);
    const lines = [`${name} = ${this.typeOf(schema, name)}`];
    if (schema.description) lines.push(...docstring(schema.description, ''));
    if (schema.enum && schema.type === 'string') lines.push(`${upperSnake(name)}_VALUES: Tuple[${name}, ...] = (${schema.enum.map(pyLiteral).join(', ')}${schema.enum.length === 1 ? ',' : ''})`);
    return lines;
  }

  /** An object's properties and required names, with allOf's parts merged in order (later ones win). */
  private flatten(schema: Schema): { properties: Record<string, Schema>; required: Set<string>; description?: string } {
    if (schema.$ref) return this.flatten(this.doc.components.schemas[refName(schema.$ref)]);
    const properties: Record<string, Schema> = {};
    const required = new Set<string>();
    for (const part of schema.allOf ?? []) {
      const f = this.flatten(part);
      Object.assign(properties, f.properties);
      for (const r of f.required) required.add(r);
    }
    Object.assign(properties, schema.properties ?? {});
    for (const r of schema.required ?? []) required.add(r);
    return { properties, required, description: schema.description };
  }

  private typedDict(name: string, schema: Schema): string[] {
    const { properties, required, description } = this.flatten(schema);
    const field = (key: string) => {
      const p = properties[key];
      const lines = p.description ? comment(p.description, '    ') : [];
      lines.push(`    ${identifier(key, `property of ${name}`)}: ${this.typeOf(p, `${name}${pascal(key)}`)}`);
      return lines;
    };
    const keys = Object.keys(properties);
    const requiredKeys = keys.filter((k) => required.has(k));
    const optionalKeys = keys.filter((k) => !required.has(k));
    const doc = description ? docstring(description, '    ') : [];
    if (optionalKeys.length === 0) return [`class ${name}(TypedDict):`, ...doc, ...(keys.length ? keys.flatMap(field) : doc.length ? [] : ['    pass'])];
    if (requiredKeys.length === 0) return [`class ${name}(TypedDict, total=False):`, ...doc, ...optionalKeys.flatMap(field)];
    // Python 3.9 has no NotRequired: the required keys go in a base class, the others in a total=False subclass.
    return [`class _${name}Required(TypedDict):`, ...requiredKeys.flatMap(field), '', '', `class ${name}(_${name}Required, total=False):`, ...doc, ...optionalKeys.flatMap(field)];
  }

  render(): string {
    const blocks = [...this.out.values()].map((lines) => lines.join('\n'));
    return [
      HEADER,
      '"""The request and response bodies of openapi.yaml as TypedDicts: plain dicts at run time, typed for checkers."""',
      'from __future__ import annotations',
      '',
      typingImports(blocks.join('\n'), ['TypedDict']),
      '',
      `__all__ = [${this.names.map(pyString).join(', ')}]`,
      '',
      '',
      blocks.join('\n\n\n'),
      '',
    ].join('\n');
  }
}

const TYPING = ['Any', 'Dict', 'Iterator', 'List', 'Literal', 'Mapping', 'Optional', 'Tuple', 'TypedDict', 'Union', 'cast'];

/** The `from typing import` line for the names `code` uses, and `always`. */
function typingImports(code: string, always: string[]): string {
  const bare = code.replace(/"""[\s\S]*?"""/g, '').replace(/^\s*#.*$/gm, '');
  const used = TYPING.filter((n) => always.includes(n) || new RegExp(`\\b${n}\\b`).test(bare));
  return `from typing import ${used.join(', ')}`;
}

function pyLiteral(v: unknown): string {
  if (typeof v === 'string') return pyString(v);
  if (typeof v === 'number' && Number.isInteger(v)) return String(v);
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  throw new Error(`python codegen: no Python literal for ${JSON.stringify(v)}`);
}

function resolveParameter(doc: Doc, p: Schema): Schema {
  if (!p.$ref) return p;
  const m = /^#\/components\/parameters\/(.+)$/.exec(p.$ref);
  if (!m) throw new Error(`python codegen: unsupported parameter $ref ${p.$ref}`);
  return doc.components.parameters[m[1]];
}

function resolveResponse(doc: Doc, r: Schema): Schema {
  if (!r.$ref) return r;
  const m = /^#\/components\/responses\/(.+)$/.exec(r.$ref);
  if (!m) throw new Error(`python codegen: unsupported response $ref ${r.$ref}`);
  return doc.components.responses[m[1]];
}

/** What a success answer is: JSON of a type, nothing, bytes, or a live stream. */
function answerOf(doc: Doc, op: Schema, models: Models, context: string): { kind: 'json' | 'none' | 'binary' | 'stream'; type: string } {
  const ok = Object.entries<Schema>(op.responses ?? {})
    .filter(([code]) => /^2\d\d$/.test(code))
    .map(([, r]) => resolveResponse(doc, r));
  const contents = ok.flatMap((r) => Object.entries<Schema>(r.content ?? {}));
  if (contents.length === 0) return { kind: 'none', type: 'None' };
  const types = [...new Set(contents.map(([t]) => t))];
  if (types.length > 1) throw new Error(`python codegen: ${context} answers ${types.join(' and ')}`);
  const [type] = types;
  if (type === 'application/json') return { kind: 'json', type: union(contents.map(([, c]) => models.typeOf(c.schema, `${pascal(context)}Response`))) };
  if (type === 'text/event-stream') return { kind: 'stream', type: 'Iterator[LiveEvent]' };
  if (contents.every(([, c]) => c.schema?.format === 'binary')) return { kind: 'binary', type: 'Download' };
  throw new Error(`python codegen: ${context} answers ${type}, which the Python client does not read`);
}

interface Param {
  name: string;
  wire: string;
  location: 'path' | 'query' | 'header';
  type: string;
  required: boolean;
}

function operationMethods(doc: Doc, models: Models): string {
  const methods: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const id: string = op.operationId;
      const params: Param[] = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((raw: Schema) => {
        const p = resolveParameter(doc, raw);
        if (!['path', 'query', 'header'].includes(p.in)) throw new Error(`python codegen: ${id} has a parameter in ${p.in}`);
        return { name: identifier(snake(p.name), `parameter of ${id}`), wire: p.name, location: p.in, type: models.typeOf(p.schema, `${pascal(id)}${pascal(p.name)}`), required: !!p.required };
      });
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      if (op.requestBody && !bodySchema) throw new Error(`python codegen: ${id} has a body that is not JSON`);
      const bodyType = bodySchema ? models.typeOf(bodySchema, `${pascal(id)}Body`) : null;
      const answer = answerOf(doc, op, models, id);

      const positional = params.filter((p) => p.location === 'path').map((p) => `${p.name}: ${p.type}`);
      if (bodyType) positional.push(op.requestBody.required ? `body: ${bodyType}` : `body: Optional[${bodyType}] = None`);
      const keyword = params
        .filter((p) => p.location !== 'path')
        .sort((a, b) => Number(b.required) - Number(a.required))
        .map((p) => (p.required ? `${p.name}: ${p.type}` : `${p.name}: Optional[${p.type}] = None`));
      const signature = ['self', ...positional, ...(keyword.length ? ['*', ...keyword] : [])].join(', ');
      const dict = (location: Param['location']) =>
        `{${params
          .filter((p) => p.location === location)
          .map((p) => `${pyString(p.wire)}: ${p.name}`)
          .join(', ')}}`;
      const call = `self._call(${pyString(id)}, ${pyString(method.toUpperCase())}, ${pyString(path)}, ${dict('path')}, ${dict('query')}, ${dict('header')}, ${bodyType ? 'body' : 'None'}, ${pyString(answer.kind)})`;
      const text = [op.summary, op.description].filter(Boolean).join('\n\n');
      methods.push(
        [
          `    def ${snake(id)}(${signature}) -> ${answer.type}:`,
          ...(text ? docstring(text, '        ') : []),
          answer.kind === 'none' ? `        ${call}` : `        return cast(${pyString(answer.type)}, ${call})`,
        ].join('\n'),
      );
    }
  }
  const used = models.names.filter((n) => methods.some((m) => new RegExp(`\\b${n}\\b`).test(m)));
  return [
    HEADER,
    '"""One method per operation of openapi.yaml. The class holds no transport: SvcClient supplies `_call`."""',
    'from __future__ import annotations',
    '',
    typingImports(methods.join('\n'), ['Any', 'Literal', 'Mapping', 'Optional']),
    '',
    'from ..download import Download',
    'from ..live_stream import LiveEvent',
    `from .models import ${used.join(', ')}`,
    '',
    '',
    'class Operations:',
    '    def _call(',
    '        self,',
    '        operation_id: str,',
    '        method: str,',
    '        path: str,',
    '        path_params: Mapping[str, Any],',
    '        query: Mapping[str, Any],',
    '        headers: Mapping[str, Optional[str]],',
    '        body: Any,',
    '        answer: Literal["json", "none", "binary", "stream"],',
    '    ) -> Any:',
    '        raise NotImplementedError',
    '',
    methods.join('\n\n'),
    '',
  ].join('\n');
}

/** Every error token with its HTTP status (the number its description starts with) and its description. */
function errorTokens(schema: Schema): string {
  const descriptions: Record<string, string> = schema['x-enum-descriptions'] ?? {};
  const rows = (schema.enum as string[]).map((token) => {
    const text = descriptions[token] ?? '';
    const m = /^(\d{3})\.\s*/.exec(text);
    return `    ${pyString(token)}: ErrorTokenInfo(${m ? m[1] : 'None'}, ${pyString(text.slice(m ? m[0].length : 0))}),`;
  });
  return [
    HEADER,
    '"""The error tokens of openapi.yaml (ErrorToken), each with its HTTP status and meaning. The set may grow."""',
    'from typing import Dict, NamedTuple, Optional',
    '',
    '',
    'class ErrorTokenInfo(NamedTuple):',
    '    status: Optional[int]',
    '    description: str',
    '',
    '',
    'ERROR_TOKENS: Dict[str, ErrorTokenInfo] = {',
    ...rows,
    '}',
    '',
  ].join('\n');
}
