import { expect } from 'chai';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { insertTestCall } from '../support/calls.js';

forEachStore('reading calls', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  let bob: TestTenant;
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant();
    bob = await srv.tenant();
  });
  afterEach(() => srv.close());

  describe('getCall', () => {
    it('returns the full call record of a call placed with the same key', async () => {
      const row = await insertTestCall(srv.deps.store, alice, {
        created_at: Date.UTC(2026, 0, 2, 3, 4, 5),
        started_at: Date.UTC(2026, 0, 2, 3, 4, 6),
        ended_at: Date.UTC(2026, 0, 2, 3, 5, 6),
        recording_path: 'recordings/x.wav',
        answered_by: 'human',
        hold_max_wait_sec: 120,
        hold_ms: 61_250,
        end_reason: 'hung_up',
      });
      const res = await alice.api.get(`/v1/agent/calls/${row.id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        id: row.id,
        status: 'completed',
        to: '+14155550123',
        objective: 'Ask whether the shop is open on Sunday',
        voice: 'alloy',
        language: 'en-US',
        languageSource: 'inferred',
        summary: 'The shop is open on Sunday.',
        transcript: 'Agent: Hello\nCallee: Hi',
        extracted: { open_sunday: true },
        evidence: null,
        recordingUrl: `${srv.baseUrl}/v1/agent/calls/${row.id}/recording`,
        startedAt: '2026-01-02T03:04:06.000Z',
        endedAt: '2026-01-02T03:05:06.000Z',
        durationSec: 60,
        error: null,
        answeredBy: 'human',
        metadata: null,
        turns: null,
        voicemailLeft: false,
        sendDigits: null,
        hold: { maxWaitSec: 120 },
        holdSec: 61.25,
        endReason: 'hung_up',
        batchId: null,
        optOut: false,
        scheduledAt: null,
        previousCallId: null,
        nextCallId: null,
        callingWindow: null,
        timeZone: null,
        timeZones: null,
        latency: null,
        tools: null,
        toolCalls: [],
        transfer: null,
        transferredTo: null,
        transferredAt: null,
        createdAt: '2026-01-02T03:04:05.000Z',
        callerId: alice.callerId,
        billedMinutes: 1,
      });
    });

    it("returns the latency a live agent's session stored for the call, as it was stored", async () => {
      const latency = {
        firstAudioMs: 412,
        turns: [
          { atMs: 5120, afterMs: 640 },
          { atMs: 9800, afterMs: 702 },
        ],
        p50Ms: 640,
        p95Ms: 702,
        bargeIns: [{ atMs: 7010, clearMs: 231 }],
      };
      const row = await insertTestCall(srv.deps.store, alice, { latency_json: JSON.stringify(latency) });
      const res = await alice.api.get(`/v1/agent/calls/${row.id}`);
      expect(res.status).to.equal(200);
      expect(res.body.latency).to.deep.equal(latency);
    });

    it('reports a queued call with nulls for everything not known yet', async () => {
      const row = await insertTestCall(srv.deps.store, alice, { status: 'queued', summary: null, transcript: null, extracted_json: null, started_at: null, ended_at: null, duration_sec: null });
      const res = await alice.api.get(`/v1/agent/calls/${row.id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ status: 'queued', summary: null, transcript: null, extracted: null, recordingUrl: null, startedAt: null, endedAt: null, durationSec: null, answeredBy: null });
    });

    it("answers another key's call with 404 not_found, exactly like a call that does not exist", async () => {
      const row = await insertTestCall(srv.deps.store, alice);
      const theirs = await bob.api.get(`/v1/agent/calls/${row.id}`);
      const missing = await bob.api.get('/v1/agent/calls/00000000-0000-4000-8000-000000000000');
      expect(theirs.status).to.equal(404);
      expect(theirs.body.error).to.equal('not_found');
      expect(missing.status).to.equal(404);
      expect(missing.body.error).to.equal('not_found');
      expect(theirs.body.message.replace(row.id, 'ID')).to.equal(missing.body.message.replace('00000000-0000-4000-8000-000000000000', 'ID'));
    });

    it('finds a call by its id in capitals or mixed case (a UUID is the same whatever its case), and still only for its key', async () => {
      const row = await insertTestCall(srv.deps.store, alice);
      expect(row.id).to.match(/^[0-9a-f-]{36}$/);
      const mixed = [...row.id].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
      for (const id of [row.id.toUpperCase(), mixed]) {
        const res = await alice.api.get(`/v1/agent/calls/${id}`);
        expect(res.status).to.equal(200);
        expect(res.body.id).to.equal(row.id);
        expect((await bob.api.get(`/v1/agent/calls/${id}`)).status).to.equal(404);
      }
    });

    it('answers an id that is not a UUID with 404 not_found', async () => {
      const res = await alice.api.get('/v1/agent/calls/not-a-uuid');
      expect(res.status).to.equal(404);
      expect(res.body.error).to.equal('not_found');
    });
  });

  describe('listCalls', () => {
    it('lists the key’s calls most recent first, 20 by default, without the record-only fields', async () => {
      const base = Date.UTC(2026, 5, 1);
      const ids: string[] = [];
      for (let i = 0; i < 25; i++) ids.push((await insertTestCall(srv.deps.store, alice, { created_at: base + i * 1000 })).id);
      await insertTestCall(srv.deps.store, bob, { created_at: base + 99_000 });
      const res = await alice.api.get('/v1/agent/calls');
      expect(res.status).to.equal(200);
      expect(res.body.calls.map((c: { id: string }) => c.id)).to.deep.equal(ids.slice(5).reverse());
      expect(Object.keys(res.body.calls[0]).sort()).to.deep.equal([
        'answeredBy',
        'batchId',
        'callerId',
        'createdAt',
        'durationSec',
        'endedAt',
        'error',
        'id',
        'metadata',
        'objective',
        'startedAt',
        'status',
        'summary',
        'to',
      ]);
    });

    it('returns at most limit calls', async () => {
      for (let i = 0; i < 3; i++) await insertTestCall(srv.deps.store, alice, { created_at: 1000 + i });
      expect((await alice.api.get('/v1/agent/calls?limit=2')).body.calls).to.have.length(2);
      expect((await alice.api.get('/v1/agent/calls?limit=100')).body.calls).to.have.length(3);
      expect((await alice.api.get('/v1/agent/calls?limit=1')).body.calls).to.have.length(1);
    });

    it('returns an empty list for a key that placed nothing', async () => {
      const res = await bob.api.get('/v1/agent/calls');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ calls: [], nextCursor: null });
    });

    const range = 'limit must be an integer from 1 to 100.';
    for (const [query, message] of [
      ['0', range],
      ['101', range],
      ['-1', range],
      ['1.5', range],
      ['abc', range],
      ['', range],
      ['1e2', range],
      ['20&limit=30', 'limit must be given once.'],
    ]) {
      it(`rejects limit=${query} with 400 invalid_limit`, async () => {
        const res = await alice.api.get(`/v1/agent/calls?limit=${query}`);
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal({ error: 'invalid_limit', message });
      });
    }
  });
});
