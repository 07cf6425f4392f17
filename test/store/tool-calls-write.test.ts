// The uses of client tools of several calls written in one transaction, on both stores: each call gets its own list
// (one UPDATE, a CASE on the call's id) and its new uses' rows for the streams (one INSERT); the other calls are
// left as they are, a row already written is kept, and nothing is written for no calls.
import { expect } from 'chai';
import { writeToolCalls } from '../../server/src/store/calls/agent-line.js';
import { insertTestCall } from '../support/calls.js';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer } from '../support/server.js';

forEachStore("writing calls' tool calls", (kind) => {
  let srv: TestServer;
  beforeEach(async () => {
    srv = await startServer(kind);
  });
  afterEach(() => srv.close());

  it("writes each call its own list and its new uses' rows in one transaction, and leaves the others alone", async () => {
    const alice = await srv.tenant();
    const [a, b, c] = [await insertTestCall(srv.deps.store, alice), await insertTestCall(srv.deps.store, alice), await insertTestCall(srv.deps.store, alice)];
    const { db } = srv.deps.store;
    await writeToolCalls(db, []);
    await writeToolCalls(db, [
      { callId: a.id, listJson: '[{"name":"x","status":"ok"}]', rows: [{ call_id: a.id, seq: 0, at: 1000, tool_call_json: '{"name":"x","status":"ok"}' }] },
      { callId: b.id, listJson: '[{"name":"y","status":"failed"}]', rows: [{ call_id: b.id, seq: 0, at: 1001, tool_call_json: '{"name":"y","status":"failed"}' }] },
    ]);
    // The next write of a carries its whole list and only its new use; a row already there stays as it was.
    await writeToolCalls(db, [
      {
        callId: a.id,
        listJson: '[{"name":"x","status":"ok"},{"name":"z","status":"timeout"}]',
        rows: [
          { call_id: a.id, seq: 0, at: 9999, tool_call_json: '{"name":"changed"}' },
          { call_id: a.id, seq: 1, at: 1002, tool_call_json: '{"name":"z","status":"timeout"}' },
        ],
      },
    ]);
    const calls = await db.selectFrom('calls').select(['id', 'tool_calls_json']).where('id', 'in', [a.id, b.id, c.id]).execute();
    expect(Object.fromEntries(calls.map((r) => [r.id, r.tool_calls_json]))).to.deep.equal({
      [a.id]: '[{"name":"x","status":"ok"},{"name":"z","status":"timeout"}]',
      [b.id]: '[{"name":"y","status":"failed"}]',
      [c.id]: null,
    });
    const rows = await db.selectFrom('call_tool_calls').selectAll().orderBy('at').execute();
    expect(rows.map((r) => ({ ...r, seq: Number(r.seq), at: Number(r.at) }))).to.deep.equal([
      { call_id: a.id, seq: 0, at: 1000, tool_call_json: '{"name":"x","status":"ok"}' },
      { call_id: b.id, seq: 0, at: 1001, tool_call_json: '{"name":"y","status":"failed"}' },
      { call_id: a.id, seq: 1, at: 1002, tool_call_json: '{"name":"z","status":"timeout"}' },
    ]);
  });
});
