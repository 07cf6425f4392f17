// POST /mcp: the tool (MCP) server over Streamable HTTP, stateless (a fresh server per request, JSON answers).
// The bearer key is checked here like on /v1/agent, and the tools then act through the SDK client against this
// very service, on the socket the request came in on, with the caller's key: tenant scoping, rate limits,
// validation and error tokens are exactly the API's, with no second implementation to drift.
import type { Context, Next } from 'koa';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createToolServer } from '../../../sdk/src/mcp/tool-server.js';
import { SvcClient } from '../../../sdk/src/svc-client.js';
import { rateLimitHeaders } from '../accounts/rate-limit.js';
import { ApiError } from '../errors/api-error.js';
import type { AppDeps } from '../http/app-deps.js';
import { readUtf8Body } from '../contract/json-body.js';
import { MAX_NESTING, tooDeepAt } from '../contract/json-nesting.js';
import { authenticate } from '../http/key-gate.js';
import type { OpenApiDocument } from '../contract/openapi-document.js';

const MCP_PATH = '/mcp';

/** This service as reached on the request's own socket (never the public address, which may be a proxy). */
function selfUrl(ctx: Context): string {
  const { localAddress, localPort } = ctx.req.socket;
  const host = (localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return `http://${host.includes(':') ? `[${host}]` : host}:${localPort}`;
}

export function mcpRoute(deps: AppDeps, doc: OpenApiDocument) {
  return async function mcp(ctx: Context, next: Next): Promise<void> {
    if (ctx.path !== MCP_PATH) return next();
    ctx.state.operation = 'mcp';
    if (ctx.method !== 'POST') {
      // Stateless: no session to resume or delete, and no server-initiated stream to open with GET.
      throw new ApiError(405, 'method_not_allowed', 'The tool server is stateless: send JSON-RPC messages with POST /mcp.', { Allow: 'POST' });
    }
    // The same key check, and the same throttling of bad keys, as the /v1/agent gate.
    const caller = await authenticate(ctx, deps, 'The tool server needs an agent API key: send Authorization: Bearer svc_ak_<secret>.');
    ctx.set(rateLimitHeaders(caller.reported));
    const body = await readUtf8Body(ctx, deps.config.maxBodyBytes);
    // The SDK walks a message by recursion (and its tools send their arguments on with JSON.stringify), so one
    // nesting past the API's limit is refused here, as the API refuses such a body. Malformed JSON is the SDK's to answer.
    if (tooDeepAt(parsedOrUndefined(body)) !== undefined) {
      throw new ApiError(400, 'invalid_body', `The message nests arrays and objects more than ${MAX_NESTING} levels deep (the message itself is level 1).`);
    }
    const headers = new Headers();
    for (const name of ['content-type', 'accept', 'mcp-protocol-version']) if (ctx.get(name)) headers.set(name, ctx.get(name));
    const request = new Request(new URL(ctx.originalUrl, 'http://svc.internal'), { method: 'POST', headers, body });
    const server = createToolServer({ client: new SvcClient({ apiKey: caller.secret, baseUrl: selfUrl(ctx) }), document: () => doc as unknown as Record<string, unknown> });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // A client that hangs up does not wait any more: closing the server aborts its tools (wait_for_call polls),
    // and the answer nobody will read is dropped.
    let hangUp = () => {};
    const hungUp = new Promise<null>((resolve) => {
      hangUp = () => {
        if (ctx.res.writableFinished) return;
        void server.close();
        resolve(null);
      };
    });
    ctx.res.once('close', hangUp);
    try {
      await server.connect(transport);
      const response = await Promise.race([transport.handleRequest(request), hungUp]);
      if (response === null) {
        ctx.respond = false;
        ctx.body = null;
        return;
      }
      ctx.status = response.status;
      for (const [name, value] of response.headers) ctx.set(name, value);
      const text = await response.text();
      ctx.body = text === '' ? null : text;
      if (text === '') ctx.status = response.status;
    } finally {
      ctx.res.off('close', hangUp);
      await server.close();
    }
  };
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
