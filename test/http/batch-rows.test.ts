// listBatchRows over HTTP, on both stores, driven by the clock: every row of a batch is listed from the 202 on, in
// index order and paged, with its number and metadata and where it stands (waiting, released with its calls,
// canceled or skipped with why), and through the whole of a batch's life (creation, release, completion, cancel,
// stopWhen, a redial) the batch's counts are exactly what its rows show. Another key's batch is 404 not_found; a
// bad limit, after or state is 400 with its token.
import { expect } from 'chai';
import { pino } from 'pino';
import type { Analyst } from '../../server/src/analysis/analyst.js';
import { RuleBasedAnalyst } from '../../server/src/analysis/rule-based-analyst.js';
import { BatchRunner } from '../../server/src/batches/batch-runner.js';
import { startEngineServer, type EngineParts, type EngineServer } from '../support/engine.js';
import type { ApiResponse } from '../support/contract.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';

const objective = 'Ask whether the shop is open on Sunday.';
const numbers = (n: number, from = 2000) => Array.from({ length: n }, (_, i) => ({ to: `+1415555${String(from + i).padStart(4, '0')}` }));
const STATUSES = ['queued', 'dialing', 'in_progress', 'completed', 'no_answer', 'voicemail', 'declined', 'failed', 'canceled'] as const;

interface Row {
  index: number;
  to: string;
  metadata: Record<string, string> | null;
  state: string;
  reason: string | null;
  callId: string | null;
  calls: { id: string; status: string }[];
}

/** The counts the rows show: their calls by status, waiting rows as queued, canceled and skipped rows as canceled. */
function countsOf(rows: Row[]): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(STATUSES.map((s) => [s, 0]));
  for (const row of rows) {
    for (const call of row.calls) counts[call.status]! += 1;
    if (row.state === 'waiting') counts.queued! += 1;
    if (row.state === 'canceled' || row.state === 'skipped') counts.canceled! += 1;
  }
  return counts;
}

