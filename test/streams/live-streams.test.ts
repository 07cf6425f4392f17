// The live streams (streamCall, streamEvents), end to end over HTTP: sandbox calls placed and driven by the engine
// on a clock the test moves, streamed by the SDK (and read raw where the wire itself is the point), on both stores.
// Each open stream reads the store every SVC_STREAM_POLL_MS (20 ms here); `until` waits on the real clock for
// what a stream has received.
import { expect } from 'chai';
import { SvcClient, type LiveEvent } from '../../sdk/src/index.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';
import { CALL_START, readCall, readKey, type StreamStore } from '../../server/src/streams/stream-reads.js';
import { until } from '../support/until.js';

const ANSWERED = '+14155550123';
const NO_ANSWER = '+14155550111';

/** The streams a test opened, stopped after it. */
const opened: { stop(): Promise<void> }[] = [];

/** Collects a stream's events as they come, until it ends or `stop` aborts it. */
function collect(open: (signal: AbortSignal) => AsyncGenerator<LiveEvent>) {
  const abort = new AbortController();
  const got: LiveEvent[] = [];
  let ended = false;
  let failed: unknown = null;
  const done = (async () => {
    try {
      for await (const e of open(abort.signal)) got.push(e);
      ended = true;
    } catch (err) {
      if (!abort.signal.aborted) failed = err;
    }
  })();
  const stream = {
    got,
    get ended() {
      return ended;
    },
    get failed() {
      return failed;
    },
    done,
    stop: async () => {
      abort.abort();
      await done;
    },
  };
  opened.push(stream);
  return stream;
}

const summary = (events: LiveEvent[]) => events.map((e) => (e.event === 'status' ? e.data.status : `turn ${e.data.index}`));

