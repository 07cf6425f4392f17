// The live streams under abuse, on both stores: a client that reads nothing costs a socket's buffer and is cut
// after the stall limit; replay is paged and goes back 24 hours at most; one read of the store serves every open
// stream; a key holds a capped number of streams across processes, and opening one counts against its request
// window; a revoked key's (or a removed account's) streams end within seconds.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { pino } from 'pino';
import { createApp } from '../../server/src/compose.js';
import { createHttpServer } from '../../server/src/http/http-server.js';
import { revokeKey } from '../../server/src/accounts/developer-settings.js';
import { openStore } from '../../server/src/store/open-store.js';
import type { Store } from '../../server/src/store/store.js';
import { StreamHub } from '../../server/src/streams/stream-hub.js';
import { SvcClient, type LiveEvent } from '../../sdk/src/index.js';
import { insertTestCall } from '../support/calls.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';
import { until } from '../support/until.js';
import type { AddressInfo } from 'node:net';

const HOUR = 3600_000;

/** Calls of the tenant created at `at` (+ i ms), each with `turns` turns of `textBytes` characters heard after it. */
async function history(store: Store, t: TestTenant, n: number, at: number, turns = 0, textBytes = 40): Promise<string[]> {
  const ids: string[] = [];
  const calls = [];
  const rows = [];
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    ids.push(id);
    calls.push({ id, at: at + i });
    for (let k = 0; k < turns; k++) {
      rows.push({ call_id: id, seq: k, speaker: k % 2 ? 'callee' : 'agent', text: `${k}`.padEnd(textBytes, 'x'), start_ms: k * 1000, end_ms: k * 1000 + 900, heard_at: at + i + 1 + k });
    }
  }
  for (const c of calls) await insertTestCall(store, t, { id: c.id, created_at: c.at, status: 'queued', started_at: null, ended_at: null, duration_sec: null });
  for (let i = 0; i < rows.length; i += 200)
    await store.db
      .insertInto('call_turns')
      .values(rows.slice(i, i + 200))
      .execute();
  return ids;
}

