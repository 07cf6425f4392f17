import { expect } from 'chai';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { insertTestCall } from '../support/calls.js';

const ok = { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday and until what time.' };

forEachStore('placement limits and idempotency', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant();
  });
  afterEach(() => srv.close());

  const callCount = async () =>
    Number(
      (
        await srv.deps.store.db
          .selectFrom('calls')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const post = (body: unknown, idem?: string, who = alice) => who.api.post('/v1/agent/calls', { body, headers: idem === undefined ? {} : { 'idempotency-key': idem } });

  describe('rate limit', () => {
    it('accepts 10 placements a minute, then answers 429 rate_limited with Retry-After equal to RateLimit-Reset', async () => {
      for (let i = 0; i < 10; i++) {
        const res = await post(ok);
        expect(res.status).to.equal(202);
        expect(res.headers.get('ratelimit-remaining')).to.equal(String(9 - i));
      }
      const res = await post(ok);
      expect(res.status).to.equal(429);
      expect(res.body.error).to.equal('rate_limited');
      expect(res.headers.get('ratelimit-remaining')).to.equal('0');
      expect(res.headers.get('retry-after')).to.equal('30');
      expect(res.headers.get('ratelimit-reset')).to.equal('30');
      expect(await callCount()).to.equal(10);
      srv.clock.advance(30_000);
      expect((await post(ok)).status).to.equal(202);
    });

    it('counts only placed calls: 30 rejected requests spend nothing, and each reports the window as it stands', async () => {
      for (let i = 0; i < 30; i++) {
        const res = await post(i % 2 ? { to: ok.to } : { ...ok, to: '+19005550100' }); // a missing objective; a premium-rate number
        expect(res.status).to.equal(400);
        expect(res.headers.get('ratelimit-remaining')).to.equal('10');
      }
      for (let i = 0; i < 10; i++) expect((await post(ok)).status).to.equal(202);
      expect((await post(ok)).status).to.equal(429);
      expect(await callCount()).to.equal(10);
    });

    it('does not count a placement refused at the minute cap', async () => {
      const bob = await srv.tenant({ planMinutes: 1 });
      await insertTestCall(srv.deps.store, bob, { ended_at: srv.clock.now() - 1000, duration_sec: 60, billed_minutes: 1 });
      for (let i = 0; i < 12; i++) expect((await post(ok, undefined, bob)).body.error).to.equal('over_minute_cap');
      const row = await srv.deps.store.db.selectFrom('rate_windows').selectAll().where('bucket', '=', `key:${bob.keyId}`).executeTakeFirst();
      expect(row?.count ?? 0).to.equal(0);
    });

    it('answers 429 before looking at the body once the window is full', async () => {
      for (let i = 0; i < 10; i++) expect((await post(ok)).status).to.equal(202);
      const res = await post({ to: ok.to });
      expect(res.status).to.equal(429);
      expect(res.body.error).to.equal('rate_limited');
      expect(res.headers.get('ratelimit-remaining')).to.equal('0');
    });

    it('is exact under concurrency with rejected requests mixed in: 100 at once, half invalid, place exactly 10', async () => {
      const results = await Promise.all(Array.from({ length: 100 }, (_x, i) => post(i % 2 ? ok : { to: ok.to })));
      expect(results.filter((r) => r.status === 202)).to.have.length(10);
      for (const r of results) expect(r.status === 202 ? 'placed' : r.body.error).to.be.oneOf(['placed', 'rate_limited', 'objective_required']);
      expect(await callCount()).to.equal(10);
      const row = await srv.deps.store.db.selectFrom('rate_windows').selectAll().where('bucket', '=', `key:${alice.keyId}`).executeTakeFirstOrThrow();
      expect(Number(row.count)).to.equal(10);
    });

    it('is exact under concurrency: 100 simultaneous placements with one key accept exactly 10', async () => {
      const results = await Promise.all(Array.from({ length: 100 }, () => post(ok)));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 202)).to.have.length(10);
      expect(statuses.filter((s) => s === 429)).to.have.length(90);
      expect(await callCount()).to.equal(10);
    });
  });

  describe('minute cap', () => {
    it('answers 429 over_minute_cap once used plus reserved minutes reach the allowance, and places nothing', async () => {
      const bob = await srv.tenant({ planMinutes: 3 });
      await insertTestCall(srv.deps.store, bob, { ended_at: srv.clock.now() - 1000, duration_sec: 61, billed_minutes: 2 });
      expect((await post(ok, undefined, bob)).status).to.equal(202); // 2 used + 0 reserved < 3
      const res = await post(ok, undefined, bob); // 2 used + 1 reserved = 3
      expect(res.status).to.equal(429);
      expect(res.body.error).to.equal('over_minute_cap');
      expect(Number(res.headers.get('retry-after'))).to.equal(Math.ceil((Date.UTC(2026, 11, 1) - srv.clock.now()) / 1000));
      expect(await callCount()).to.equal(2);
    });

    it('does not count calls of an earlier billing period', async () => {
      const bob = await srv.tenant({ planMinutes: 3 });
      await insertTestCall(srv.deps.store, bob, { ended_at: Date.UTC(2026, 9, 31, 23, 59), billed_minutes: 50 });
      expect((await post(ok, undefined, bob)).status).to.equal(202);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the same status, byte-identical body and Location without placing a second call or spending the window', async () => {
      const first = await post(ok, 'order-42');
      const second = await post(ok, 'order-42');
      expect(first.status).to.equal(202);
      expect(second.status).to.equal(202);
      expect(second.text).to.equal(first.text);
      expect(second.headers.get('location')).to.equal(first.headers.get('location'));
      expect(second.headers.get('idempotent-replayed')).to.equal('true');
      expect(first.headers.get('idempotent-replayed')).to.equal(null);
      expect(second.headers.get('ratelimit-remaining')).to.equal('9');
      expect(await callCount()).to.equal(1);
    });

    it('treats the quoted form as the same key', async () => {
      const first = await post(ok, 'abc');
      const second = await post(ok, '"abc"');
      expect(second.text).to.equal(first.text);
      expect(await callCount()).to.equal(1);
    });

    it('treats the same body with keys in another order as the same request', async () => {
      await post({ to: ok.to, objective: ok.objective }, 'k1');
      const second = await post({ objective: ok.objective, to: ok.to }, 'k1');
      expect(second.status).to.equal(202);
      expect(second.headers.get('idempotent-replayed')).to.equal('true');
    });

    it('answers the same key with a different body with 422 idempotency_key_reused', async () => {
      await post(ok, 'k2');
      const res = await post({ ...ok, objective: 'Something else entirely, please.' }, 'k2');
      expect(res.status).to.equal(422);
      expect(res.body.error).to.equal('idempotency_key_reused');
      expect(await callCount()).to.equal(1);
    });

    it('scopes keys to the API key', async () => {
      const bob = await srv.tenant();
      await post(ok, 'shared');
      const res = await post(ok, 'shared', bob);
      expect(res.headers.get('idempotent-replayed')).to.equal(null);
      expect(await callCount()).to.equal(2);
    });

    it('replays a validation rejection like a success', async () => {
      const first = await post({ to: ok.to }, 'k3');
      const second = await post({ to: ok.to }, 'k3');
      expect(first.status).to.equal(400);
      expect(second.status).to.equal(400);
      expect(second.text).to.equal(first.text);
      expect(second.headers.get('idempotent-replayed')).to.equal('true');
    });

    it('does not store a 429, so the same key succeeds once the window resets', async () => {
      for (let i = 0; i < 10; i++) await post(ok);
      expect((await post(ok, 'k4')).status).to.equal(429);
      srv.clock.advance(60_000);
      const res = await post(ok, 'k4');
      expect(res.status).to.equal(202);
      expect(res.headers.get('idempotent-replayed')).to.equal(null);
    });

    it('answers a duplicate that arrives while the first is running with 409 idempotency_key_in_use', async () => {
      await srv.deps.store.db
        .insertInto('idempotency_keys')
        .values({
          api_key_id: alice.keyId,
          idem_key: 'k5',
          request_hash: (await import('../../server/src/contract/idempotency-key.js')).requestFingerprint(ok),
          state: 'running',
          response_status: null,
          response_headers_json: null,
          response_body: null,
          created_at: srv.clock.now(),
          expires_at: srv.clock.now() + 86_400_000,
        })
        .execute();
      const res = await post(ok, 'k5');
      expect(res.status).to.equal(409);
      expect(res.body.error).to.equal('idempotency_key_in_use');
      expect(res.headers.get('retry-after')).to.equal('1');
      expect(await callCount()).to.equal(0);
    });

    it('creates exactly one call from 50 concurrent placements with the same key', async () => {
      const results = await Promise.all(Array.from({ length: 50 }, () => post(ok, 'burst')));
      expect(await callCount()).to.equal(1);
      const accepted = results.filter((r) => r.status === 202);
      expect(accepted.length).to.be.at.least(1);
      expect(new Set(accepted.map((r) => r.body.callId)).size).to.equal(1);
      for (const r of results) expect([202, 409]).to.include(r.status);
    });

    it('forgets a key after its retention time', async () => {
      await post(ok, 'k6');
      srv.clock.advance(24 * 3600 * 1000);
      const res = await post(ok, 'k6');
      expect(res.status).to.equal(202);
      expect(res.headers.get('idempotent-replayed')).to.equal(null);
      expect(await callCount()).to.equal(2);
    });

    for (const [what, value] of [
      ['an empty key', ''],
      ['a key over 255 characters', 'k'.repeat(256)],
      ['a key with a space', 'a b'],
      ['a key with a non-ASCII character', 'clé'],
    ] as const) {
      it(`rejects ${what} with 400 invalid_idempotency_key`, async () => {
        const res = await alice.api.post('/v1/agent/calls', { body: ok, headers: { 'idempotency-key': value } });
        expect(res.status).to.equal(400);
        // One plain sentence, not the header's whole documentation.
        expect(res.body).to.deep.equal({
          error: 'invalid_idempotency_key',
          message: 'The Idempotency-Key header is not 1 to 255 printable ASCII characters.',
        });
        expect(await callCount()).to.equal(0);
      });
    }
  });
});
