#!/usr/bin/env node
// The stdio tool server, for assistants that launch local MCP servers: `svc-mcp` (or `npx @svc/sdk mcp`)
// with SVC_API_KEY and SVC_BASE_URL. Stdout carries the protocol; anything for people goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { DEFAULT_BASE_URL, SvcClient } from '../svc-client.js';
import { createToolServer } from './tool-server.js';

const apiKey = process.env.SVC_API_KEY;
if (!apiKey) {
  process.stderr.write('svc-mcp: set SVC_API_KEY to an agent API key (svc_ak_…), and SVC_BASE_URL to the service (default http://localhost:8080).\n');
  process.exit(2);
}
const baseUrl = (process.env.SVC_BASE_URL || DEFAULT_BASE_URL).replace(/\/+$/, '');

// The tools' schemas come from the running service's own document, so they match its version.
async function document(): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}/openapi.json`);
  if (!res.ok) throw new Error(`GET ${baseUrl}/openapi.json answered ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}

const server = createToolServer({ client: new SvcClient({ apiKey, baseUrl }), document });
await server.connect(new StdioServerTransport());
