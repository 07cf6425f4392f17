// An MCP client session against the service's /mcp: what an assistant does with the tools.
//   SVC_API_KEY=svc_ak_… npx tsx examples/mcp-client.ts
// Optional: SVC_BASE_URL (default http://localhost:8080).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const apiKey = process.env.SVC_API_KEY;
if (!apiKey) {
  console.error('Set SVC_API_KEY to an agent API key (npm start prints the dev key).');
  process.exit(2);
}
const baseUrl = process.env.SVC_BASE_URL || 'http://localhost:8080';
const client = new Client({ name: 'svc-example', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));

const { tools } = await client.listTools();
console.error(`tools: ${tools.map((t) => t.name).join(', ')}`);

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown> };
const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<ToolResult>;

const placed = await call('place_call', {
  to: '+14155550123',
  objective: 'Ask whether the shop is open on Sunday, and until what time.',
  fields: [{ name: 'open_sunday', type: 'boolean' }],
});
if (placed.isError) throw new Error(`place_call: ${JSON.stringify(placed.structuredContent)}`);
let done: ToolResult;
// wait_for_call gives up after timeoutSec with wait_timeout; an assistant simply calls it again.
do done = await call('wait_for_call', { id: placed.structuredContent!.callId, timeoutSec: 50, intervalSec: 0.5 });
while (done.isError && done.structuredContent?.error === 'wait_timeout');
if (done.isError) throw new Error(`wait_for_call: ${JSON.stringify(done.structuredContent)}`);
console.log(JSON.stringify(done.structuredContent));
await client.close();
