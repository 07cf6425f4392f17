// The route table comes from openapi.yaml: one route per operation, its request validator compiled from the
// document, its handler looked up by operationId. Building fails when an operation has no handler. Compiling the
// validators is most of what building an app costs, so those of a frozen document (openapi.yaml's, which cannot
// change under them) are compiled once per process and webhook setting, and shared by every app built from it.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { OperationId } from '../generated/operations.gen.js';
import { deprecationHeaders } from './deprecation.js';
import { readBodyBytes, readJsonBody } from '../contract/json-body.js';
import { HTTP_METHODS, type OpenApiDocument, type Operation } from '../contract/openapi-document.js';
import { compileRequestValidator, type RequestValidator, type ValidatedRequest } from '../contract/request-validator.js';
import { ajvFor, formatReasons } from '../contract/schema-ajv.js';

export interface Handler {
  (ctx: Context, req: ValidatedRequest): Promise<void>;
  /**
   * The handler reads the body itself, with `req.readBody` (`req.body` is undefined): so that it can refuse the
   * request before reading it, and parse and check it where it chooses (createBatch, off the event loop).
   */
  readsBody?: true;
}
export type Handlers = Record<OperationId, Handler>;

export interface RouterOptions {
  doc: OpenApiDocument;
  handlers: Record<string, Handler>;
  maxBodyBytes: number;
  allowPrivateWebhooks: boolean;
  policyUrl: string;
  publicBaseUrl: string;
}

export function operationRouter(opts: RouterOptions): Router {
  const { doc, handlers } = opts;
  const validators = validatorsFor(doc, opts.allowPrivateWebhooks);
  const router = new Router();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const handler = handlers[op.operationId];
      if (!handler) throw new Error(`operation ${op.operationId} (${method.toUpperCase()} ${path}) has no handler`);
      const validate = validators(path, method, op);
      const deprecation = deprecationHeaders(op, opts.policyUrl, opts.publicBaseUrl);
      const takesBody = op.requestBody !== undefined && !handler.readsBody;
      const limit = op['x-max-body-bytes'] ?? opts.maxBodyBytes;
      router.register(
        path.replace(/\{(\w+)\}/g, ':$1'),
        [method.toUpperCase()],
        async (ctx: Context) => {
          if (deprecation) ctx.set(deprecation(ctx.params as Record<string, string>));
          const body = takesBody ? await readJsonBody(ctx, limit) : undefined;
          const req = validate({ rawPath: ctx.path, rawQuery: ctx.querystring, headers: ctx.headers, body });
          await handler(ctx, handler.readsBody ? { ...req, readBody: () => readBodyBytes(ctx, limit) } : req);
        },
        { name: op.operationId },
      );
    }
  }
  return router;
}

type Validators = (path: string, method: string, op: Operation) => RequestValidator;

const compiled = new WeakMap<OpenApiDocument, Map<boolean, Validators>>();

/** Each operation's validator: compiled on first use, and kept for the next app when the document is frozen. */
function validatorsFor(doc: OpenApiDocument, allowPrivateWebhooks: boolean): Validators {
  const shared = Object.isFrozen(doc) ? (compiled.get(doc) ?? new Map<boolean, Validators>()) : undefined;
  const known = shared?.get(allowPrivateWebhooks);
  if (known) return known;
  const schemaOptions = { allowPrivateWebhooks };
  const ajv = ajvFor(doc, schemaOptions);
  const reasons = formatReasons(schemaOptions);
  const byOperation = new Map<string, RequestValidator>();
  const validators: Validators = (path, method, op) => {
    const key = `${method} ${path}`;
    let validate = byOperation.get(key);
    if (!validate) {
      validate = compileRequestValidator(doc, ajv, path, method, op, reasons);
      byOperation.set(key, validate);
    }
    return validate;
  };
  if (shared) {
    shared.set(allowPrivateWebhooks, validators);
    compiled.set(doc, shared);
  }
  return validators;
}

/** Sets 405 with Allow (or 501) for a known path and the wrong method; the error middleware renders it. */
export function allowedMethods(router: Router) {
  return router.allowedMethods();
}
