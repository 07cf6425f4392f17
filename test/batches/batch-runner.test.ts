// The batch runner on both stores, driven by the clock: a batch's calls are released in order as its calls end,
// never more than max_concurrency live at once (sampled after every step of the runner and of the engine), each a
// call of the batch that completes; the batch completes with its last call. At the minute cap the batch pauses
// (over_minute_cap) instead of failing calls, and resumes when minutes are available. A redial of a batch's call
// belongs to the batch, holds a slot, and the batch ends only after it. A call of the batch that ends makes the
// batch due at once.
import { expect } from 'chai';
import { pino } from 'pino';
import type { ApiKeyRow } from '../../server/src/accounts/accounts-repo.js';
import { setPlanMinutes } from '../../server/src/accounts/developer-settings.js';
import { insertBatch } from '../../server/src/batches/batch-repo.js';
import { BATCH_PAUSE_RETRY_MS, BATCH_POLL_MS, BatchRunner, liveCalls, type BatchRow } from '../../server/src/batches/batch-runner.js';
import { checkBatch } from '../../server/src/batches/check-batch.js';
import { DEFAULT_AGENT_CATALOGUE } from '../../server/src/placement/agent-catalogue.js';
import { loadDocument } from '../../server/src/contract/openapi-document.js';
import { compileBodyCheck } from '../../server/src/contract/request-validator.js';
import { ajvFor, formatReasons } from '../../server/src/contract/schema-ajv.js';
import { executorFor } from '../../server/src/store/prepared-query.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';

const doc = loadDocument();
const options = { allowPrivateWebhooks: false };
const checkCall = compileBodyCheck(doc, ajvFor(doc, options), ['components', 'schemas', 'PlaceCallRequest'], formatReasons(options));
const numbers = (n: number, from = 2000) => Array.from({ length: n }, (_, i) => ({ to: `+1415555${String(from + i).padStart(4, '0')}` }));

