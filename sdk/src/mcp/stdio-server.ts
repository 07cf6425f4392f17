// The stdio tool server, for assistants that launch local MCP servers, with SVC_API_KEY and SVC_BASE_URL. From a
// clone of the repository it is `npx svc mcp` (`npx --prefix <clone> svc mcp` from anywhere else); installed from
// the SDK's package, its bin `svc-mcp`. Stdout carries the protocol; anything for people goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { DEFAULT_BASE_URL, SvcClient } from '../svc-client.js';
import { createToolServer } from './tool-server.js';

/** Starts the server on this process's stdin and stdout; returns 2 (nothing started) when no key is set. */
export async function runStdioServer(env: NodeJS.ProcessEnv, err: (text: string) => void): Promise<number> {
  const apiKey = env.SVC_API_KEY;
  if (!apiKey) {
    err('svc mcp: set SVC_API_KEY to an agent API key (svc_ak_…), and SVC_BASE_URL to the service (default http://localhost:8080).\n');
    return 2;
  }
  const client = new SvcClient({ apiKey, baseUrl: env.SVC_BASE_URL || DEFAULT_BASE_URL });
  const server = createToolServer({ client, document: () => serviceDocument(client.baseUrl) });
  await server.connect(new StdioServerTransport());
  return 0;
}

/** The tools' schemas come from the running service's own document, so they match its version. */
async function serviceDocument(baseUrl: string): Promise<Record<string, unknown>> {
  const url = `${baseUrl}/openapi.json`;
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    const cause = (e as Error).cause as { code?: string; message?: string } | undefined;
    throw new Error(`Cannot reach the svc service at ${baseUrl} (${cause?.code ?? cause?.message ?? (e as Error).message}). Start it (npm start) or set SVC_BASE_URL to where it runs.`);
  }
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}; is SVC_BASE_URL the svc service?`);
  return (await res.json()) as Record<string, unknown>;
}