forEachStore("a batch's rows over HTTP", (kind) => {
  let srv: EngineServer;
  let runner: BatchRunner;
  let alice: TestTenant;
  async function start(parts: EngineParts = {}): Promise<void> {
    srv = await startEngineServer(kind, {}, parts);
    runner = new BatchRunner({ store: srv.deps.store, clock: srv.clock, logger: pino({ level: 'silent' }), leaseMs: 30_000, concurrency: 4, idlePollMs: 1000 });
    alice = await srv.tenant({ rateLimit: 100 });
  }
  beforeEach(() => start());
  afterEach(() => srv.close());

  async function create(body: object): Promise<string> {
    const res = await alice.api.post('/v1/agent/batches', { body });
    expect(res.status).to.equal(202);
    return res.body.batchId as string;
  }

  /** Every row, read a page of `limit` at a time, following nextAfter. */
  async function allRows(id: string, limit = 3, state?: string): Promise<Row[]> {
    const rows: Row[] = [];
    let after: number | null = null;
    for (;;) {
      const query: URLSearchParams = new URLSearchParams({ limit: String(limit), ...(after === null ? {} : { after: String(after) }), ...(state ? { state } : {}) });
      const res: ApiResponse = await alice.api.get(`/v1/agent/batches/${id}/rows?${query}`);
      expect(res.status).to.equal(200);
      rows.push(...res.body.rows);
      after = res.body.nextAfter;
      if (after === null) return rows;
      expect(after).to.equal(rows.at(-1)!.index);
    }
  }

  /** The rows, after checking that the batch's counts are what they show and that there is one row per call asked for. */
  async function rowsMatchingCounts(id: string): Promise<Row[]> {
    const rows = await allRows(id);
    const batch = (await alice.api.get(`/v1/agent/batches/${id}`)).body;
    expect(rows.map((r) => r.index)).to.deep.equal([...Array(batch.total).keys()]);
    expect(countsOf(rows)).to.deep.equal(batch.counts);
    return rows;
  }

  const summary = (rows: Row[]) => rows.map((r) => [r.index, r.state, r.reason, r.calls.map((c) => c.status)]);

  /** Steps the runner and the engine, moving the clock to what is next due, until the batch has `status`; checks the counts after each step. */
  async function runUntil(id: string, status: string): Promise<void> {
    for (let i = 0; i < 500; i++) {
      if ((await alice.api.get(`/v1/agent/batches/${id}`)).body.status === status) return;
      const ran = (await runner.tick()) + (await srv.engine.tick());
      await rowsMatchingCounts(id);
      if (ran === 0) {
        const due = async (table: 'calls' | 'batches') =>
          (
            await srv.deps.store.db
              .selectFrom(table)
              .select((eb) => eb.fn.min<number>('next_run_at').as('at'))
              .where('next_run_at', 'is not', null)
              .executeTakeFirst()
          )?.at;
        const times = [await due('calls'), await due('batches')].filter((t) => t !== null && t !== undefined).map(Number);
        if (times.length === 0) throw new Error(`nothing is due and the batch is not ${status}`);
        srv.clock.ms = Math.max(srv.clock.ms + 1, Math.min(...times));
      }
    }
    throw new Error(`the batch did not get to ${status}`);
  }

  it('lists every row from the 202 on, waiting, with its index, number and metadata; the counts are what the rows show', async () => {
    const calls = [{ to: '+14155552000' }, { to: '+14155552001', metadata: { shop: 'Corner Shop' } }, { to: '+14155552002' }];
    const id = await create({ defaults: { objective, metadata: { campaign: 'sunday' } }, calls, metadata: { batch: 'own' } });
    const res = await alice.api.get(`/v1/agent/batches/${id}/rows`);
    expect([res.status, res.body]).to.deep.equal([
      200,
      {
        rows: [
          { index: 0, to: '+14155552000', metadata: { campaign: 'sunday' }, state: 'waiting', reason: null, callId: null, calls: [] },
          { index: 1, to: '+14155552001', metadata: { shop: 'Corner Shop' }, state: 'waiting', reason: null, callId: null, calls: [] },
          { index: 2, to: '+14155552002', metadata: { campaign: 'sunday' }, state: 'waiting', reason: null, callId: null, calls: [] },
        ],
        nextAfter: null,
      },
    ]);
    expect(res.headers.get('ratelimit-policy')).to.equal('100;w=60');
    await rowsMatchingCounts(id);
  });

  it('shows each row released with its callId and its call as it goes, through to completed, the counts equal to the rows at every step', async () => {
    const id = await create({ defaults: { objective }, calls: numbers(5), maxConcurrency: 2 });
    await runner.tick();
    const rows = await rowsMatchingCounts(id);
    const made = (await alice.api.get(`/v1/agent/calls?batchId=${id}`)).body.calls as { id: string; to: string; status: string }[];
    expect(made).to.have.length(2);
    const byNumber = new Map(made.map((c) => [c.to, c.id]));
    expect(rows.map((r) => [r.index, r.to, r.state, r.callId])).to.deep.equal([
      [0, '+14155552000', 'released', byNumber.get('+14155552000')],
      [1, '+14155552001', 'released', byNumber.get('+14155552001')],
      [2, '+14155552002', 'waiting', null],
      [3, '+14155552003', 'waiting', null],
      [4, '+14155552004', 'waiting', null],
    ]);
    expect(rows[0]!.calls).to.deep.equal([{ id: rows[0]!.callId, status: 'queued' }]);
    const record = (await alice.api.get(`/v1/agent/calls/${rows[1]!.callId}`)).body;
    expect(record).to.deep.include({ id: rows[1]!.callId, batchId: id, to: '+14155552001' });
    await runUntil(id, 'completed');
    const done = await rowsMatchingCounts(id);
    expect(summary(done)).to.deep.equal([0, 1, 2, 3, 4].map((i) => [i, 'released', null, ['completed']]));
    expect(done.map((r) => r.callId).sort()).to.deep.equal(((await alice.api.get(`/v1/agent/calls?batchId=${id}`)).body.calls as { id: string }[]).map((c) => c.id).sort());
  });

  it('pages by index: nextAfter is the last index of a page that has more after it, and state lists the rows in it alone', async () => {
    const id = await create({ defaults: { objective }, calls: numbers(5), maxConcurrency: 3 });
    const page = async (query: string) => {
      const res = await alice.api.get(`/v1/agent/batches/${id}/rows?${query}`);
      expect(res.status).to.equal(200);
      return [res.body.rows.map((r: Row) => r.index), res.body.nextAfter];
    };
    expect(await page('limit=2')).to.deep.equal([[0, 1], 1]);
    expect(await page('limit=2&after=1')).to.deep.equal([[2, 3], 3]);
    expect(await page('limit=2&after=3')).to.deep.equal([[4], null]);
    expect(await page('limit=1&after=3')).to.deep.equal([[4], null]);
    expect(await page('after=4')).to.deep.equal([[], null]);
    expect(await page('after=9999')).to.deep.equal([[], null]);
    await runner.tick();
    expect(await page('state=released')).to.deep.equal([[0, 1, 2], null]);
    expect(await page('state=released&limit=2')).to.deep.equal([[0, 1], 1]);
    expect(await page('state=released&limit=2&after=1')).to.deep.equal([[2], null]);
    expect(await page('state=waiting')).to.deep.equal([[3, 4], null]);
    expect(await page('state=waiting&after=0')).to.deep.equal([[3, 4], null]);
    expect(await page('state=waiting&after=3')).to.deep.equal([[4], null]);
    expect(await page('state=canceled')).to.deep.equal([[], null]);
    expect(await page('state=skipped')).to.deep.equal([[], null]);
    expect((await allRows(id, 1, 'released')).map((r) => r.index)).to.deep.equal([0, 1, 2]);
  });

  it("ends a canceled batch's unreleased rows canceled, reason batch_canceled; its released rows keep their calls, canceled undialled", async () => {
    const id = await create({ defaults: { objective }, calls: numbers(6), maxConcurrency: 2 });
    await runner.tick();
    await rowsMatchingCounts(id);
    expect((await alice.api.post(`/v1/agent/batches/${id}/cancel`)).status).to.equal(200);
    const rows = await rowsMatchingCounts(id);
    expect(summary(rows)).to.deep.equal([
      [0, 'released', null, ['canceled']],
      [1, 'released', null, ['canceled']],
      [2, 'canceled', 'batch_canceled', []],
      [3, 'canceled', 'batch_canceled', []],
      [4, 'canceled', 'batch_canceled', []],
      [5, 'canceled', 'batch_canceled', []],
    ]);
    expect((await allRows(id, 2, 'canceled')).map((r) => [r.index, r.callId])).to.deep.equal([2, 3, 4, 5].map((i) => [i, null]));
    expect(await allRows(id, 100, 'waiting')).to.deep.equal([]);
    // Nothing more is ever released for them.
    srv.clock.advance(60_000);
    await runner.tick();
    await srv.engine.tick();
    expect(summary(await rowsMatchingCounts(id))).to.deep.equal(summary(rows));
  });

  it("lets a canceled batch's live calls finish on their rows, the counts following", async () => {
    const id = await create({ defaults: { objective }, calls: numbers(4), maxConcurrency: 2 });
    await runner.tick();
    await srv.engine.tick();
    expect((await alice.api.post(`/v1/agent/batches/${id}/cancel`)).status).to.equal(200);
    const live = await rowsMatchingCounts(id);
    expect(summary(live)).to.deep.equal([
      [0, 'released', null, ['dialing']],
      [1, 'released', null, ['dialing']],
      [2, 'canceled', 'batch_canceled', []],
      [3, 'canceled', 'batch_canceled', []],
    ]);
    for (const row of live.slice(0, 2)) await srv.drive(row.callId!);
    expect(summary(await rowsMatchingCounts(id)).map((r) => r[3])).to.deep.equal([['completed'], ['completed'], [], []]);
  });

  it("ends a stopped batch's unreleased rows skipped, reason condition_met", async () => {
    // Every callee says yes, so the first call to complete meets the condition.
    const real = new RuleBasedAnalyst();
    const yes: Analyst = { name: real.name, analyse: async (input) => ({ ...(await real.analyse(input)), extracted: { open_sunday: true } }) };
    await srv.close();
    await start({ analyst: yes });
    const fields = [{ name: 'open_sunday', type: 'boolean' }];
    const id = await create({ defaults: { objective, fields }, calls: numbers(4), maxConcurrency: 1, stopWhen: { field: 'open_sunday', equals: true, count: 1 } });
    await runUntil(id, 'stopped');
    const rows = await rowsMatchingCounts(id);
    expect(summary(rows)).to.deep.equal([
      [0, 'released', null, ['completed']],
      [1, 'skipped', 'condition_met', []],
      [2, 'skipped', 'condition_met', []],
      [3, 'skipped', 'condition_met', []],
    ]);
    expect((await alice.api.get(`/v1/agent/batches/${id}`)).body).to.deep.include({ status: 'stopped', stopReason: 'condition_met', matched: 1 });
    expect((await allRows(id, 2, 'skipped')).map((r) => r.index)).to.deep.equal([1, 2, 3]);
  });

  it("lists a redial on its row after the call it follows, and counts both, as the batch's counts do", async () => {
    const id = await create({ defaults: { objective }, calls: [{ to: '+14155550111', redial: { onNoAnswer: 1, afterMinutes: 5 } }, ...numbers(1)], maxConcurrency: 1 });
    await runUntil(id, 'completed');
    const rows = await rowsMatchingCounts(id);
    expect(summary(rows)).to.deep.equal([
      [0, 'released', null, ['no_answer', 'no_answer']],
      [1, 'released', null, ['completed']],
    ]);
    const [first, redial] = rows[0]!.calls;
    expect(rows[0]!.callId).to.equal(first!.id);
    expect((await alice.api.get(`/v1/agent/calls/${first!.id}`)).body).to.deep.include({ nextCallId: redial!.id });
    expect((await alice.api.get(`/v1/agent/batches/${id}`)).body.counts).to.deep.include({ no_answer: 2, completed: 1 });
  });

  it("is another key's 404 not_found, as a batch that does not exist is", async () => {
    const id = await create({ defaults: { objective }, calls: numbers(1) });
    const bob = await srv.tenant();
    for (const [tenant, batchId] of [
      [bob, id],
      [alice, '0199a3b0-5a1c-7d2e-9f00-1a2b3c4d5e6f'],
      [alice, 'not-a-batch'],
    ] as const) {
      const res = await tenant.api.get(`/v1/agent/batches/${batchId}/rows`);
      const get = await tenant.api.get(`/v1/agent/batches/${batchId}`);
      expect([res.status, res.body]).to.deep.equal([404, get.body]);
      expect(res.body.error).to.equal('not_found');
    }
  });

  for (const [query, token, message] of [
    ['limit=0', 'invalid_limit', 'limit must be an integer from 1 to 100.'],
    ['limit=101', 'invalid_limit', 'limit must be an integer from 1 to 100.'],
    ['limit=ten', 'invalid_limit', 'limit must be an integer from 1 to 100.'],
    ['limit=2&limit=3', 'invalid_limit', 'limit must be given once.'],
    ['after=-1', 'invalid_after', 'after must be an integer from 0 to 9999.'],
    ['after=10000', 'invalid_after', 'after must be an integer from 0 to 9999.'],
    ['after=1.5', 'invalid_after', 'after must be an integer from 0 to 9999.'],
    ['after=%2B14155552000', 'invalid_after', 'after must be an integer from 0 to 9999.'],
    ['after=1&after=2', 'invalid_after', 'after must be given once.'],
    ['after=%ff', 'invalid_after', 'after is not text: it holds an invalid percent-encoding, bytes that are not UTF-8, or U+0000.'],
    ['state=done', 'invalid_state', "listBatchRows' `state` is not `waiting`, `released`, `canceled` or `skipped`, is given twice, or is not text."],
    ['state=waiting&state=released', 'invalid_state', 'state must be given once.'],
  ] as const) {
    it(`refuses ${query} with 400 ${token}`, async () => {
      const id = await create({ defaults: { objective }, calls: numbers(1) });
      const res = await alice.api.get(`/v1/agent/batches/${id}/rows?${query}`);
      expect([res.status, res.body]).to.deep.equal([400, { error: token, message }]);
      expect(res.headers.get('ratelimit-limit')).to.equal('100');
    });
  }
});