forEachStore('live streams', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  let sdk: SvcClient;

  beforeEach(async () => {
    srv = await startEngineServer(kind, { SVC_STREAM_POLL_MS: '20' });
    alice = await srv.tenant({ rateLimit: 100 });
    sdk = new SvcClient({ apiKey: alice.key, baseUrl: srv.baseUrl });
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((x) => x.stop()));
    await srv.close();
  });

  const place = async (to: string) => {
    const res = await alice.api.post('/v1/agent/calls', { body: { to, objective: 'Ask whether the shop is open on Sunday.' } });
    expect(res.status).to.equal(202);
    return res.body.callId as string;
  };
  /** Ticks the engine (moving the clock to when the call is next due) until the call has `status`. */
  /** The store as a read sees it when `between` commits something just after the read's first statement returns. */
  const afterFirstStatement = (between: () => Promise<unknown>): StreamStore => {
    let done = false;
    const { store } = srv.deps;
    return {
      db: store.db,
      read: async <Row>(sql: string, params: readonly unknown[]) => {
        const rows = await store.read<Row>(sql, params);
        if (!done) {
          done = true;
          await between();
        }
        return rows;
      },
    };
  };
  const stepUntil = async (id: string, status: string) => {
    for (let i = 0; i < 50; i++) {
      const r = await srv.row(id);
      if (r.status === status) return r;
      if (r.next_run_at !== null && r.next_run_at > srv.clock.now()) srv.clock.ms = r.next_run_at;
      await srv.engine.tick();
    }
    throw new Error(`call ${id} never reached ${status}`);
  };

  it('streams a sandbox call from placement to its end: each status, each turn only once heard, the terminal status last, then ends', async () => {
    const id = await place(ANSWERED);
    const s = collect((signal) => sdk.streamCall(id, { signal }));
    await until('queued', () => s.got.length === 1);
    expect(s.got[0]).to.deep.include({ event: 'status', id: '1.0' });
    expect(s.got[0].data).to.deep.equal({
      id: `${id}:status:queued`,
      callId: id,
      batchId: null,
      status: 'queued',
      timestamp: new Date((await srv.row(id)).created_at).toISOString(),
      durationSec: null,
      error: null,
    });

    await stepUntil(id, 'in_progress');
    await until('in_progress', () => s.got.length === 3);
    expect(summary(s.got)).to.deep.equal(['queued', 'dialing', 'in_progress']);
    const turns = await srv.deps.store.db.selectFrom('call_turns').selectAll().where('call_id', '=', id).orderBy('seq').execute();
    expect(turns.length).to.be.above(2);
    // Nothing of the conversation is sent before it is heard.
    await new Promise((r) => setTimeout(r, 100));
    expect(s.got).to.have.length(3);
    srv.clock.ms = Number(turns[0].heard_at);
    await until('the first turn', () => s.got.length === 4);
    await new Promise((r) => setTimeout(r, 100));
    expect(summary(s.got)).to.deep.equal(['queued', 'dialing', 'in_progress', 'turn 0']);
    expect(s.got[3]).to.deep.include({ event: 'turn', id: '3.1' });
    expect(s.got[3].data).to.deep.equal({
      id: `${id}:turn:0`,
      callId: id,
      batchId: null,
      index: 0,
      speaker: turns[0].speaker,
      text: turns[0].text,
      startSec: Number(turns[0].start_ms) / 1000,
      endSec: Number(turns[0].end_ms) / 1000,
      timestamp: new Date(Number(turns[0].heard_at)).toISOString(),
    });

    await srv.drive(id, 50);
    await s.done;
    expect(s.failed).to.equal(null);
    expect(s.ended).to.equal(true);
    const record = (await alice.api.get(`/v1/agent/calls/${id}`)).body;
    expect(record.status).to.equal('completed');
    // The turns streamed are the record's, in order, then the terminal status with the record's figures.
    const streamedTurns = s.got.filter((e) => e.event === 'turn').map((e) => e.data as any);
    expect(streamedTurns.map((t) => ({ speaker: t.speaker, text: t.text, startSec: t.startSec, endSec: t.endSec }))).to.deep.equal(record.turns);
    const last = s.got.at(-1)!;
    expect(last.event).to.equal('status');
    expect(last.data).to.include({ status: 'completed', durationSec: record.durationSec, error: null, timestamp: record.endedAt });
    expect(summary(s.got)).to.deep.equal(['queued', 'dialing', 'in_progress', ...record.turns.map((_: unknown, i: number) => `turn ${i}`), 'completed']);
  });

  it('resumes after a disconnect from Last-Event-ID with nothing lost and nothing twice, and replays an ended call whole', async () => {
    const id = await place(ANSWERED);
    const first = collect((signal) => sdk.streamCall(id, { signal }));
    await stepUntil(id, 'in_progress');
    srv.clock.ms = Number((await srv.deps.store.db.selectFrom('call_turns').select('heard_at').where('call_id', '=', id).where('seq', '=', 1).executeTakeFirstOrThrow()).heard_at);
    await until('two turns', () => first.got.length === 5);
    await first.stop();
    const cut = first.got.at(-1)!;
    expect(cut.id).to.equal('3.2');

    await srv.drive(id, 50);
    const resumed = collect((signal) => sdk.streamCall(id, { signal, lastEventId: cut.id }));
    await resumed.done;
    expect(resumed.ended).to.equal(true);
    const whole = collect((signal) => sdk.streamCall(id, { signal }));
    await whole.done;
    expect(whole.ended).to.equal(true);
    expect([...first.got, ...resumed.got]).to.deep.equal(whole.got);
    expect(resumed.got[0].data.id).to.equal(`${id}:turn:2`);
  });

  it('streams a call canceled mid-conversation: the turns said, the one cut short as the record keeps it, none after; then completed', async () => {
    const id = await place(ANSWERED);
    const s = collect((signal) => sdk.streamCall(id, { signal }));
    await stepUntil(id, 'in_progress');
    const planned = await srv.deps.store.db.selectFrom('call_turns').selectAll().where('call_id', '=', id).orderBy('seq').execute();
    expect(planned.length).to.be.above(3);
    // Halfway through the third turn.
    srv.clock.ms = Math.round((Number(planned[1].heard_at) + Number(planned[2].heard_at)) / 2);
    await until('two turns', () => s.got.length === 5);
    expect((await alice.api.post(`/v1/agent/calls/${id}/cancel`)).status).to.equal(202);
    await srv.drive(id, 50);
    await s.done;
    expect(s.ended).to.equal(true);
    const record = (await alice.api.get(`/v1/agent/calls/${id}`)).body;
    expect(record.status).to.equal('completed');
    expect(record.turns).to.have.length(3);
    expect(record.turns[2].endSec).to.be.below(Number(planned[2].end_ms) / 1000);
    const turns = s.got.filter((e) => e.event === 'turn').map((e) => e.data as any);
    expect(turns.map((t) => ({ speaker: t.speaker, text: t.text, startSec: t.startSec, endSec: t.endSec }))).to.deep.equal(record.turns);
    expect(summary(s.got)).to.deep.equal(['queued', 'dialing', 'in_progress', 'turn 0', 'turn 1', 'turn 2', 'completed']);
    // The rows left are the record's: a later read (a resumed or replayed stream) shows the same.
    const replay = collect((signal) => sdk.streamCall(id, { signal }));
    await replay.done;
    expect(replay.got).to.deep.equal(s.got);
  });

  it("shows a call that ends between the stream's reads with its ending's fields, for one call and for the key", async () => {
    /** The store, as a read sees it when the call's end commits just after its first statement returns. */
    const endingBetween = (id: string) => afterFirstStatement(() => srv.drive(id, 50));
    const idOf = (item: { data: unknown }) => (item.data as { id: string }).id;
    // Reads as of a time after the end, so that nothing they read waits to be heard.
    const later = () => srv.clock.now() + 86_400_000;

    const id = await place(ANSWERED);
    await stepUntil(id, 'in_progress');
    const during = await readCall(endingBetween(id), alice.keyId, id, CALL_START, later());
    const record = (await alice.api.get(`/v1/agent/calls/${id}`)).body;
    expect(record.status).to.equal('completed');
    const after = await readCall(srv.deps.store, alice.keyId, id, CALL_START, later());
    // Every item the read during the end sent is the one a read after it sends, the ending's fields included.
    const sentAfter = new Map(after!.items.map(({ item }) => [idOf(item), item]));
    for (const { item } of during!.items) expect(item, idOf(item)).to.deep.equal(sentAfter.get(idOf(item)));
    expect(sentAfter.get(`${id}:status:completed`)!.data).to.include({ durationSec: record.durationSec });

    const other = await place(ANSWERED);
    await stepUntil(other, 'in_progress');
    const keyDuring = await readKey(endingBetween(other), alice.keyId, 0, later(), new Set());
    const keyAfter = new Map((await readKey(srv.deps.store, alice.keyId, 0, later(), new Set())).map((item) => [idOf(item), item]));
    expect(keyAfter.has(`${other}:status:completed`)).to.equal(true);
    for (const item of keyDuring) expect(item, idOf(item)).to.deep.equal(keyAfter.get(idOf(item)));
  });

  it("sends a call answered between the stream's reads in the order a resumed read sends it: the answer before its turns", async () => {
    /** The store, as a read sees it when the answer (its status and the scripted turns, in one commit) lands just after its first statement returns. */
    const answeredBetween = (id: string) => afterFirstStatement(() => stepUntil(id, 'in_progress'));
    const idOf = (item: { data: unknown }) => (item.data as { id: string }).id;
    const id = await place(ANSWERED);
    await stepUntil(id, 'dialing');
    const later = () => srv.clock.now() + 86_400_000;
    const during = (await readCall(answeredBetween(id), alice.keyId, id, CALL_START, later()))!.items.map(({ item }) => idOf(item));
    const after = (await readCall(srv.deps.store, alice.keyId, id, CALL_START, later()))!.items.map(({ item }) => idOf(item));
    expect(during.slice(0, 4)).to.deep.equal([`${id}:status:queued`, `${id}:status:dialing`, `${id}:status:in_progress`, `${id}:turn:0`]);
    expect(after.slice(0, during.length)).to.deep.equal(during);
  });

  it('sends a canceled call’s statuses and ends; the wire is text/event-stream with the rate-limit headers, and another key’s call is a JSON 404', async () => {
    const id = await place(NO_ANSWER);
    expect((await alice.api.post(`/v1/agent/calls/${id}/cancel`)).status).to.equal(200);
    const res = await fetch(`${srv.baseUrl}/v1/agent/calls/${id}/stream`, { headers: { authorization: `Bearer ${alice.key}` } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).to.equal('no-cache, no-transform');
    for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy']) expect(res.headers.get(h), h).to.be.a('string');
    const row = await srv.row(id);
    const ts = new Date(row.created_at).toISOString();
    const end = new Date(Number(row.ended_at)).toISOString();
    expect(await res.text()).to.equal(
      'retry: 1000\n\n' +
        `id: 1.0\nevent: status\ndata: ${JSON.stringify({ id: `${id}:status:queued`, callId: id, batchId: null, status: 'queued', timestamp: ts, durationSec: null, error: null })}\n\n` +
        `id: 2.0\nevent: status\ndata: ${JSON.stringify({ id: `${id}:status:canceled`, callId: id, batchId: null, status: 'canceled', timestamp: end, durationSec: 0, error: null })}\n\n`,
    );

    const bob = await srv.tenant();
    const other = await bob.api.get(`/v1/agent/calls/${id}/stream`);
    expect(other.status).to.equal(404);
    expect(other.body.error).to.equal('not_found');
    const anon = await fetch(`${srv.baseUrl}/v1/agent/calls/${id}/stream`);
    expect(anon.status).to.equal(401);
    let thrown: any = null;
    try {
      for await (const e of new SvcClient({ apiKey: bob.key, baseUrl: srv.baseUrl }).streamCall(id)) void e;
    } catch (err) {
      thrown = err;
    }
    expect(thrown?.status).to.equal(404);
    expect(thrown?.token).to.equal('not_found');
  });

  it('streams every call of the key, not another key’s; resumed from Last-Event-ID it loses nothing, and repeats only ids to deduplicate', async () => {
    const bob = await srv.tenant();
    const s = collect((signal) => sdk.streamEvents({ signal }));
    const a = await place(ANSWERED);
    srv.clock.advance(1);
    const b = await place(NO_ANSWER);
    await bob.api.post('/v1/agent/calls', { body: { to: ANSWERED, objective: 'Not alice’s.' } });
    await until('both queued', () => s.got.filter((e) => e.event === 'status' && e.data.status === 'queued').length === 2);
    await s.stop();
    const cut = s.got.at(-1)!;
    expect(cut.id).to.match(/^\d+$/);

    await srv.drive(a, 50);
    await srv.drive(b, 50);
    const resumed = collect((signal) => sdk.streamEvents({ signal, lastEventId: cut.id }));
    const record = (await alice.api.get(`/v1/agent/calls/${a}`)).body;
    const expected = [`${a}:status:queued`, `${a}:status:dialing`, `${a}:status:in_progress`, ...record.turns.map((_: unknown, i: number) => `${a}:turn:${i}`), `${a}:status:completed`];
    const expectedB = [`${b}:status:queued`, `${b}:status:dialing`, `${b}:status:no_answer`];
    await until('the rest', () => new Set([...s.got, ...resumed.got].map((e) => e.data.id)).size === expected.length + expectedB.length);
    await new Promise((r) => setTimeout(r, 100));
    await resumed.stop();
    const seen = [...s.got, ...resumed.got].map((e) => e.data.id);
    expect([...new Set(seen)].filter((x) => x.startsWith(a))).to.deep.equal(expected);
    expect([...new Set(seen)].filter((x) => x.startsWith(b))).to.deep.equal(expectedB);
    expect(seen.every((x) => x.startsWith(a) || x.startsWith(b))).to.equal(true);
    // Within one connection nothing comes twice.
    expect(new Set(resumed.got.map((e) => e.data.id)).size).to.equal(resumed.got.length);
  });
});
