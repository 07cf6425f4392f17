// /console: the web console, a pure client of the public API (console/, built by Vite into static/console and
// committed). Its files are read once, at start, and served from memory: the page, then its hashed assets, which
// never change under their name. The page's Content-Security-Policy allows only this service.
import type { Context, Next } from 'koa';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';

const BUILT = new URL('../../../static/console/', import.meta.url);
const PATH = '/console';
const ASSET_PREFIX = `${PATH}/assets/`;
const TYPES: Record<string, string> = { '.js': 'application/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };
const POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export function consoleRoutes() {
  const page = existsSync(new URL('index.html', BUILT)) ? readFileSync(new URL('index.html', BUILT)) : null;
  const assets = new Map<string, { body: Buffer; type: string }>();
  const dir = new URL('assets/', BUILT);
  if (existsSync(dir)) {
    for (const name of readdirSync(dir)) {
      const type = TYPES[extname(name)];
      if (type) assets.set(name, { body: readFileSync(new URL(name, dir)), type });
    }
  }
  return async function consolePages(ctx: Context, next: Next): Promise<void> {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.path.startsWith(PATH)) return next();
    if ((ctx.path === PATH || ctx.path === `${PATH}/`) && page) {
      ctx.state.operation = 'console';
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Content-Security-Policy', POLICY);
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = page;
      return;
    }
    const asset = ctx.path.startsWith(ASSET_PREFIX) ? assets.get(ctx.path.slice(ASSET_PREFIX.length)) : undefined;
    if (asset) {
      ctx.state.operation = 'console_asset';
      ctx.type = asset.type;
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.body = asset.body;
      return;
    }
    await next();
  };
}
