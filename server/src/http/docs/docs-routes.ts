// /docs: the API reference, rendered in the browser by Swagger UI from /openapi.json. The renderer's files come
// from the swagger-ui-dist package and are served from here (no CDN), so the page works offline. Only the
// files the page loads are served; they are read once and kept in memory.
import type { Context, Next } from 'koa';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const STATIC = new URL('../../../static/', import.meta.url);
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const ASSETS: Record<string, { path: string; type: string }> = {
  'swagger-ui.css': { path: join(SWAGGER_UI_DIR, 'swagger-ui.css'), type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { path: join(SWAGGER_UI_DIR, 'swagger-ui-bundle.js'), type: 'application/javascript; charset=utf-8' },
  'favicon-32x32.png': { path: join(SWAGGER_UI_DIR, 'favicon-32x32.png'), type: 'image/png' },
  'init.js': { path: new URL('api-docs.js', STATIC).pathname, type: 'application/javascript; charset=utf-8' },
};
const loaded = new Map<string, Buffer>();
function asset(name: string): Buffer {
  let body = loaded.get(name);
  if (!body) {
    body = readFileSync(ASSETS[name].path);
    loaded.set(name, body);
  }
  return body;
}

const DOCS_PATH = '/docs';
const ASSET_PREFIX = `${DOCS_PATH}/assets/`;

export function docsRoutes(policyPath: string) {
  const page = readFileSync(new URL('api-docs.html', STATIC), 'utf8').replace('{{POLICY_PATH}}', policyPath);
  return async function docs(ctx: Context, next: Next): Promise<void> {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === DOCS_PATH || ctx.path === `${DOCS_PATH}/`) {
      ctx.state.operation = 'docs';
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = page;
      return;
    }
    const name = ctx.path.startsWith(ASSET_PREFIX) ? ctx.path.slice(ASSET_PREFIX.length) : undefined;
    if (name !== undefined && Object.hasOwn(ASSETS, name)) {
      ctx.state.operation = 'docs_asset';
      ctx.type = ASSETS[name].type;
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.body = asset(name);
      return;
    }
    await next();
  };
}
