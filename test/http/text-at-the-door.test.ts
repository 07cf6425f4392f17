import { expect } from 'chai';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { NOT_UTF8_MESSAGE, notUtf8, textCases } from './text-corpus.js';
import { refusedFor } from '../support/problems.js';

const ok = { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday and until what time.' };

forEachStore('text at the door', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant({ rateLimit: 1000 });
  });
  afterEach(() => srv.close());

  const count = async (table: 'calls' | 'webhook_events') =>
    Number(
      (
        await srv.deps.store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  for (const c of textCases) {
    it(`refuses ${c.what} with 400 ${c.token} and stores nothing`, async () => {
      const res = await alice.api.post('/v1/agent/calls', { body: c.body });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal(refusedFor({ error: c.token, message: c.message, field: c.field }));
      expect(await count('calls')).to.equal(0);
      expect(await count('webhook_events')).to.equal(0);
    });
  }

  it('replays a refusal of faulty text under its Idempotency-Key, like any other validation refusal', async () => {
    const body = textCases.find((c) => c.what === 'U+0000 in objective')!.body;
    const first = await alice.api.post('/v1/agent/calls', { body, headers: { 'idempotency-key': 'nul-1' } });
    const again = await alice.api.post('/v1/agent/calls', { body, headers: { 'idempotency-key': 'nul-1' } });
    expect([first.status, again.status]).to.deep.equal([400, 400]);
    expect(again.body).to.deep.equal(first.body);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(await count('calls')).to.equal(0);
  });

  it('accepts well-formed text outside the BMP and stores it exactly', async () => {
    const objective = 'Ask 𝄞 café 東京 🙂 whether the shop opens on Sunday.';
    const context = 'Emoji pairs 👩‍👩‍👧 and a combining é stay as sent.';
    const fields = [{ name: 'hours', description: 'Opening hours ⏰ 𐐷' }];
    const res = await alice.api.post('/v1/agent/calls', { body: { ...ok, objective, context, fields } });
    expect(res.status).to.equal(202);
    const row = await srv.deps.store.db.selectFrom('calls').select(['objective', 'context', 'fields_json']).where('id', '=', res.body.callId).executeTakeFirstOrThrow();
    expect(row.objective).to.equal(objective);
    expect(row.context).to.equal(context);
    expect(JSON.parse(row.fields_json!)).to.deep.equal(fields);
    const read = await alice.api.get(`/v1/agent/calls/${res.body.callId}`);
    expect(read.body.objective).to.equal(objective);
  });

  for (const { what, bytes } of notUtf8) {
    it(`refuses a body with ${what} (not UTF-8) with 415 unsupported_media_type and stores nothing`, async () => {
      const res = await alice.api.post('/v1/agent/calls', { rawBody: bytes, headers: { 'content-type': 'application/json' } });
      expect(res.status).to.equal(415);
      expect(res.body).to.deep.equal({ error: 'unsupported_media_type', message: NOT_UTF8_MESSAGE });
      expect(await count('calls')).to.equal(0);
    });
  }

  it('never replays across two different bodies that are not UTF-8 under one Idempotency-Key, and leaves the key unused', async () => {
    const headers = { 'content-type': 'application/json', 'idempotency-key': 'bytes-1' };
    const first = await alice.api.post('/v1/agent/calls', { rawBody: notUtf8[0].bytes, headers });
    const second = await alice.api.post('/v1/agent/calls', { rawBody: notUtf8[1].bytes, headers });
    for (const res of [first, second]) {
      expect(res.status).to.equal(415);
      expect(res.headers.get('idempotent-replayed')).to.equal(null);
    }
    const placed = await alice.api.post('/v1/agent/calls', { body: ok, headers: { 'idempotency-key': 'bytes-1' } });
    expect(placed.status).to.equal(202);
    expect(placed.headers.get('idempotent-replayed')).to.equal(null);
    expect(await count('calls')).to.equal(1);
  });
});
