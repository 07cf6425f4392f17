// The service's app as one piece: the HTTP API (http/app.ts) with the MCP endpoint (mcp/), which calls that API
// through the HTTP layer's own gate. Wired here so http/ does not import mcp/ while mcp/ imports http/; main.ts and
// every test or bench that serves the app build it here.
import type Koa from 'koa';
import { createHttpApp, type AppOptions } from './http/app.js';
import type { AppDeps } from './http/app-deps.js';
import { mcpRoute } from './mcp/mcp-route.js';

export type { AppOptions };

export function createApp(deps: AppDeps, options: AppOptions = {}): Koa {
  return createHttpApp(deps, { ...options, outsideRoutes: (doc) => [mcpRoute(deps, doc), ...(options.outsideRoutes?.(doc) ?? [])] });
}
