// The uses of client tools of several calls written in one statement (a CASE on the call's id), on both stores: each
// call gets its own list, the other calls are left as they are, and nothing is written for no calls.
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

  it('writes each call its own list in one statement, and leaves the others alone', async () => {
    const alice = await srv.tenant();
    const [a, b, c] = [await insertTestCall(srv.deps.store, alice), await insertTestCall(srv.deps.store, alice), await insertTestCall(srv.deps.store, alice)];
    await writeToolCalls(srv.deps.store.db, []);
    await writeToolCalls(srv.deps.store.db, [
      [a.id, '[{"name":"x","status":"ok"}]'],
      [b.id, '[{"name":"y","status":"failed"}]'],
    ]);
    const rows = await srv.deps.store.db.selectFrom('calls').select(['id', 'tool_calls_json']).where('id', 'in', [a.id, b.id, c.id]).execute();
    const byId = Object.fromEntries(rows.map((r) => [r.id, r.tool_calls_json]));
    expect(byId).to.deep.equal({ [a.id]: '[{"name":"x","status":"ok"}]', [b.id]: '[{"name":"y","status":"failed"}]', [c.id]: null });
  });
});