/** A client that sends the request and then reads nothing (its socket paused from the start). */
function silentClient(baseUrl: string, path: string, key: string, lastEventId?: string): { socket: Socket } {
  const { port } = new URL(baseUrl);
  const socket = connect(Number(port), '127.0.0.1');
  socket.pause();
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n${lastEventId ? `Last-Event-ID: ${lastEventId}\r\n` : ''}\r\n`);
  socket.on('error', () => {});
  return { socket };
}

/** Reads a stream's raw text as it comes until `enough` holds, then aborts it. */
async function readUntil(res: Response, enough: (text: string) => boolean, abort: AbortController): Promise<string> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!enough(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  abort.abort();
  return text;
}

/** Resolves with `p`, or fails when it has not settled within `ms`. */
async function within<T>(ms: number, p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`waited ${ms} ms for ${what}`)), ms)));
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

const dataIds = (text: string) => [...text.matchAll(/^data: (.*)\n\n/gm)].map((m) => JSON.parse(m[1]).id as string);

forEachStore('live streams under abuse', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  const closers: (() => Promise<unknown> | void)[] = [];

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await srv.close();
  });

  const start = async (env: Record<string, string> = {}) => {
    srv = await startServer(kind, { SVC_STREAM_POLL_MS: '20', ...env });
    alice = await srv.tenant({ rateLimit: 100 });
  };
  const hub = () => srv.deps.streams!;
  const leases = async () =>
    Number(
      (
        await srv.deps.store.db
          .selectFrom('stream_leases')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('holds no more than a socket’s buffer for clients that read nothing, stops reading the store for them, and cuts them after the stall limit', async function () {
    this.timeout(120_000);
    await start({ SVC_STREAM_STALL_MS: '4000' });
    // About 16 MB of turns in the 1,000 a replay sends: several times what a socket's buffers take.
    await history(srv.deps.store, alice, 100, srv.clock.now() - HOUR, 10, 16_000);
    const clients = Array.from({ length: 8 }, () => silentClient(srv.baseUrl, '/v1/agent/stream', alice.key, '0'));
    let most = 0;
    await until('every stream opened', () => hub().open === 8, 20_000);
    await until(
      'every silent stream cut',
      () => {
        most = Math.max(most, hub().buffered);
        return hub().open === 0;
      },
      30_000,
      5,
    );
    // The server let go of their connections (a paused client never reads the reset, so its own side stays).
    const connections = () => new Promise<number>((resolve) => srv.httpServer.getConnections((_, n) => resolve(n)));
    await until('the silent connections closed by the server', async () => (await connections()) === 0, 10_000);
    for (const c of clients) c.socket.destroy();
    // Each stream held at most about two stream buffers and the event in hand, never its replay.
    expect(most).to.be.below(8 * 128 * 1024);
    // A whole replay is 10 pages of turns, read once however many streams replay them; a stream whose client
    // stopped reading stopped reading the store.
    expect(hub().stats.catchUpReads).to.be.below(10);
    await until('every lease given back', async () => (await leases()) === 0);
  });

  it('replays at most 24 hours back and says where it starts', async function () {
    this.timeout(60_000);
    await start();
    const now = srv.clock.now();
    const [tooOld] = await history(srv.deps.store, alice, 1, now - 25 * HOUR);
    const [old] = await history(srv.deps.store, alice, 1, now - 23 * HOUR);
    const recent = await history(srv.deps.store, alice, 10, now - HOUR);
    const expected = [old, ...recent].map((id) => `${id}:status:queued`);
    const abort = new AbortController();
    const res = await fetch(`${srv.baseUrl}/v1/agent/stream`, { headers: { authorization: `Bearer ${alice.key}`, 'last-event-id': '0' }, signal: abort.signal });
    expect(res.status).to.equal(200);
    const text = await readUntil(res, (t) => dataIds(t).length >= expected.length, abort);
    expect(text.startsWith(`retry: 1000\n\n: replay starts at ${new Date(now - 24 * HOUR).toISOString()}: at most 24 hours and the last 1000 calls, statuses, turns and uses of tools back;`)).to.equal(
      true,
    );
    expect(dataIds(text)).to.deep.equal(expected);
    expect(text).to.not.include(tooOld);
  });

  it('replays at most the last 1,000 of each kind, a page at a time, each event once and in the order it happened', async function () {
    this.timeout(60_000);
    await start();
    const now = srv.clock.now();
    const recent = await history(srv.deps.store, alice, 700, now - HOUR, 2);
    // The turns are what the cap cuts: 1,400 of them, heard after the 700 calls were placed.
    const turns = await srv.deps.store.db.selectFrom('call_turns').select(['call_id', 'seq', 'heard_at']).orderBy('heard_at', 'desc').execute();
    const cut = Number(turns[1000].heard_at);
    const created = recent.map((id, i) => ({ id: `${id}:status:queued`, at: now - HOUR + i }));
    const expected = new Set([...created, ...turns.map((t) => ({ id: `${t.call_id}:turn:${t.seq}`, at: Number(t.heard_at) }))].filter((x) => x.at > cut).map((x) => x.id));
    expect(expected.size).to.be.above(1000);
    const abort = new AbortController();
    const res = await fetch(`${srv.baseUrl}/v1/agent/stream`, { headers: { authorization: `Bearer ${alice.key}`, 'last-event-id': '0' }, signal: abort.signal });
    const text = await readUntil(res, (t) => dataIds(t).length >= expected.size, abort);
    expect(text.startsWith(`retry: 1000\n\n: replay starts at ${new Date(cut).toISOString()}: at most 24 hours and the last 1000 calls`)).to.equal(true);
    const ids = dataIds(text);
    expect(ids).to.have.length(expected.size);
    expect(new Set(ids)).to.deep.equal(expected);
    // In the order things happened: each event's id (the time to resume after) never goes back.
    const eventIds = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(eventIds).to.deep.equal([...eventIds].sort((a, b) => a - b));
    // More than one page was read.
    expect(hub().stats.catchUpReads).to.be.above(3);
  });

  it('serves every open stream with one read of the store per poll, and a call’s streams with one read per change', async function () {
    this.timeout(60_000);
    await start();
    const sdk = new SvcClient({ apiKey: alice.key, baseUrl: srv.baseUrl });
    const call = await insertTestCall(srv.deps.store, alice, { status: 'in_progress', ended_at: null, duration_sec: null, summary: null });
    const abort = new AbortController();
    const got = new Map<number, LiveEvent[]>();
    const follow = (i: number, events: AsyncGenerator<LiveEvent>) => {
      got.set(i, []);
      void (async () => {
        try {
          for await (const e of events) got.get(i)!.push(e);
        } catch {
          // aborted
        }
      })();
    };
    for (let i = 0; i < 30; i++) follow(i, sdk.streamEvents({ signal: abort.signal }));
    for (let i = 30; i < 35; i++) follow(i, sdk.streamCall(call.id, { signal: abort.signal }));
    closers.push(() => abort.abort());
    await until('every stream open', () => hub().open === 35, 10_000);
    await until('the call’s streams have its first status', () => [...got.entries()].filter(([i, e]) => i >= 30 && e.length === 1).length === 5, 10_000);
    const settled = hub().stats.polls;
    await until('the streams settled', () => hub().stats.polls >= settled + 5, 10_000);
    // Thirty new streams starting from the same moment share their first page's read.
    expect(hub().stats.catchUpReads).to.be.within(1, 30);
    const before = { ...hub().stats };
    await until('ten polls', () => hub().stats.polls >= before.polls + 10, 10_000);
    const quiet = { ...hub().stats };
    // Nothing changed: one read a poll, for all 35 streams, and no stream read on its own.
    expect(quiet.reads - before.reads).to.equal(quiet.polls - before.polls);
    expect(quiet.catchUpReads).to.equal(before.catchUpReads);

    await srv.deps.store.db.insertInto('call_status_changes').values({ call_id: call.id, api_key_id: alice.keyId, status: 'in_progress', at: srv.clock.now() }).execute();
    await until('every stream has the change', () => [...got.values()].every((e) => e.some((x) => x.data.id === `${call.id}:status:in_progress`)), 10_000);
    const after = { ...hub().stats };
    // One change: the poll that found it, and one read of the call for its five streams.
    expect(after.reads - quiet.reads).to.equal(after.polls - quiet.polls + 1);
    expect(after.catchUpReads).to.equal(before.catchUpReads);
  });

  it('caps a key’s open streams across processes with 429 too_many_streams, counts each opening against the request window, and frees a closed stream’s place', async function () {
    this.timeout(60_000);
    await start({ SVC_STREAMS_PER_KEY: '2' });
    // A second process on the same store.
    const store2 = kind === 'postgres' ? openStore({ postgresUrl: srv.testStore.url, poolSize: 2 }) : srv.deps.store;
    const logger = pino({ level: 'silent' });
    const hub2 = new StreamHub({ store: store2, clock: srv.clock, logger, pollMs: 20 });
    const http2 = createHttpServer(srv.deps.config.httpTimeouts, logger, { handler: createApp({ ...srv.deps, store: store2, streams: hub2 }).callback() });
    await new Promise<void>((resolve) => http2.listen(0, '127.0.0.1', () => resolve()));
    const base2 = `http://127.0.0.1:${(http2.address() as AddressInfo).port}`;
    closers.push(async () => {
      hub2.endAll();
      http2.closeAllConnections();
      await new Promise((r) => http2.close(r));
      if (store2 !== srv.deps.store) await store2.close();
    });

    const aborts: AbortController[] = [];
    const open = async (base: string, key = alice.key) => {
      const abort = new AbortController();
      aborts.push(abort);
      closers.push(() => abort.abort());
      return { res: await fetch(`${base}/v1/agent/stream`, { headers: { authorization: `Bearer ${key}` }, signal: abort.signal }), abort };
    };
    const first = await open(srv.baseUrl);
    expect(first.res.status).to.equal(200);
    expect(first.res.headers.get('ratelimit-policy')).to.equal('600;w=60');
    expect(first.res.headers.get('ratelimit-remaining')).to.equal('599');
    const second = await open(base2);
    expect(second.res.status).to.equal(200);
    expect(second.res.headers.get('ratelimit-remaining')).to.equal('598');

    const refused = await alice.api.get('/v1/agent/stream');
    expect(refused.status).to.equal(429);
    expect(refused.body.error).to.equal('too_many_streams');
    expect(refused.body.message).to.equal('This API key already has 2 live streams open (the most it may hold at once); close one, or retry after 10 seconds.');
    expect(refused.headers.get('retry-after')).to.equal('10');
    expect(refused.headers.get('ratelimit-policy')).to.equal('600;w=60');
    expect(refused.headers.get('ratelimit-remaining')).to.equal('597');
    const call = await insertTestCall(srv.deps.store, alice);
    expect((await alice.api.get(`/v1/agent/calls/${call.id}/stream`)).body.error).to.equal('too_many_streams');
    // Another key is not held back by alice's streams.
    const bob = await srv.tenant();
    const bobs = await open(base2, bob.key);
    expect(bobs.res.status).to.equal(200);

    second.abort.abort();
    await until('the closed stream’s lease given back', async () => (await leases()) === 2, 5000);
    const third = await open(srv.baseUrl);
    expect(third.res.status).to.equal(200);
    // Placing calls spends the calls window, which the streams never touched.
    const placed = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' } });
    expect(placed.status).to.equal(202);
    expect(placed.headers.get('ratelimit-policy')).to.equal('100;w=60');
    expect(placed.headers.get('ratelimit-remaining')).to.equal('99');
  });

  it('refuses a stream with 429 rate_limited once the key’s request window is spent', async () => {
    await start({ SVC_KEY_REQUEST_LIMIT: '2' });
    const call = await insertTestCall(srv.deps.store, alice);
    const headersOf = async (path: string) => {
      const abort = new AbortController();
      closers.push(() => abort.abort());
      return fetch(`${srv.baseUrl}${path}`, { headers: { authorization: `Bearer ${alice.key}` }, signal: abort.signal });
    };
    const a = await headersOf(`/v1/agent/calls/${call.id}/stream`);
    expect(a.status).to.equal(200);
    expect(a.headers.get('ratelimit-policy')).to.equal('2;w=60');
    expect(a.headers.get('ratelimit-remaining')).to.equal('1');
    const b = await headersOf('/v1/agent/stream');
    expect(b.status).to.equal(200);
    expect(b.headers.get('ratelimit-remaining')).to.equal('0');
    const c = await alice.api.get('/v1/agent/stream');
    expect(c.status).to.equal(429);
    expect(c.body.error).to.equal('rate_limited');
    expect(c.body.message).to.match(/^Too many redeliveries and streams opened: the limit is 2 per 60 seconds\. Retry after \d+ seconds\.$/);
    expect(c.headers.get('ratelimit-policy')).to.equal('2;w=60');
    expect(c.headers.get('ratelimit-remaining')).to.equal('0');
    expect(Number(c.headers.get('retry-after'))).to.equal(Number(c.headers.get('ratelimit-reset')));
  });

  it('ends a revoked key’s streams within seconds, and those of a key whose account is removed', async function () {
    this.timeout(30_000);
    await start();
    const call = await insertTestCall(srv.deps.store, alice, { status: 'in_progress', ended_at: null, duration_sec: null });
    const ends = async (path: string, key: string) => {
      const abort = new AbortController();
      closers.push(() => abort.abort());
      const res = await fetch(`${srv.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: abort.signal });
      expect(res.status).to.equal(200);
      return res.text();
    };
    const keyStream = ends('/v1/agent/stream', alice.key);
    const callStream = ends(`/v1/agent/calls/${call.id}/stream`, alice.key);
    await until('both open', () => hub().open === 2);
    expect(await revokeKey(srv.deps.store.db, alice.keyId, srv.clock.now())).to.equal(true);
    await within(5000, Promise.all([keyStream, callStream]), 'the revoked key’s streams to end');
    expect((await alice.api.get('/v1/agent/stream')).status).to.equal(401);

    const carol = await srv.tenant();
    const carolStream = ends('/v1/agent/stream', carol.key);
    await until('carol’s stream open', () => hub().open === 1);
    const db = srv.deps.store.db;
    await db.deleteFrom('numbers').where('account_id', '=', carol.accountId).execute();
    await db.deleteFrom('api_keys').where('id', '=', carol.keyId).execute();
    await db.deleteFrom('accounts').where('id', '=', carol.accountId).execute();
    await within(5000, carolStream, 'the removed account’s stream to end');
    await until('no stream left', () => hub().open === 0);
  });
});
