import { expect } from 'chai';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { insertTestCall } from '../support/calls.js';

const ids = (body: { calls: { id: string }[] }) => body.calls.map((c) => c.id);

forEachStore('listCalls: cursor, filters and search', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  let bob: TestTenant;
  const base = Date.UTC(2026, 5, 1);
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant();
    bob = await srv.tenant();
  });
  afterEach(() => srv.close());

  it('pages past the last 100 with nextCursor, newest first, each call once, and null on the last page', async () => {
    const placed: string[] = [];
    // Pairs share a creation time, so the order by id within a millisecond is exercised at page edges too.
    for (let i = 0; i < 250; i++) placed.push((await insertTestCall(srv.deps.store, alice, { created_at: base + Math.floor(i / 2) })).id);
    await insertTestCall(srv.deps.store, bob, { created_at: base + 1 });
    const expected = [...placed].sort((a, b) => {
      const ta = base + Math.floor(placed.indexOf(a) / 2);
      const tb = base + Math.floor(placed.indexOf(b) / 2);
      return tb - ta || (a < b ? 1 : -1);
    });
    const seen: string[] = [];
    let cursor: string | null = null;
    const sizes: number[] = [];
    do {
      const res: { status: number; body: any } = await alice.api.get(`/v1/agent/calls?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).to.equal(200);
      sizes.push(res.body.calls.length);
      seen.push(...ids(res.body));
      cursor = res.body.nextCursor;
    } while (cursor !== null);
    expect(sizes).to.deep.equal([100, 100, 50]);
    expect(seen).to.deep.equal(expected);
  });

  it('gives no nextCursor when the page holds every call, even exactly limit of them', async () => {
    for (let i = 0; i < 3; i++) await insertTestCall(srv.deps.store, alice, { created_at: base + i });
    const all = await alice.api.get('/v1/agent/calls?limit=3');
    expect([all.body.calls.length, all.body.nextCursor]).to.deep.equal([3, null]);
    const first = await alice.api.get('/v1/agent/calls?limit=2');
    expect(first.body.nextCursor).to.be.a('string');
    const rest = await alice.api.get(`/v1/agent/calls?limit=2&cursor=${first.body.nextCursor}`);
    expect([rest.body.calls.length, rest.body.nextCursor]).to.deep.equal([1, null]);
  });

  it('filters by one status or several, comma-separated', async () => {
    const done = await insertTestCall(srv.deps.store, alice, { created_at: base + 1, status: 'completed' });
    const missed = await insertTestCall(srv.deps.store, alice, { created_at: base + 2, status: 'no_answer', answered_by: null });
    const machine = await insertTestCall(srv.deps.store, alice, { created_at: base + 3, status: 'voicemail', answered_by: 'machine' });
    await insertTestCall(srv.deps.store, bob, { created_at: base + 4, status: 'no_answer' });
    expect(ids((await alice.api.get('/v1/agent/calls?status=no_answer')).body)).to.deep.equal([missed.id]);
    expect(ids((await alice.api.get('/v1/agent/calls?status=no_answer,voicemail')).body)).to.deep.equal([machine.id, missed.id]);
    expect(ids((await alice.api.get('/v1/agent/calls?status=completed,completed')).body)).to.deep.equal([done.id]);
    expect(ids((await alice.api.get('/v1/agent/calls?status=queued')).body)).to.deep.equal([]);
  });

  it('filters by who answered, none for nobody, and returns answeredBy, callerId and createdAt on each call', async () => {
    const human = await insertTestCall(srv.deps.store, alice, { created_at: base + 1, answered_by: 'human' });
    const nobody = await insertTestCall(srv.deps.store, alice, { created_at: base + 2, status: 'no_answer', answered_by: null });
    const res = await alice.api.get('/v1/agent/calls?answeredBy=human');
    expect(ids(res.body)).to.deep.equal([human.id]);
    expect(res.body.calls[0]).to.include({ answeredBy: 'human', callerId: alice.callerId, createdAt: new Date(base + 1).toISOString() });
    expect(ids((await alice.api.get('/v1/agent/calls?answeredBy=none')).body)).to.deep.equal([nobody.id]);
    expect((await alice.api.get('/v1/agent/calls?answeredBy=none')).body.calls[0].answeredBy).to.equal(null);
  });

  it('filters by creation time, createdFrom inclusive and createdTo exclusive, with any offset', async () => {
    const rows = [];
    for (let i = 0; i < 4; i++) rows.push(await insertTestCall(srv.deps.store, alice, { created_at: base + i * 3_600_000 }));
    const from = new Date(base + 3_600_000).toISOString();
    const to = new Date(base + 3 * 3_600_000).toISOString();
    expect(ids((await alice.api.get(`/v1/agent/calls?createdFrom=${from}&createdTo=${to}`)).body)).to.deep.equal([rows[2]!.id, rows[1]!.id]);
    // 2026-06-01T03:00:00+02:00 is 01:00Z.
    expect(ids((await alice.api.get(`/v1/agent/calls?createdFrom=${encodeURIComponent('2026-06-01T03:00:00+02:00')}`)).body)).to.deep.equal([rows[3]!.id, rows[2]!.id, rows[1]!.id]);
    expect(ids((await alice.api.get(`/v1/agent/calls?createdTo=${from}`)).body)).to.deep.equal([rows[0]!.id]);
  });

  it('searches the number, objective and metadata values, ignoring case, and never the metadata keys', async () => {
    const byNumber = await insertTestCall(srv.deps.store, alice, { created_at: base + 1, to_number: '+442071838750' });
    const byObjective = await insertTestCall(srv.deps.store, alice, { created_at: base + 2, objective: 'Book a TABLE for four' });
    const byMetadata = await insertTestCall(srv.deps.store, alice, { created_at: base + 3, metadata_json: JSON.stringify({ order_id: 'ORD-8841', shop: 'Corner 50%_off' }) });
    await insertTestCall(srv.deps.store, bob, { created_at: base + 4, objective: 'book a table' });
    const search = async (q: string) => ids((await alice.api.get(`/v1/agent/calls?q=${encodeURIComponent(q)}`)).body);
    expect(await search('+4420')).to.deep.equal([byNumber.id]);
    expect(await search('table')).to.deep.equal([byObjective.id]);
    expect(await search('ord-88')).to.deep.equal([byMetadata.id]);
    expect(await search('order_id')).to.deep.equal([]);
    // % and _ are themselves, not patterns.
    expect(await search('50%_')).to.deep.equal([byMetadata.id]);
    expect(await search('%')).to.deep.equal([byMetadata.id]);
    expect(await search('r_o')).to.deep.equal([]);
  });

  it('finds metadata values holding what JSON escapes (a quote, a backslash), which the stored JSON spells otherwise', async () => {
    const quoted = await insertTestCall(srv.deps.store, alice, { created_at: base + 1, metadata_json: JSON.stringify({ note: 'He said "call back"', path: 'C:\\shop' }) });
    await insertTestCall(srv.deps.store, alice, { created_at: base + 2, metadata_json: JSON.stringify({ note: 'call back' }) });
    const search = async (q: string) => ids((await alice.api.get(`/v1/agent/calls?q=${encodeURIComponent(q)}`)).body);
    expect(await search('"call back"')).to.deep.equal([quoted.id]);
    expect(await search('c:\\sh')).to.deep.equal([quoted.id]);
  });

  it('combines the filters with the batch and the cursor', async () => {
    const batch = '0199a3b0-5a1c-7d2e-9f00-1a2b3c4d5e6f';
    const inBatch = [];
    for (let i = 0; i < 5; i++) inBatch.push(await insertTestCall(srv.deps.store, alice, { created_at: base + i, batch_id: batch, status: i % 2 ? 'completed' : 'failed' }));
    await insertTestCall(srv.deps.store, alice, { created_at: base + 9, status: 'failed' });
    const first = await alice.api.get(`/v1/agent/calls?batchId=${batch}&status=failed&limit=2`);
    expect(ids(first.body)).to.deep.equal([inBatch[4]!.id, inBatch[2]!.id]);
    const next = await alice.api.get(`/v1/agent/calls?batchId=${batch}&status=failed&limit=2&cursor=${first.body.nextCursor}`);
    expect([ids(next.body), next.body.nextCursor]).to.deep.equal([[inBatch[0]!.id], null]);
  });

  it('answers a bad cursor, status, answeredBy, period or q with 400 and its token', async () => {
    const cases: [string, string][] = [
      ['cursor=nope', 'invalid_cursor'],
      ['cursor=', 'invalid_cursor'],
      [`cursor=${Buffer.from('12:not-a-uuid').toString('base64url')}`, 'invalid_cursor'],
      ['cursor=a&cursor=b', 'invalid_cursor'],
      ['status=done', 'invalid_status'],
      ['status=completed,', 'invalid_status'],
      ['status=completed&status=failed', 'invalid_status'],
      ['answeredBy=robot', 'invalid_answered_by'],
      ['createdFrom=yesterday', 'invalid_period'],
      ['createdFrom=2026-06-01', 'invalid_period'],
      ['createdFrom=2026-06-02T00:00:00Z&createdTo=2026-06-01T00:00:00Z', 'invalid_period'],
      ['createdFrom=2026-06-01T00:00:00Z&createdTo=2026-06-01T00:00:00Z', 'invalid_period'],
      ['q=', 'invalid_query'],
      ['q=%20%20', 'invalid_query'],
      [`q=${'x'.repeat(201)}`, 'invalid_query'],
      ['limit=0&q=x', 'invalid_limit'],
    ];
    for (const [query, token] of cases) {
      const res = await alice.api.get(`/v1/agent/calls?${query}`);
      expect([query, res.status, res.body.error], query).to.deep.equal([query, 400, token]);
      expect(res.body.message).to.be.a('string').and.not.equal('');
    }
  });
});
