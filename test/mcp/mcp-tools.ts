// Shared by the MCP suites: connecting the official client over either transport, and reading tool results.
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { TestServer } from '../support/server.js';

export async function httpClient(srv: TestServer, key: string | null): Promise<Client> {
  const client = new Client({ name: 'svc-test', version: '1.0.0' });
  const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', srv.baseUrl), { requestInit: { headers } }));
  return client;
}

/** The svc-mcp command, run from source by tsx exactly as the built bin runs from dist. */
export async function stdioClient(srv: TestServer, key: string): Promise<Client> {
  const client = new Client({ name: 'svc-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'sdk/src/mcp/svc-mcp.ts'],
    env: { ...getDefaultEnvironment(), SVC_API_KEY: key, SVC_BASE_URL: srv.baseUrl },
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

export interface ToolOutcome {
  isError: boolean;
  value: Record<string, any>;
}

/** Calls a tool and checks that its text content and structured content say the same thing. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  const res = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { type: string; text: string }[]; structuredContent: Record<string, any> };
  expect(res.content).to.have.length(1);
  expect(res.content[0].type).to.equal('text');
  expect(JSON.parse(res.content[0].text)).to.deep.equal(res.structuredContent);
  return { isError: res.isError === true, value: res.structuredContent };
}
