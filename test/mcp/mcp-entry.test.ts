import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import type { ServiceMetrics } from '../../server/src/http/observability/service-metrics.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { httpClient } from './mcp-tools.js';

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '0' } },
});
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('the /mcp entry of the service', () => {
  let srv: TestServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startServer('sqlite');
    alice = await srv.tenant();
  });
  afterEach(() => srv.close());

  it('refuses a request without a key with 401 unauthorized, WWW-Authenticate and the address window', async () => {
    const res = await fetch(`${srv.baseUrl}/mcp`, { method: 'POST', headers: mcpHeaders, body: initialize });
    expect(res.status).to.equal(401);
    expect(await res.json()).to.deep.equal({ error: 'unauthorized', message: 'The tool server needs an agent API key: send Authorization: Bearer svc_ak_<secret>.' });
    expect(res.headers.get('www-authenticate')).to.equal('Bearer realm="svc"');
    expect([res.headers.get('ratelimit-limit'), res.headers.get('ratelimit-remaining')]).to.deep.equal(['60', '59']);
  });

  it('refuses an unknown key with 401 and invalid_token, and the official client cannot connect', async () => {
    const res = await fetch(`${srv.baseUrl}/mcp`, { method: 'POST', headers: { ...mcpHeaders, authorization: 'Bearer svc_ak_notarealkeynotarealkey' }, body: initialize });
    expect(res.status).to.equal(401);
    expect(res.headers.get('www-authenticate')).to.equal('Bearer realm="svc", error="invalid_token"');
    const e = await httpClient(srv, 'svc_ak_notarealkeynotarealkey').catch((err: unknown) => err);
    expect(e).to.be.instanceOf(Error);
  });

  it("answers an initialize with the key's rate-limit headers and the server's name", async () => {
    const res = await fetch(`${srv.baseUrl}/mcp`, { method: 'POST', headers: { ...mcpHeaders, authorization: `Bearer ${alice.key}` }, body: initialize });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    expect([res.headers.get('ratelimit-limit'), res.headers.get('ratelimit-remaining'), res.headers.get('ratelimit-reset')]).to.deep.equal(['10', '10', '30']);
    const body = await res.json();
    expect(body.result.serverInfo).to.deep.equal({ name: 'svc', version: '1.0.0' });
    expect(body.result.capabilities).to.have.property('tools');
  });

  it('answers GET and DELETE with 405 method_not_allowed and Allow: POST, since it keeps no sessions', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${srv.baseUrl}/mcp`, { method, headers: { authorization: `Bearer ${alice.key}` } });
      expect(res.status).to.equal(405);
      expect(res.headers.get('allow')).to.equal('POST');
      expect((await res.json()).error).to.equal('method_not_allowed');
    }
  });

  it('refuses a body over the size limit with 413 payload_too_large', async () => {
    const res = await fetch(`${srv.baseUrl}/mcp`, { method: 'POST', headers: { ...mcpHeaders, authorization: `Bearer ${alice.key}` }, body: 'x'.repeat(70 * 1024) });
    expect(res.status).to.equal(413);
    expect(await res.json()).to.deep.equal({ error: 'payload_too_large', message: 'The request body is larger than 64 KiB.' });
  });

  it('refuses a message nesting 20,000 levels deep with 400 invalid_body, as the API refuses such a body, and places nothing', async () => {
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"place_call","arguments":{"to":"+14155550123","objective":"Ask about Sunday.","metadata":${deep}}}}`;
    const res = await fetch(`${srv.baseUrl}/mcp`, { method: 'POST', headers: { ...mcpHeaders, authorization: `Bearer ${alice.key}` }, body });
    expect([res.status, await res.json()]).to.deep.equal([400, { error: 'invalid_body', message: 'The message nests arrays and objects more than 32 levels deep (the message itself is level 1).' }]);
    expect(await srv.deps.store.db.selectFrom('calls').selectAll().execute()).to.have.length(0);
  });

  it('refuses a body that is not UTF-8 with 415 unsupported_media_type, as the API does', async () => {
    const body = Buffer.concat([Buffer.from(initialize.replace('curl', 'caf')), Buffer.from([0xe9])]);
    const res = await fetch(`${srv.baseUrl}/mcp`, { method: 'POST', headers: { ...mcpHeaders, authorization: `Bearer ${alice.key}` }, body });
    expect(res.status).to.equal(415);
    expect(await res.json()).to.deep.equal({ error: 'unsupported_media_type', message: 'The request body is not valid UTF-8; send JSON encoded as UTF-8.' });
  });
});

describe('the svc-mcp command', () => {
  it('exits with status 2 and says what to set when SVC_API_KEY is missing', () => {
    const env = { ...process.env };
    delete env.SVC_API_KEY;
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'sdk/src/mcp/svc-mcp.ts'], { env, encoding: 'utf8', input: '' });
    expect(run.status).to.equal(2);
    expect(run.stdout).to.equal('');
    expect(run.stderr).to.include('svc mcp: set SVC_API_KEY to an agent API key');
  });
});

describe('the /mcp entry when the client hangs up', () => {
  it('stops a wait_for_call that was polling, instead of polling on until its timeout', async function () {
    this.timeout(20_000);
    const seen: string[] = [];
    // Records what the app reports for each finished request: the /mcp request ends only when its tool does.
    const metrics = { observeRequest: (operation: string) => void seen.push(operation) } as unknown as ServiceMetrics;
    const srv = await startServer('sqlite', {}, { metrics });
    try {
      const alice = await srv.tenant();
      const placed = await fetch(`${srv.baseUrl}/v1/agent/calls`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' }),
      });
      const { callId } = await placed.json();
      const controller = new AbortController();
      const call = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait_for_call', arguments: { id: callId, timeoutSec: 600, intervalSec: 0.1 } } });
      const pending = fetch(`${srv.baseUrl}/mcp`, { method: 'POST', headers: { ...mcpHeaders, authorization: `Bearer ${alice.key}` }, body: call, signal: controller.signal }).catch(
        (e: Error) => e.name,
      );
      await until(() => seen.filter((op) => op === 'getCall').length >= 2);
      controller.abort();
      expect(await pending).to.equal('AbortError');
      // Without the hang-up handling the request would end only after the tool's 600 s timeout.
      await until(() => seen.includes('mcp'));
    } finally {
      await srv.close();
    }
  });
});

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 10));
}