forEachStore('the batch runner', (kind) => {
  let srv: EngineServer;
  let runner: BatchRunner;
  let alice: TestTenant;
  let key: ApiKeyRow;
  beforeEach(async () => {
    srv = await startEngineServer(kind);
    runner = new BatchRunner({ store: srv.deps.store, clock: srv.clock, logger: pino({ level: 'silent' }), leaseMs: 30_000, concurrency: 4, idlePollMs: 1000 });
    alice = await srv.tenant({ rateLimit: 100 });
    key = await srv.deps.store.db.selectFrom('api_keys').selectAll().where('id', '=', alice.keyId).executeTakeFirstOrThrow();
  });
  afterEach(() => srv.close());

  async function create(calls: unknown[], maxConcurrency: number, stopWhen: object | null = null, fields?: object[]): Promise<string> {
    const defaults = { objective: 'Ask whether the shop is open on Sunday.', language: 'en-US', ...(fields ? { fields } : {}) };
    const checked = await checkBatch({ catalogue: DEFAULT_AGENT_CATALOGUE, irsf: srv.deps.irsf, checkCall }, srv.deps.store.db, key, calls, defaults, srv.clock.now());
    if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
    const id = crypto.randomUUID();
    await srv.deps.store.db.transaction().execute((trx) =>
      insertBatch(
        executorFor(trx),
        {
          id,
          accountId: key.account_id,
          apiKeyId: key.id,
          maxConcurrency,
          webhookUrl: null,
          metadataJson: null,
          scheduledAt: null,
          stopWhenJson: stopWhen && JSON.stringify(stopWhen),
          calls: checked.calls,
        },
        srv.clock.now(),
      ),
    );
    return id;
  }
  const batch = (id: string): Promise<BatchRow> => srv.deps.store.db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const calls = (id: string) => srv.deps.store.db.selectFrom('calls').selectAll().where('batch_id', '=', id).orderBy('created_at').orderBy('id').execute();

  /** Steps the runner and the engine, moving the clock to what is next due, until `done`; the live count after each step. */
  async function drive(id: string, done: (b: BatchRow) => boolean, limit = 2000): Promise<number[]> {
    const samples: number[] = [];
    for (let i = 0; i < limit; i++) {
      if (done(await batch(id))) return samples;
      const ran = await runner.tick();
      samples.push(await liveCalls(srv.deps.store, id));
      const stepped = await srv.engine.tick();
      samples.push(await liveCalls(srv.deps.store, id));
      if (ran + stepped === 0) {
        const next = await nextDue();
        if (next === null) throw new Error('nothing is due and the batch is not done');
        srv.clock.ms = Math.max(srv.clock.ms + 1, next);
      }
    }
    throw new Error('the batch did not get there');
  }
  async function nextDue(): Promise<number | null> {
    const due = async (table: 'calls' | 'batches') =>
      (
        await srv.deps.store.db
          .selectFrom(table)
          .select((eb) => eb.fn.min<number>('next_run_at').as('at'))
          .where('next_run_at', 'is not', null)
          .executeTakeFirst()
      )?.at;
    const times = [await due('calls'), await due('batches')].filter((t) => t !== null && t !== undefined).map(Number);
    return times.length ? Math.min(...times) : null;
  }

  it('releases the calls in order, never more than maxConcurrency live, and completes with the last', async () => {
    const id = await create(numbers(12), 3);
    const samples = await drive(id, (b) => b.status === 'completed');
    expect(Math.max(...samples)).to.equal(3);
    const rows = await calls(id);
    expect(rows.map((r) => r.status)).to.deep.equal(Array(12).fill('completed'));
    expect(rows.map((r) => r.to_number)).to.deep.equal(numbers(12).map((c) => c.to));
    const b = await batch(id);
    expect([b.status, b.released, b.stop_reason, b.next_run_at]).to.deep.equal(['completed', 12, null, null]);
    expect(b.ended_at).to.equal(Math.max(...rows.map((r) => r.ended_at!)));
  });

  it('pauses at the minute cap instead of failing calls, and resumes when minutes are available', async () => {
    await setPlanMinutes(srv.deps.store.db, key.account_id, 5);
    const id = await create(numbers(8), 3);
    await drive(id, (b) => b.status === 'paused');
    const paused = await batch(id);
    expect([paused.status, paused.stop_reason, paused.released]).to.deep.equal(['paused', 'over_minute_cap', 5]);
    // Nothing more is released while the plan is used up.
    srv.clock.advance(BATCH_PAUSE_RETRY_MS);
    await runner.tick();
    expect([(await batch(id)).status, (await batch(id)).released]).to.deep.equal(['paused', 5]);
    await setPlanMinutes(srv.deps.store.db, key.account_id, 100);
    await drive(id, (b) => b.status === 'completed');
    const rows = await calls(id);
    expect(rows.map((r) => r.status)).to.deep.equal(Array(8).fill('completed'));
    expect((await batch(id)).stop_reason).to.equal(null);
  });

  it("counts a redial of a batch's call as the batch's: it holds a slot, and the batch ends after it", async () => {
    const id = await create([{ to: '+14155550111', redial: { onNoAnswer: 1, afterMinutes: 5 } }, ...numbers(2)], 1);
    const samples = await drive(id, (b) => b.status === 'completed');
    expect(Math.max(...samples)).to.equal(1);
    const rows = await calls(id);
    expect(rows.map((r) => [r.to_number, r.status])).to.deep.equal([['+14155550111', 'no_answer'], ['+14155550111', 'no_answer'], ...numbers(2).map((c) => [c.to, 'completed'])]);
    expect(rows[1].previous_call_id).to.equal(rows[0].id);
  });

  it('is made due by the end of one of its calls: the next is released then, not at its poll', async () => {
    // The first call fails a second after its dial, well before the batch's next poll.
    const id = await create([{ to: '+14155550114' }, ...numbers(1)], 1);
    await runner.tick();
    const [first] = await calls(id);
    const poll = srv.clock.now() + BATCH_POLL_MS;
    expect([(await batch(id)).next_run_at, (await calls(id)).length]).to.deep.equal([poll, 1]);
    const ended = await srv.drive(first!.id);
    expect([ended.status, ended.ended_at]).to.deep.equal(['failed', srv.clock.now()]);
    expect(srv.clock.now()).to.be.below(poll);
    expect((await batch(id)).next_run_at).to.equal(srv.clock.now());
    expect(await runner.tick()).to.equal(1);
    expect((await calls(id)).map((r) => r.status)).to.deep.equal(['failed', 'queued']);
  });

  it('stops exactly when stopWhen is met: the count at the stop is exact, live calls finish, none is dialled after', async () => {
    const id = await create(numbers(40), 4, { field: 'open_sunday', equals: true, count: 2 }, [{ name: 'open_sunday', type: 'boolean' }]);
    const samples = await drive(id, (b) => b.status === 'stopped');
    expect(Math.max(...samples)).to.be.at.most(4);
    const stopped = await batch(id);
    expect([stopped.status, stopped.stop_reason, stopped.next_run_at]).to.deep.equal(['stopped', 'condition_met', null]);
    const at = stopped.ended_at!;
    // Let what was live finish, and give the runner every chance to release more.
    await drive(id, () => false, 200).catch(() => {});
    const rows = await calls(id);
    const yes = (r: (typeof rows)[number]) => r.status === 'completed' && JSON.parse(r.extracted_json!).open_sunday === true;
    // The count was reached at the stop: fewer than `count` yeses had completed before it, and `count` (with any
    // that completed in the same instant, live then) by it.
    expect(rows.filter((r) => yes(r) && r.ended_at! < at).length).to.be.below(2);
    expect(rows.filter((r) => yes(r) && r.ended_at! <= at).length).to.be.at.least(2);
    // Nothing dialled after the stop; what was queued then ended canceled, undialled; what was live finished.
    expect(rows.filter((r) => r.dial_attempted_at !== null && r.dial_attempted_at > at)).to.deep.equal([]);
    for (const r of rows.filter((r) => r.dial_attempted_at === null)) expect([r.status, r.ended_at]).to.deep.equal(['canceled', at]);
    expect(rows.filter((r) => !['completed', 'canceled'].includes(r.status))).to.deep.equal([]);
    expect((await batch(id)).released).to.equal(rows.length);
    expect(rows.length).to.be.below(40);
    expect((await batch(id)).matched).to.equal(rows.filter(yes).length);
  });

  it("never starves another key's placement: one made while a batch runs is dialled before any batch call released after it", async () => {
    const id = await create(numbers(30, 4000), 10);
    await runner.tick();
    await srv.engine.tick();
    const bob = await srv.tenant({ rateLimit: 100 });
    srv.clock.advance(1000);
    const placed = await bob.api.post('/v1/agent/calls', { body: { to: '+14155559999', objective: 'Ask whether the shop is open on Sunday.' } });
    expect(placed.status).to.equal(202);
    const placedAt = srv.clock.now();
    await drive(id, (b) => b.status === 'completed');
    const single = await srv.row(placed.body.callId);
    expect(single.status).to.equal('completed');
    const later = (await calls(id)).filter((r) => r.created_at > placedAt);
    expect(later.length).to.be.above(0);
    expect(single.dial_attempted_at!).to.be.at.most(Math.min(...later.map((r) => r.dial_attempted_at!)));
  });
});
