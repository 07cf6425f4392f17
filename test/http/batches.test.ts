// createBatch, getBatch, listBatches and listCalls' batchId over HTTP, on both stores, driven by the clock: a batch
// is created whole or not at all (400 invalid_batch naming every bad call), counts as one request against the
// key's window, is idempotent under an Idempotency-Key, takes a body past placeCall's 64 KiB (up to 16 MiB), runs
// to completed with its calls carrying batchId, and is another key's 404.
import { expect } from 'chai';
import { pino } from 'pino';
import { BatchRunner, type BatchRow } from '../../server/src/batches/batch-runner.js';
import { JobQueue, LeaseLost } from '../../server/src/jobs/job-queue.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';

const objective = 'Ask whether the shop is open on Sunday.';
const numbers = (n: number, from = 2000) => Array.from({ length: n }, (_, i) => ({ to: `+1415555${String(from + i).padStart(4, '0')}` }));

forEachStore('batches over HTTP', (kind) => {
  let srv: EngineServer;
  let runner: BatchRunner;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startEngineServer(kind);
    runner = new BatchRunner({ store: srv.deps.store, clock: srv.clock, logger: pino({ level: 'silent' }), leaseMs: 30_000, concurrency: 4, idlePollMs: 1000 });
    alice = await srv.tenant({ rateLimit: 10 });
  });
  afterEach(() => srv.close());

  const create = (body: unknown, tenant = alice, headers: Record<string, string> = {}) => tenant.api.post('/v1/agent/batches', { body, headers });
  const count = async (table: 'batches' | 'batch_items' | 'calls') => (await srv.deps.store.db.selectFrom(table).selectAll().execute()).length;

  async function runToEnd(id: string): Promise<void> {
    for (let i = 0; i < 500; i++) {
      const batch = await srv.deps.store.db.selectFrom('batches').select(['status']).where('id', '=', id).executeTakeFirstOrThrow();
      if (batch.status === 'completed') return;
      const ran = (await runner.tick()) + (await srv.engine.tick());
      if (ran === 0) {
        const due = await srv.deps.store.db
          .selectFrom('calls')
          .select((eb) => eb.fn.min<number>('next_run_at').as('at'))
          .where('next_run_at', 'is not', null)
          .executeTakeFirst();
        const batchDue = await srv.deps.store.db.selectFrom('batches').select('next_run_at').where('id', '=', id).executeTakeFirstOrThrow();
        const next = Math.min(...[due?.at, batchDue.next_run_at].filter((t) => t !== null && t !== undefined).map(Number));
        srv.clock.ms = Math.max(srv.clock.ms + 1, next);
      }
    }
    throw new Error('the batch did not complete');
  }

  it('creates a batch (202, Location), runs it to completed, and its calls carry batchId and are listed by it', async () => {
    const res = await create({ defaults: { objective, fields: [{ name: 'open_sunday', type: 'boolean' }] }, calls: numbers(4), maxConcurrency: 2, metadata: { campaign: 'sunday' } });
    expect(res.status).to.equal(202);
    expect(res.body).to.deep.equal({ batchId: res.body.batchId, status: 'queued', total: 4 });
    expect(res.headers.get('location')).to.equal(`/agent/batches/${res.body.batchId}`);
    const id = res.body.batchId as string;
    const queued = (await alice.api.get(`/v1/agent/batches/${id}`)).body;
    expect(queued).to.deep.include({ id, status: 'queued', total: 4, maxConcurrency: 2, stopReason: null, metadata: { campaign: 'sunday' }, startedAt: null, endedAt: null });
    expect(queued.counts).to.deep.equal({ queued: 4, dialing: 0, in_progress: 0, completed: 0, no_answer: 0, voicemail: 0, declined: 0, failed: 0, canceled: 0 });
    await runToEnd(id);
    const done = (await alice.api.get(`/v1/agent/batches/${id}`)).body;
    expect(done.status).to.equal('completed');
    expect(done.counts).to.deep.equal({ queued: 0, dialing: 0, in_progress: 0, completed: 4, no_answer: 0, voicemail: 0, declined: 0, failed: 0, canceled: 0 });
    const list = (await alice.api.get(`/v1/agent/calls?batchId=${id}&limit=10`)).body.calls;
    expect(list.map((c: { to: string }) => c.to).sort()).to.deep.equal(numbers(4).map((c) => c.to));
    const record = (await alice.api.get(`/v1/agent/calls/${list[0].id}`)).body;
    expect(record).to.deep.include({ batchId: id, status: 'completed', objective });
    const event = await srv.deps.store.db.selectFrom('webhook_events').select('body').where('call_id', '=', list[0].id).executeTakeFirst();
    // The calls had no webhookUrl: their events are not enqueued; the record is what carries batchId then.
    if (event) expect(JSON.parse(event.body).batchId).to.equal(id);
    expect((await alice.api.get('/v1/agent/batches')).body.batches.map((b: { id: string }) => b.id)).to.deep.equal([id]);
  });

  it('sends its own event to its webhookUrl as it ends: batch.completed with its counts, or batch.canceled', async () => {
    const hook = 'http://127.0.0.1:9/batches';
    const res = await create({ defaults: { objective }, calls: numbers(2), webhookUrl: hook, metadata: { campaign: 'sunday' } });
    const id = res.body.batchId as string;
    await runToEnd(id);
    const ended = (await alice.api.get(`/v1/agent/batches/${id}`)).body;
    const [row] = await srv.deps.store.db.selectFrom('webhook_events').selectAll().where('call_id', '=', id).execute();
    expect([row.event, row.url, row.api_key_id, row.state]).to.deep.equal(['batch.completed', hook, alice.keyId, 'pending']);
    expect(JSON.parse(row.body)).to.deep.equal({
      event: 'batch.completed',
      eventId: `${id}:batch.completed:${Date.parse(ended.endedAt)}`,
      timestamp: ended.endedAt,
      batchId: id,
      status: 'completed',
      total: 2,
      counts: { queued: 0, dialing: 0, in_progress: 0, completed: 2, no_answer: 0, voicemail: 0, declined: 0, failed: 0, canceled: 0 },
      stopReason: null,
      matched: 0,
      metadata: { campaign: 'sunday' },
      endedAt: ended.endedAt,
    });
    const other = (await create({ defaults: { objective }, calls: numbers(3), webhookUrl: hook })).body.batchId as string;
    await alice.api.post(`/v1/agent/batches/${other}/cancel`);
    const events = await srv.deps.store.db.selectFrom('webhook_events').select(['event', 'body']).where('call_id', '=', other).execute();
    expect(events.map((e) => [e.event, JSON.parse(e.body).counts.canceled])).to.deep.equal([['batch.canceled', 3]]);
  });

  it("is all or nothing: 400 invalid_batch names every bad call with placeCall's error, and nothing is created", async () => {
    const calls: unknown[] = numbers(5);
    calls[1] = { to: '+1415' };
    calls[3] = { to: '+14155550123', voice: 'robot' };
    const res = await create({ defaults: { objective }, calls });
    expect(res.status).to.equal(400);
    const one = await alice.api.post('/v1/agent/calls', { body: { objective, to: '+1415' } });
    const three = await alice.api.post('/v1/agent/calls', { body: { objective, to: '+14155550123', voice: 'robot' } });
    expect(res.body).to.deep.equal({
      error: 'invalid_batch',
      message: "2 of the batch's 5 calls are not valid (see `errors`); nothing was created.",
      errors: [
        { index: 1, error: one.body.error, message: one.body.message },
        { index: 3, error: three.body.error, message: three.body.message },
      ],
    });
    expect([await count('batches'), await count('batch_items'), await count('calls')]).to.deep.equal([0, 0, 0]);
  });

  it("names the calls refused by the account's list beside those refused by their checks, in index order", async () => {
    await alice.api.post('/v1/agent/do-not-call', { body: { number: '+14155552001' } });
    const calls: unknown[] = numbers(4);
    calls[2] = { to: '+1415' };
    const res = await create({ defaults: { objective }, calls });
    expect([res.status, res.body.message, res.body.errors.map((e: { index: number; error: string }) => [e.index, e.error])]).to.deep.equal([
      400,
      "2 of the batch's 4 calls are not valid (see `errors`); nothing was created.",
      [
        [1, 'destination_opted_out'],
        [2, 'invalid_number'],
      ],
    ]);
  });

  for (const [what, body, token] of [
    ['no calls', { calls: [] }, 'invalid_calls'],
    ['calls not an array', { calls: { to: '+14155550123' } }, 'invalid_calls'],
    ['10,001 calls', { calls: Array(10_001).fill({ to: '+14155550123', objective }) }, 'invalid_calls'],
    ['defaults not an object', { calls: numbers(1), defaults: 'x' }, 'invalid_defaults'],
    ['maxConcurrency 0', { calls: numbers(1), maxConcurrency: 0 }, 'invalid_max_concurrency'],
    ['maxConcurrency 101', { calls: numbers(1), maxConcurrency: 101 }, 'invalid_max_concurrency'],
    ['an unknown field', { calls: numbers(1), concurrency: 3 }, 'unknown_field'],
    ['a startAt without offset', { calls: numbers(1), startAt: '2026-12-01T09:00:00' }, 'invalid_start_at'],
    ['a calling window in an unknown zone', { calls: numbers(1), callingWindow: { start: '09:00', end: '17:00', timeZone: 'Mars/Base' } }, 'invalid_calling_window'],
    ['a bad redial', { calls: numbers(1), redial: { afterMinutes: 1 } }, 'invalid_redial'],
    ['a stopWhen without count', { calls: numbers(1), stopWhen: { field: 'open_sunday', equals: true } }, 'invalid_stop_when'],
    ['a stopWhen equal to an object', { calls: numbers(1), stopWhen: { field: 'open_sunday', equals: {}, count: 1 } }, 'invalid_stop_when'],
  ] as const) {
    it(`refuses ${what} with 400 ${token}, creating nothing`, async () => {
      const res = await create({ defaults: { objective }, ...body });
      expect([res.status, res.body.error]).to.deep.equal([400, token]);
      expect(await count('batches')).to.equal(0);
    });
  }

  it('refuses a stopWhen on a field some call does not request, naming it; shows a good one and its count', async () => {
    const fields = [{ name: 'open_sunday', type: 'boolean' }];
    const calls = [{ to: '+14155552000', fields }, { to: '+14155552001' }];
    const res = await create({ defaults: { objective }, calls, stopWhen: { field: 'open_sunday', equals: true, count: 1 } });
    expect([res.status, res.body.error, res.body.message]).to.deep.equal([400, 'invalid_stop_when', '`stopWhen.field` must be a field every call requests; call 1 does not request "open_sunday".']);
    const ok = await create({ defaults: { objective, fields }, calls: numbers(2), stopWhen: { field: 'open_sunday', equals: true, count: 1 } });
    expect((await alice.api.get(`/v1/agent/batches/${ok.body.batchId}`)).body).to.deep.include({ stopWhen: { field: 'open_sunday', equals: true, count: 1 }, matched: 0 });
  });

  it('counts as one request against the window, whatever its size', async () => {
    const bob = await srv.tenant({ rateLimit: 1 });
    expect((await create({ defaults: { objective }, calls: numbers(3) }, bob)).status).to.equal(202);
    const next = await bob.api.post('/v1/agent/calls', { body: { objective, to: '+14155550123' } });
    expect([next.status, next.body.error]).to.deep.equal([429, 'rate_limited']);
  });

  it('is idempotent under an Idempotency-Key: the same body replays the 202, another is 422', async () => {
    const body = { defaults: { objective }, calls: numbers(2) };
    const first = await create(body, alice, { 'idempotency-key': 'batch-1' });
    const again = await create(body, alice, { 'idempotency-key': 'batch-1' });
    expect([again.status, again.body, again.headers.get('idempotent-replayed')]).to.deep.equal([202, first.body, 'true']);
    const other = await create({ ...body, maxConcurrency: 1 }, alice, { 'idempotency-key': 'batch-1' });
    expect([other.status, other.body.error]).to.deep.equal([422, 'idempotency_key_reused']);
    expect(await count('batches')).to.equal(1);
  });

  it('takes a body past 64 KiB, and refuses one past 16 MiB with 413', async () => {
    const long = 'Ask whether the shop is open on Sunday, and until what time, and who runs it on weekends. '.repeat(4);
    const big = await create({ defaults: { objective: long }, calls: numbers(2000).map((c) => ({ ...c, context: long })) });
    expect(big.status).to.equal(202);
    const huge = await create({ defaults: { objective }, calls: numbers(10_000).map((c) => ({ ...c, context: 'x'.repeat(1700) })) });
    expect([huge.status, huge.body.error, huge.body.message]).to.deep.equal([413, 'payload_too_large', 'The request body is larger than 16384 KiB.']);
  });

  it("is another key's 404, and another key's batchId lists none of its calls", async () => {
    const id = (await create({ defaults: { objective }, calls: numbers(1) })).body.batchId as string;
    await runToEnd(id);
    const bob = await srv.tenant();
    const res = await bob.api.get(`/v1/agent/batches/${id}`);
    expect([res.status, res.body.error]).to.deep.equal([404, 'not_found']);
    expect((await bob.api.get(`/v1/agent/calls?batchId=${id}`)).body.calls).to.deep.equal([]);
    expect((await bob.api.get('/v1/agent/batches')).body.batches).to.deep.equal([]);
  });

  it('cancels: calls not yet dialled end canceled with their events, live ones finish, nothing more is released', async () => {
    const res = await create({ defaults: { objective, webhookUrl: 'http://127.0.0.1:9/hooks' }, calls: numbers(6), maxConcurrency: 2 });
    const id = res.body.batchId as string;
    await runner.tick();
    await srv.engine.tick();
    // Two are dialled; release two more (the first pair ending frees their slots), not yet dialled.
    const first = await srv.deps.store.db.selectFrom('calls').select(['id', 'status']).where('batch_id', '=', id).execute();
    expect(first.map((c) => c.status)).to.deep.equal(['dialing', 'dialing']);
    for (const c of first) await srv.drive(c.id);
    await runner.tick();
    const waiting = await srv.deps.store.db.selectFrom('calls').select(['id']).where('batch_id', '=', id).where('status', '=', 'queued').execute();
    expect(waiting).to.have.length(2);
    const canceled = await alice.api.post(`/v1/agent/batches/${id}/cancel`);
    expect(canceled.status).to.equal(200);
    expect(canceled.body).to.deep.include({ status: 'canceled', endedAt: new Date(srv.clock.now()).toISOString() });
    expect(canceled.body.counts).to.deep.equal({ queued: 0, dialing: 0, in_progress: 0, completed: 2, no_answer: 0, voicemail: 0, declined: 0, failed: 0, canceled: 4 });
    for (const c of waiting) {
      const row = await srv.row(c.id);
      expect([row.status, row.dial_attempted_at]).to.deep.equal(['canceled', null]);
      const events = await srv.deps.store.db.selectFrom('webhook_events').select(['event', 'body']).where('call_id', '=', c.id).execute();
      expect(events.map((e) => [e.event, JSON.parse(e.body).batchId])).to.deep.equal([['call.canceled', id]]);
    }
    srv.clock.advance(60_000);
    await runner.tick();
    await srv.engine.tick();
    expect(await count('calls')).to.equal(4);
    expect(await srv.deps.store.db.selectFrom('sandbox_dials').select('call_id').execute()).to.have.length(2);
    const again = await alice.api.post(`/v1/agent/batches/${id}/cancel`);
    expect([again.status, again.body.status]).to.deep.equal([200, 'canceled']);
  });

  it('fences off a runner caught mid-step by a cancel: its release throws LeaseLost and writes nothing', async () => {
    const id = (await create({ defaults: { objective }, calls: numbers(3), maxConcurrency: 3 })).body.batchId as string;
    // A runner that has claimed the batch and read it, and is about to release its calls…
    const queue = new JobQueue<BatchRow>(srv.deps.store, { table: 'batches', key: 'id', due: 'next_run_at' }, 'runner-mid-step', 30_000);
    const [claimed] = await queue.claim(srv.clock.now(), 1);
    expect(claimed.id).to.equal(id);
    // …when the client cancels.
    expect((await alice.api.post(`/v1/agent/batches/${id}/cancel`)).status).to.equal(200);
    const release = await queue.commit(claimed, { set: { status: 'running', released: 3, next_run_at: srv.clock.now() } }).catch((e: unknown) => e);
    expect(release).to.be.instanceOf(LeaseLost);
    const row = await srv.deps.store.db.selectFrom('batches').select(['status', 'released', 'next_run_at', 'lease_owner']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).to.deep.equal({ status: 'canceled', released: 0, next_run_at: null, lease_owner: null });
    expect(await count('calls')).to.equal(0);
  });

  it("lets live calls finish when canceled, refuses to cancel a completed batch (409), and is another key's 404", async () => {
    const id = (await create({ defaults: { objective }, calls: numbers(3), maxConcurrency: 3 })).body.batchId as string;
    await runner.tick();
    await srv.engine.tick();
    expect((await alice.api.post(`/v1/agent/batches/${id}/cancel`)).status).to.equal(200);
    const live = await srv.deps.store.db.selectFrom('calls').select('id').where('batch_id', '=', id).execute();
    for (const c of live) expect((await srv.drive(c.id)).status).to.equal('completed');
    const done = (await create({ defaults: { objective }, calls: numbers(1) })).body.batchId as string;
    await runToEnd(done);
    const late = await alice.api.post(`/v1/agent/batches/${done}/cancel`);
    expect([late.status, late.body.error, late.body.message]).to.deep.equal([409, 'batch_already_ended', 'The batch already ended completed; only a batch not yet ended can be canceled.']);
    const bob = await srv.tenant();
    const theirs = await bob.api.post(`/v1/agent/batches/${id}/cancel`);
    expect([theirs.status, theirs.body.error]).to.deep.equal([404, 'not_found']);
  });

  it('waits queued until its startAt, then runs', async () => {
    const at = srv.clock.now() + 3600_000;
    const res = await create({ defaults: { objective }, calls: numbers(1), startAt: new Date(at).toISOString() });
    expect(res.body.scheduledAt).to.equal(new Date(at).toISOString());
    srv.clock.advance(1800_000);
    await runner.tick();
    expect((await alice.api.get(`/v1/agent/batches/${res.body.batchId}`)).body.status).to.equal('queued');
    srv.clock.ms = at;
    await runToEnd(res.body.batchId);
    const done = (await alice.api.get(`/v1/agent/batches/${res.body.batchId}`)).body;
    expect([done.status, done.startedAt]).to.deep.equal(['completed', new Date(at).toISOString()]);
  });
});
