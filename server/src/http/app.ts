// The HTTP application: one error path, the public documents, then the /v1/agent gate and the operation routes.
import Koa from 'koa';
import compose from 'koa-compose';
import { readFileSync } from 'node:fs';
import { publicDocument, shippedDocument, type OpenApiDocument } from '../contract/openapi-document.js';
import { errorMiddleware } from './error-middleware.js';
import { isClientGone } from './http-server.js';
import { isApiPath, keyGate } from './key-gate.js';
import { allowedMethods, operationRouter, type Handler, type Handlers } from './operation-router.js';
import type { AppDeps } from './app-deps.js';
import { readCallHandlers } from './handlers/read-calls.js';
import { accountReadHandlers } from './handlers/account-reads.js';
import { recordingHandler } from './handlers/get-call-recording.js';
import { placeCallHandlers } from './handlers/place-call.js';
import { cancelCallHandler } from './handlers/cancel-call.js';
import { doNotCallHandlers } from './handlers/do-not-call.js';
import { batchHandlers } from './handlers/batches.js';
import { eventLogHandlers } from './handlers/event-logs.js';
import { streamHandlers } from './handlers/streams.js';
import { StreamHub } from '../streams/stream-hub.js';
import { languageDetectorReady } from '../placement/language.js';
import { placementWorker } from '../placement/placement-worker.js';
import { docsRoutes } from './docs/docs-routes.js';
import { consoleRoutes } from './console/console-routes.js';
import { operationsRoutes } from './observability/operations-routes.js';
import { requestObserver } from './observability/request-observer.js';
import { ServiceMetrics } from './observability/service-metrics.js';
import { configuredTelephony } from '../telephony/configured-telephony.js';
import { defaultRecordings } from '../recording/default-recordings.js';

const POLICY_PAGE = readFileSync(new URL('../../static/versioning.html', import.meta.url), 'utf8');

export interface AppOptions {
  /** Another document (a test fixture); defaults to openapi.yaml. */
  document?: OpenApiDocument;
  /** Replace handlers (tests); every operation of the document must end up with one. */
  handlers?: Record<string, Handler>;
  /** Share one metrics object (e.g. with the engine); by default the app makes its own. */
  metrics?: ServiceMetrics;
  /** Routes served beside the documents, given the document the app serves: the MCP endpoint (compose.ts). */
  outsideRoutes?: (doc: OpenApiDocument) => Koa.Middleware[];
}

function defaultHandlers(deps: AppDeps): Handlers {
  return {
    ...eventLogHandlers(deps),
    ...streamHandlers(deps, deps.streams ?? new StreamHub({ store: deps.store, clock: deps.clock, logger: deps.logger, pollMs: deps.config.streamPollMs })),
    ...readCallHandlers(deps),
    ...accountReadHandlers(deps),
    getCallRecording: recordingHandler({ ...deps, recordings: deps.recordings ?? defaultRecordings(deps.config) }),
    ...placeCallHandlers(deps),
    cancelCall: cancelCallHandler(deps),
    ...doNotCallHandlers(deps),
    ...batchHandlers(deps),
  };
}

export function createHttpApp(deps: AppDeps, options: AppOptions = {}): Koa {
  const doc = options.document ?? shippedDocument();
  const served = publicDocument(doc, deps.config.publicBaseUrl);
  const servedJson = JSON.stringify(served);
  const policyUrl = served.info['x-versioning-policy'];
  const policyPath = new URL(policyUrl).pathname;
  const router = operationRouter({
    doc,
    handlers: { ...defaultHandlers(deps), ...options.handlers },
    maxBodyBytes: deps.config.maxBodyBytes,
    allowPrivateWebhooks: deps.config.webhookAllowPrivate,
    policyUrl,
    publicBaseUrl: deps.config.publicBaseUrl,
  });

  const telephony = deps.telephony ?? configuredTelephony(deps);
  placementWorker.start();
  // The language detector loads now, in the background, so the first placement need not wait for it.
  void languageDetectorReady();
  const metrics = options.metrics ?? new ServiceMetrics(deps.store, deps.clock);
  const app = new Koa();
  const operationFor = (method: string, path: string) => router.match(path, method).pathAndMethod.find((layer) => layer.name)?.name ?? undefined;
  app.use(requestObserver({ logger: deps.logger, metrics, operationFor }));
  app.use(errorMiddleware(deps.logger));
  // The routes outside the API (operations, documents, MCP, carrier callbacks) are skipped as one by API requests.
  const outside = compose<Koa.ParameterizedContext>([
    operationsRoutes(deps.store, metrics, deps.logger),
    docsRoutes(policyPath),
    consoleRoutes(),
    async (ctx, next) => {
      if ((ctx.method === 'GET' || ctx.method === 'HEAD') && ctx.path === '/') {
        // A bare host, and the address the banner prints, land on the console.
        ctx.state.operation = 'root';
        ctx.redirect('/console');
      } else if (ctx.method === 'GET' && ctx.path === '/openapi.json') {
        ctx.state.operation = 'openapi';
        ctx.type = 'application/json';
        ctx.body = servedJson;
      } else if (ctx.method === 'GET' && ctx.path === policyPath) {
        ctx.state.operation = 'versioning_policy';
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = POLICY_PAGE;
      } else {
        await next();
      }
    },
    ...(options.outsideRoutes?.(doc) ?? []),
    ...(telephony.routes ? [telephony.routes] : []),
  ]);
  app.use((ctx, next) => (isApiPath(ctx.path) ? next() : outside(ctx, next)));
  app.use(keyGate(deps));
  app.use(router.routes());
  app.use(allowedMethods(router));
  // Errors Koa meets after the middleware has returned: a response body stream that breaks (a recording being
  // downloaded). A client that hung up is not a fault and is not logged; anything else is one log line, instead
  // of Koa's default stack trace on stderr. Koa reports a broken body stream twice; it is logged once.
  const logged = new WeakSet<object>();
  app.on('error', (err: NodeJS.ErrnoException, ctx?: Koa.Context) => {
    if (isClientGone(err) || logged.has(err)) return;
    logged.add(err);
    deps.logger.error({ err, reqId: ctx?.state?.reqId }, 'response failed');
  });
  return app;
}
