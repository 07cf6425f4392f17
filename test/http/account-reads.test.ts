import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { insertTestCall } from '../support/calls.js';

const DAY = 86_400_000;
const latency = (p50Ms: number, p95Ms: number) => JSON.stringify({ firstAudioMs: 300, turns: [{ atMs: 1000, afterMs: p50Ms }], p50Ms, p95Ms, bargeIns: [] });

forEachStore('getStats and getSettings', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  let bob: TestTenant;
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant({ planMinutes: 500 });
    bob = await srv.tenant();
  });
  afterEach(() => srv.close());

  /** An event of the call made `n` ms before now (the test clock's), whose delivery is in `state`. */
  async function event(callId: string, keyId: string, state: string, n: number) {
    await srv.deps.store.db
      .insertInto('webhook_events')
      .values({
        event_id: `${callId}:call.completed:${n}`,
        call_id: callId,
        api_key_id: keyId,
        event: 'call.completed',
        url: 'https://example.com/hook',
        body: '{}',
        state,
        attempts: 1,
        next_attempt_at: 0,
        lease_owner: null,
        lease_expires_at: null,
        last_status: null,
        last_error: null,
        delivered_at: null,
        created_at: srv.clock.now() - n,
        redelivery_requested_at: null,
        last_redelivery_requested_at: null,
      })
      .execute();
  }

  describe('getStats', () => {
    it("counts the account's calls of the period: per day, by status and answeredBy, rates, minutes, latency, webhooks and errors", async () => {
      const now = srv.clock.now(); // 2026-11-22T12:00:30Z
      const day = (d: number, extra = 0) => now - d * DAY + extra;
      const store = srv.deps.store;
      const a = await insertTestCall(store, alice, { created_at: day(1), status: 'completed', answered_by: 'human', billed_minutes: 3, latency_json: latency(500, 900) });
      await insertTestCall(store, alice, { created_at: day(1, 10), status: 'completed', answered_by: 'human', billed_minutes: 2, latency_json: latency(700, 1500) });
      await insertTestCall(store, alice, { created_at: day(1, 20), status: 'completed', answered_by: 'unknown', billed_minutes: 1, latency_json: latency(600, 1100) });
      await insertTestCall(store, alice, { created_at: day(2), status: 'voicemail', answered_by: 'machine', billed_minutes: 1 });
      const b = await insertTestCall(store, alice, { created_at: day(2, 5), status: 'no_answer', answered_by: null, billed_minutes: 0, error: null, duration_sec: null });
      await insertTestCall(store, alice, { created_at: day(3), status: 'failed', answered_by: null, billed_minutes: 0, error: 'placement_failed' });
      await insertTestCall(store, alice, { created_at: day(3, 1), status: 'failed', answered_by: null, billed_minutes: 0, error: 'placement_failed' });
      await insertTestCall(store, alice, { created_at: day(3, 2), status: 'canceled', answered_by: null, billed_minutes: null, error: 'destination_opted_out' });
      await insertTestCall(store, alice, { created_at: day(0, -10), status: 'queued', answered_by: null, billed_minutes: null, ended_at: null });
      // Outside the period, and another account's: never counted.
      await insertTestCall(store, alice, { created_at: day(31), status: 'failed', error: 'agent_unavailable' });
      await insertTestCall(store, bob, { created_at: day(1), status: 'failed', error: 'agent_unavailable', billed_minutes: 9 });
      await event(a.id, alice.keyId, 'failed', 1);
      await event(a.id, alice.keyId, 'delivered', 2);
      await event(b.id, alice.keyId, 'gone', 3);
      // Made before the period, and another account's: not counted.
      await event(b.id, alice.keyId, 'failed', 31 * DAY);
      const theirs = await insertTestCall(store, bob, { created_at: day(1) });
      await event(theirs.id, bob.keyId, 'failed', 4);

      const res = await alice.api.get('/v1/agent/stats');
      expect(res.status).to.equal(200);
      const s = res.body;
      expect([s.periodStart, s.periodEnd]).to.deep.equal([new Date(now + 1 - 30 * DAY).toISOString(), new Date(now + 1).toISOString()]);
      expect(s.calls).to.equal(9);
      expect(s.perDay).to.have.length(31);
      expect(s.perDay[0]).to.deep.equal({ date: '2026-10-23', calls: 0 });
      expect(s.perDay.slice(-4)).to.deep.equal([
        { date: '2026-11-19', calls: 3 },
        { date: '2026-11-20', calls: 2 },
        { date: '2026-11-21', calls: 3 },
        { date: '2026-11-22', calls: 1 },
      ]);
      expect(s.byStatus).to.deep.equal({ queued: 1, dialing: 0, in_progress: 0, completed: 3, no_answer: 1, voicemail: 1, declined: 0, failed: 2, canceled: 1 });
      expect(s.byAnsweredBy).to.deep.equal({ human: 2, machine: 1, fax: 0, unknown: 1, none: 5 });
      // 7 dialled endings (the canceled and the queued call are not), 4 answered, 3 completed.
      expect([s.answerRate, s.completionRate]).to.deep.equal([0.5714, 0.4286]);
      expect(s.minutes).to.deep.equal({
        billed: 7,
        plan: { planMinutes: 500, usedMinutes: 7, reservedMinutes: 1, periodStart: '2026-11-01T00:00:00.000Z', periodEnd: '2026-12-01T00:00:00.000Z' },
      });
      expect(s.latency).to.deep.equal({ calls: 3, p50Ms: 600, p95Ms: 1500 });
      expect(s.webhooks).to.deep.equal({ failed: 1, gone: 1 });
      expect(s.errors).to.deep.equal([
        { error: 'placement_failed', calls: 2 },
        { error: 'destination_opted_out', calls: 1 },
      ]);

      const bobs = (await bob.api.get('/v1/agent/stats')).body;
      expect([bobs.calls, bobs.errors, bobs.minutes.billed, bobs.webhooks]).to.deep.equal([2, [{ error: 'agent_unavailable', calls: 1 }], 10, { failed: 1, gone: 0 }]);
    });

    it('takes a period, createdFrom inclusive and createdTo exclusive, and answers an empty one with zeros and nulls', async () => {
      await insertTestCall(srv.deps.store, alice, { created_at: Date.UTC(2026, 9, 1, 23, 59), status: 'completed', answered_by: 'human' });
      await insertTestCall(srv.deps.store, alice, { created_at: Date.UTC(2026, 9, 3), status: 'completed' });
      const res = await alice.api.get('/v1/agent/stats?createdFrom=2026-10-01T12:00:00Z&createdTo=2026-10-03T00:00:00Z');
      expect(res.status).to.equal(200);
      expect(res.body.perDay).to.deep.equal([
        { date: '2026-10-01', calls: 1 },
        { date: '2026-10-02', calls: 0 },
      ]);
      expect([res.body.calls, res.body.answerRate, res.body.completionRate]).to.deep.equal([1, 1, 1]);
      const empty = (await bob.api.get('/v1/agent/stats?createdFrom=2026-10-01T00:00:00Z&createdTo=2026-10-08T00:00:00Z')).body;
      expect([empty.calls, empty.perDay.length, empty.answerRate, empty.completionRate, empty.latency, empty.errors]).to.deep.equal([0, 7, null, null, { calls: 0, p50Ms: null, p95Ms: null }, []]);
    });

    it('answers a bad period with 400 invalid_period', async () => {
      for (const query of [
        'createdFrom=last-week',
        'createdTo=2026-10-01',
        'createdFrom=2026-10-02T00:00:00Z&createdTo=2026-10-01T00:00:00Z',
        'createdFrom=2025-01-01T00:00:00Z&createdTo=2026-10-01T00:00:00Z',
        'createdFrom=2026-12-01T00:00:00Z',
        'createdTo=2026-10-01T00:00:00Z&createdTo=2026-10-02T00:00:00Z',
      ]) {
        const res = await alice.api.get(`/v1/agent/stats?${query}`);
        expect([query, res.status, res.body.error]).to.deep.equal([query, 400, 'invalid_period']);
      }
    });

    it('needs a key', async () => {
      expect((await srv.anon.get('/v1/agent/stats')).status).to.equal(401);
      expect((await srv.anon.get('/v1/agent/settings')).status).to.equal(401);
    });
  });

  describe('getSettings', () => {
    it("shows the key's defaults, the account's numbers and plan, the secret's fingerprint and the voices, never the secret", async () => {
      const carol = await srv.tenant({ planMinutes: 250, defaultVoice: 'marin', callingWindow: { start: '09:00', end: '17:00', days: ['mon', 'tue'], timeZone: 'Europe/London' } });
      await srv.deps.store.db.updateTable('api_keys').set({ on_behalf_of: 'Corner Shop', recording_notice: 0, machine_detection: 'off' }).where('id', '=', carol.keyId).execute();
      await insertTestCall(srv.deps.store, carol, { status: 'completed', ended_at: srv.clock.now(), billed_minutes: 4 });
      const key = await srv.deps.store.db.selectFrom('api_keys').select(['webhook_secret', 'key_hint']).where('id', '=', carol.keyId).executeTakeFirstOrThrow();
      const res = await carol.api.get('/v1/agent/settings');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        key: {
          name: 'test',
          hint: key.key_hint,
          callerId: null,
          voice: 'marin',
          callingWindow: { start: '09:00', end: '17:00', days: ['mon', 'tue'], timeZone: 'Europe/London' },
          machineDetection: 'off',
          onBehalfOf: 'Corner Shop',
          recordingNotice: false,
        },
        account: { name: res.body.account.name, defaultCallerId: carol.callerId, numbers: [carol.callerId] },
        plan: { planMinutes: 250, usedMinutes: 4, reservedMinutes: 0, periodStart: '2026-11-01T00:00:00.000Z', periodEnd: '2026-12-01T00:00:00.000Z' },
        webhookSecretFingerprint: createHash('sha256').update(key.webhook_secret).digest('hex').slice(0, 8),
        voices: ['alloy', 'ash', 'ballad', 'coral', 'echo', 'sage', 'shimmer', 'verse', 'marin', 'cedar'],
        defaultVoice: 'alloy',
      });
      expect(JSON.stringify(res.body)).to.not.include(key.webhook_secret);
      const plain = (await alice.api.get('/v1/agent/settings')).body.key;
      expect([plain.voice, plain.callingWindow, plain.machineDetection, plain.onBehalfOf, plain.recordingNotice]).to.deep.equal([null, null, 'on', null, true]);
    });
  });

  it('redirects GET / to the console with 302', async () => {
    const res = await fetch(`${srv.baseUrl}/`, { redirect: 'manual' });
    expect([res.status, res.headers.get('location')]).to.deep.equal([302, '/console']);
    const head = await fetch(`${srv.baseUrl}/`, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).to.equal(302);
  });
});
