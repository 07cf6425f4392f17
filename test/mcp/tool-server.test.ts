import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { loadDocument } from '../../server/src/contract/openapi-document.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import { FakeToolServer } from '../support/fake-tool-server.js';
import type { TestTenant } from '../support/server.js';
import { callTool, httpClient, stdioClient } from './mcp-tools.js';

const ok = { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday and until what time.', language: 'en-US' };
const doc = loadDocument() as any;

// The tool layer is the same over any store, so these suites run on SQLite only; they drive the real HTTP
// app, with the call engine stepped on the test's clock.
for (const transport of ['http', 'stdio'] as const) {
  describe(`MCP tool server over ${transport}`, function () {
    this.timeout(30_000);
    let srv: EngineServer;
    let alice: TestTenant;
    let mcp: Client;
    const connect = (t: TestTenant) => (transport === 'http' ? httpClient(srv, t.key) : stdioClient(srv, t.key));
    before(async () => {
      srv = await startEngineServer('sqlite');
      alice = await srv.tenant();
      mcp = await connect(alice);
    });
    after(async () => {
      await mcp.close();
      await srv.close();
    });
    const rows = () => srv.deps.store.db.selectFrom('calls').select(['id', 'api_key_id']).execute();

    it('lists place_call, get_call, list_calls and wait_for_call with input schemas derived from openapi.yaml', async () => {
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name)).to.deep.equal([
        'place_call',
        'get_call',
        'list_calls',
        'wait_for_call',
        'preflight_call',
        'cancel_call',
        'add_do_not_call',
        'create_batch',
        'preflight_batch',
        'get_batch',
        'cancel_batch',
        'list_call_events',
        'redeliver_event',
        'list_batch_events',
        'redeliver_batch_event',
        'list_batch_rows',
        'get_stats',
        'get_settings',
      ]);
      const place = tools[0].inputSchema as any;
      const spec = doc.components.schemas.PlaceCallRequest;
      expect(place.required).to.deep.equal(['to', 'objective']);
      expect(place.additionalProperties).to.equal(false);
      expect(Object.keys(place.properties)).to.deep.equal([...Object.keys(spec.properties), 'idempotencyKey']);
      expect(place.properties.to).to.deep.equal({ type: 'string', description: spec.properties.to.description, pattern: spec.properties.to.pattern });
      expect(place.properties.fields.items).to.deep.equal(doc.components.schemas.FieldDefinition);
      expect(place.properties.idempotencyKey.pattern).to.equal(doc.components.parameters.IdempotencyKey.schema.pattern);
      expect(place.properties.metadata).to.deep.include({ type: ['object', 'null'], maxProperties: 50, propertyNames: { minLength: 1, maxLength: 40 } });
      // A property that is a $ref keeps its own description beside the target's keywords.
      expect(place.properties.callingWindow).to.deep.include({ type: 'object', required: ['start', 'end'], description: spec.properties.callingWindow.description });
      expect(place.properties.callingWindow.properties.days.items).to.deep.equal(doc.components.schemas.Weekday);
      expect(JSON.stringify(place)).to.not.match(/"x-|\$ref|"format":"(e164|webhook-url)"/);
      expect((tools[2].inputSchema as any).properties.limit).to.deep.include({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
      expect((tools[1].inputSchema as any).required).to.deep.equal(['id']);
    });

    it('places a sandbox call, waits for it, and reads the extracted fields', async () => {
      const fields = [
        { name: 'open_sunday', type: 'boolean', description: 'whether the shop is open on Sunday' },
        { name: 'closing_time', description: 'the closing time on Sunday' },
      ];
      const placed = await callTool(mcp, 'place_call', { ...ok, fields, metadata: { ticket: 'T-9' } });
      expect(placed.isError).to.equal(false);
      expect(placed.value).to.deep.include({ status: 'queued', language: 'en-US', languageSource: 'explicit' });
      const { callId } = placed.value;
      expect(await rows()).to.deep.include({ id: callId, api_key_id: alice.keyId });
      expect((await callTool(mcp, 'get_call', { id: callId })).value).to.include({ id: callId, status: 'queued' });
      const row = await srv.drive(callId);
      const done = await callTool(mcp, 'wait_for_call', { id: callId, timeoutSec: 5, intervalSec: 0.1 });
      expect(done.isError).to.equal(false);
      expect(done.value).to.deep.include({ id: callId, status: 'completed', summary: row.summary, extracted: JSON.parse(row.extracted_json!), answeredBy: 'human' });
      expect(Object.keys(done.value.extracted).sort()).to.deep.equal(['closing_time', 'open_sunday']);
      expect(done.value.metadata).to.deep.equal({ ticket: 'T-9' });
      expect(done.value.transcript).to.match(/^Callee: /);
      const listed = await callTool(mcp, 'list_calls', { limit: 1 });
      expect(listed.value.calls.map((c: { id: string }) => c.id)).to.deep.equal([callId]);
    });

    it("places a call with the client's own tools, and get_call and wait_for_call show each use; a bad tool is invalid_tools", async () => {
      const place = (await mcp.listTools()).tools[0].inputSchema as any;
      // The tools as plain JSON Schema, from ClientTool, without the document's own extensions and formats.
      expect(place.properties.tools).to.deep.include({ type: ['array', 'null'], maxItems: 10 });
      expect(place.properties.tools.items.required).to.deep.equal(['name', 'description', 'url']);
      expect(Object.keys(place.properties.tools.items.properties)).to.deep.equal(['name', 'description', 'parameters', 'url', 'timeoutMs']);
      const dave = await srv.tenant({ rateLimit: 100 });
      const daveMcp = await connect(dave);
      const server = await FakeToolServer.start();
      try {
        server.reply({ body: { answer: 'It arrives on Thursday' } });
        const tool = { name: 'order_status', description: 'Looks up an order.', parameters: { type: 'object', properties: { question: { type: 'string' } } }, url: `${server.url}/orders` };
        const bad = await callTool(daveMcp, 'place_call', { ...ok, to: '+14155550131', tools: [{ ...tool, name: 'end_call' }] });
        expect(bad.value).to.deep.include({ error: 'invalid_tools', status: 400 });
        const placed = await callTool(daveMcp, 'place_call', { ...ok, to: '+14155550131', tools: [tool] });
        expect(placed.isError).to.equal(false);
        const { callId } = placed.value;
        await srv.drive(callId);
        const done = await callTool(daveMcp, 'wait_for_call', { id: callId, timeoutSec: 5, intervalSec: 0.1 });
        expect(done.value.tools).to.deep.equal([{ name: 'order_status', description: 'Looks up an order.', parameters: tool.parameters, timeoutMs: 5000 }]);
        expect(done.value.toolCalls.map((u: { name: string; status: string }) => [u.name, u.status])).to.deep.equal([['order_status', 'ok']]);
        expect((await callTool(daveMcp, 'get_call', { id: callId })).value.toolCalls).to.deep.equal(done.value.toolCalls);
        expect(JSON.stringify(done.value)).to.not.include(server.url);
        expect(server.hits).to.have.length(1);
      } finally {
        await daveMcp.close();
        await server.close();
      }
    });

    it("places a call with a transfer to a person, and reads that it was transferred; a bad transfer is the API's invalid_transfer", async () => {
      const transfer = { to: '+14155550142', mode: 'warm', when: 'the callee asks for a person' };
      const placed = await callTool(mcp, 'place_call', { ...ok, to: '+14155550128', transfer });
      expect(placed.isError).to.equal(false);
      await srv.drive(placed.value.callId);
      const done = await callTool(mcp, 'wait_for_call', { id: placed.value.callId, timeoutSec: 5, intervalSec: 0.1 });
      expect(done.value).to.deep.include({ status: 'completed', transfer, transferredTo: '+14155550142', transferredAt: done.value.endedAt });
      const bad = await callTool(mcp, 'place_call', { ...ok, transfer: { to: '+14155550142', mode: 'hot' } });
      expect(bad.value).to.include({ error: 'invalid_transfer', status: 400 });
    });

    it('takes a hold budget, as placeCall does, and reports the time on hold and why the call ended', async () => {
      const place = (await mcp.listTools()).tools[0]!.inputSchema as any;
      expect(place.properties.hold.oneOf[0]).to.deep.include({ type: 'object', required: ['maxWaitSec'], additionalProperties: false });
      const placed = await callTool(mcp, 'place_call', { ...ok, to: '+14155550127', hold: { maxWaitSec: 30 } });
      expect(placed.isError).to.equal(false);
      const { callId } = placed.value;
      await srv.drive(callId);
      const done = await callTool(mcp, 'wait_for_call', { id: callId, timeoutSec: 5, intervalSec: 0.1 });
      expect(done.value).to.deep.include({ status: 'completed', hold: { maxWaitSec: 30 }, holdSec: 30, endReason: 'hold_timeout' });
      const bad = await callTool(mcp, 'place_call', { ...ok, hold: { maxWaitSec: 0 } });
      expect(bad.isError).to.equal(true);
      expect(bad.value).to.deep.include({ error: 'invalid_hold', status: 400 });
    });

    it('passes idempotencyKey on, so placing twice with it places one call', async () => {
      const before = (await rows()).length;
      const a = await callTool(mcp, 'place_call', { ...ok, idempotencyKey: `mcp-${transport}` });
      const b = await callTool(mcp, 'place_call', { ...ok, idempotencyKey: `mcp-${transport}` });
      expect(b.value.callId).to.equal(a.value.callId);
      expect(await rows()).to.have.length(before + 1);
    });

    it("returns the API's error token as a tool error for a bad argument, and the session carries on", async () => {
      const bad = await callTool(mcp, 'place_call', { ...ok, to: '12345' });
      expect(bad.isError).to.equal(true);
      expect(bad.value).to.deep.include({ error: 'invalid_number', status: 400 });
      expect(bad.value.message).to.be.a('string');
      expect((await callTool(mcp, 'place_call', { ...ok, webhook_url: 'https://example.com' })).value).to.include({ error: 'unknown_field' });
      expect((await callTool(mcp, 'place_call', { objective: ok.objective })).value).to.include({ error: 'to_required' });
      expect((await callTool(mcp, 'list_calls', { limit: 500 })).value).to.include({ error: 'invalid_limit' });
      expect(await callTool(mcp, 'get_call', { id: 42 })).to.deep.equal({ isError: true, value: { error: 'invalid_arguments', message: 'id must be a non-empty string' } });
      expect((await callTool(mcp, 'wait_for_call', { id: 'x', timeoutSec: 9999 })).value).to.include({ error: 'invalid_arguments' });
      expect((await callTool(mcp, 'list_calls', {})).isError).to.equal(false);
      expect((await callTool(mcp, 'list_calls', { cursor: 'nope' })).value).to.include({ error: 'invalid_cursor', status: 400 });
      expect((await callTool(mcp, 'get_stats', { createdFrom: 'yesterday' })).value).to.include({ error: 'invalid_period', status: 400 });
    });

    it('lists calls with filters and a cursor, and reads the statistics and settings', async () => {
      // A tenant of its own: its placements spend its own rate-limit window, and its statistics are its calls alone.
      const erin = await srv.tenant();
      const erinMcp = await connect(erin);
      try {
        const first = (await callTool(erinMcp, 'place_call', { ...ok, metadata: { ticket: 'MCP-77' } })).value.callId;
        const second = (await callTool(erinMcp, 'place_call', ok)).value.callId;
        const page = await callTool(erinMcp, 'list_calls', { limit: 1 });
        expect(page.value.calls.map((c: { id: string }) => c.id)).to.deep.equal([second]);
        const next = await callTool(erinMcp, 'list_calls', { limit: 1, cursor: page.value.nextCursor });
        expect([next.value.calls.map((c: { id: string }) => c.id), next.value.nextCursor]).to.deep.equal([[first], null]);
        expect((await callTool(erinMcp, 'list_calls', { q: 'mcp-77' })).value.calls.map((c: { id: string }) => c.id)).to.deep.equal([first]);
        const stats = await callTool(erinMcp, 'get_stats', {});
        expect([stats.isError, stats.value.calls]).to.deep.equal([false, 2]);
        const settings = await callTool(erinMcp, 'get_settings', {});
        expect(settings.value.webhookSecretFingerprint).to.match(/^[0-9a-f]{8}$/);
        expect(settings.value.voices).to.include('alloy');
      } finally {
        await erinMcp.close();
      }
    });

    it('creates a batch, reads it, cancels it; a bad batch is invalid_batch with its errors by index', async () => {
      const created = await callTool(mcp, 'create_batch', { defaults: { objective: ok.objective }, calls: [{ to: '+14155552000' }, { to: '+14155552001' }], idempotencyKey: `mcp-batch-${transport}` });
      expect(created.value).to.include({ status: 'queued', total: 2 });
      const id = (created.value as { batchId: string }).batchId;
      expect((await callTool(mcp, 'get_batch', { id })).value).to.include({ id, status: 'queued', total: 2 });
      expect((await callTool(mcp, 'list_batch_rows', { id, limit: 1 })).value).to.deep.equal({
        rows: [{ index: 0, to: '+14155552000', metadata: null, state: 'waiting', reason: null, callId: null, calls: [] }],
        nextAfter: 0,
      });
      expect((await callTool(mcp, 'cancel_batch', { id })).value).to.include({ id, status: 'canceled' });
      expect((await callTool(mcp, 'list_batch_rows', { id, state: 'canceled' })).value.rows.map((r: { index: number; reason: string }) => [r.index, r.reason])).to.deep.equal([
        [0, 'batch_canceled'],
        [1, 'batch_canceled'],
      ]);
      expect((await callTool(mcp, 'list_batch_rows', { id, after: -1 })).value).to.include({ error: 'invalid_after', status: 400 });
      const checked = await callTool(mcp, 'preflight_batch', { defaults: { objective: ok.objective }, calls: [{ to: '+14155552000' }, { to: '12345' }] });
      expect(checked.value).to.deep.equal({
        valid: false,
        total: 2,
        errors: [{ index: 1, error: 'invalid_number', message: '`to` must start with + and the country code (E.164), such as +14155550123; "12345" has no +.' }],
      });
      const bad = await callTool(mcp, 'create_batch', { defaults: { objective: ok.objective }, calls: [{ to: '12345' }] });
      expect(bad.isError).to.equal(true);
      expect(bad.value).to.deep.include({
        error: 'invalid_batch',
        status: 400,
        errors: [{ index: 0, error: 'invalid_number', message: '`to` must start with + and the country code (E.164), such as +14155550123; "12345" has no +.' }],
      });
    });

    it('lists a call’s events and asks for a redelivery; one of a call with no webhookUrl is no_webhook_url', async () => {
      const placed = await callTool(mcp, 'place_call', ok);
      const id = (placed.value as { callId: string }).callId;
      await srv.drive(id);
      const log = await callTool(mcp, 'list_call_events', { id });
      expect(log.isError).to.equal(false);
      const events = (log.value as { events: { event: string; state: string; eventId: string }[] }).events;
      expect(events.map((e) => [e.event, e.state])).to.deep.equal([
        ['call.in_progress', 'none'],
        ['call.completed', 'none'],
      ]);
      const again = await callTool(mcp, 'redeliver_event', { id, eventId: events[1].eventId });
      expect(again.isError).to.equal(true);
      expect(again.value).to.deep.include({ error: 'no_webhook_url', status: 400 });
      expect((await callTool(mcp, 'redeliver_event', { id })).value).to.include({ error: 'invalid_arguments' });
    });

    it('lists a batch’s own events and asks for a redelivery; one of a batch with no webhookUrl is no_webhook_url, another key’s batch not_found', async () => {
      const created = await callTool(mcp, 'create_batch', { defaults: { objective: ok.objective }, calls: [{ to: '+14155552000' }] });
      const id = (created.value as { batchId: string }).batchId;
      await callTool(mcp, 'cancel_batch', { id });
      const log = await callTool(mcp, 'list_batch_events', { id });
      expect(log.isError).to.equal(false);
      const events = (log.value as { events: { event: string; state: string; eventId: string; payload: { batchId: string } }[] }).events;
      expect(events.map((e) => [e.event, e.state, e.payload.batchId])).to.deep.equal([['batch.canceled', 'none', id]]);
      const again = await callTool(mcp, 'redeliver_batch_event', { id, eventId: events[0].eventId });
      expect(again.isError).to.equal(true);
      expect(again.value).to.deep.include({ error: 'no_webhook_url', status: 400 });
      expect((await callTool(mcp, 'redeliver_batch_event', { id })).value).to.include({ error: 'invalid_arguments' });
      const bob = await connect(await srv.tenant());
      try {
        expect((await callTool(bob, 'list_batch_events', { id })).value).to.deep.include({ error: 'not_found', status: 404 });
      } finally {
        await bob.close();
      }
    });

    it('preflights a call: what placing it would do, or the error place_call would give, and places nothing', async () => {
      const before = (await rows()).length;
      const fine = await callTool(mcp, 'preflight_call', ok);
      expect(fine.isError).to.equal(false);
      expect(fine.value).to.deep.include({ callerId: alice.callerId, language: 'en-US', languageSource: 'explicit' });
      expect(fine.value.number).to.deep.equal({ e164: ok.to, country: 'US', type: 'fixed_line_or_mobile' });
      const blocked = await callTool(mcp, 'preflight_call', { ...ok, to: '+441534123456' });
      expect(blocked.value).to.deep.include({ error: 'destination_blocked', status: 400 });
      expect(await rows()).to.have.length(before);
    });

    it("cancels a call: canceled at once when it was not yet dialled, and the API's 404 for a call that is not there", async () => {
      const { callId } = (await callTool(mcp, 'place_call', ok)).value;
      const res = await callTool(mcp, 'cancel_call', { id: callId });
      expect(res.isError).to.equal(false);
      expect(res.value).to.deep.include({ id: callId, status: 'canceled' });
      expect((await srv.row(callId)).status).to.equal('canceled');
      expect((await callTool(mcp, 'cancel_call', { id: '00000000-0000-7000-8000-000000000000' })).value).to.include({ error: 'not_found', status: 404 });
      expect((await callTool(mcp, 'cancel_call', {})).value).to.include({ error: 'invalid_arguments' });
    });

    it("adds a number to the do-not-call list, after which place_call gives the API's destination_opted_out", async () => {
      const carol = await srv.tenant();
      const carolMcp = await connect(carol);
      try {
        const added = await callTool(carolMcp, 'add_do_not_call', { number: '+14155550123', reason: 'Asked on the call.' });
        expect(added.value).to.deep.include({ number: '+14155550123', reason: 'Asked on the call.', source: 'api' });
        expect((await callTool(carolMcp, 'place_call', ok)).value).to.include({ error: 'destination_opted_out', status: 400 });
        expect((await callTool(carolMcp, 'add_do_not_call', { number: '123' })).value).to.include({ error: 'invalid_number', status: 400 });
      } finally {
        await carolMcp.close();
      }
    });

    it('answers an unknown tool with a protocol error', async () => {
      const e = await mcp.callTool({ name: 'hang_up', arguments: {} }).catch((err: unknown) => err);
      expect((e as Error).message).to.include('Unknown tool hang_up');
    });

    it('reports wait_timeout with the last status when the call has not ended in time', async () => {
      const { callId } = (await callTool(mcp, 'place_call', ok)).value;
      const res = await callTool(mcp, 'wait_for_call', { id: callId, timeoutSec: 0 });
      expect(res).to.deep.equal({ isError: true, value: { error: 'wait_timeout', message: 'The call is still queued; call wait_for_call again to keep waiting.', lastStatus: 'queued' } });
    });

    it("does not show another tenant's calls", async () => {
      const { callId } = (await callTool(mcp, 'place_call', ok)).value;
      const bob = await srv.tenant();
      const bobMcp = await connect(bob);
      try {
        expect((await callTool(bobMcp, 'get_call', { id: callId })).value).to.include({ error: 'not_found', status: 404 });
        expect((await callTool(bobMcp, 'wait_for_call', { id: callId })).value).to.include({ error: 'not_found' });
        expect((await callTool(bobMcp, 'list_calls', {})).value).to.deep.equal({ calls: [], nextCursor: null });
      } finally {
        await bobMcp.close();
      }
    });

    it('is rate-limited like the API: a placement over the window is a rate_limited tool error with retryAfterSec', async () => {
      const carol = await srv.tenant({ rateLimit: 1 });
      const carolMcp = await connect(carol);
      try {
        expect((await callTool(carolMcp, 'place_call', ok)).isError).to.equal(false);
        const limited = await callTool(carolMcp, 'place_call', ok);
        expect(limited.isError).to.equal(true);
        const resetSec = Math.ceil((60_000 - (srv.clock.now() % 60_000)) / 1000); // the fixed 60 s window's end
        expect(limited.value).to.deep.include({ error: 'rate_limited', status: 429, retryAfterSec: resetSec });
      } finally {
        await carolMcp.close();
      }
    });
  });
}
