// cancelCall through the engine, on both stores: a call not yet dialled ends canceled at once and is never
// dialled; a ringing one is hung up and ends canceled; a live one is hung up at the cancel and ends completed with
// what was said; the answers, the events, the bill and the races (a cancel crossing the dial, the answer and a
// worker that died holding the call).
import { expect } from 'chai';
import { WaveFile } from 'wavefile';
import { accountUsage } from '../../server/src/accounts/minute-billing.js';
import type { CallRow } from '../../server/src/store/calls-repo.js';
import { SandboxCarrier } from '../../server/src/telephony/sandbox/sandbox-carrier.js';
import type { Store } from '../../server/src/store/store.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';

const objective = 'Ask whether the shop is open on Sunday and until what time.';
const fields = [{ name: 'open_sunday', type: 'boolean' }];

forEachStore('cancelling a call', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  let dialGate: Promise<void> | null = null;
  beforeEach(async () => {
    dialGate = null;
    srv = await startEngineServer(
      kind,
      {},
      {
        carrier: ({ store }) => {
          const sandbox = new SandboxCarrier(store.db, { timeScale: 1, dialLatencyMs: 0 });
          const dial = sandbox.dial.bind(sandbox);
          // A test may hold the dial in flight (the carrier's API call) to cancel while it is under way.
          sandbox.dial = async (request, now) => {
            if (dialGate) await dialGate;
            return dial(request, now);
          };
          return sandbox;
        },
      },
    );
    alice = await srv.tenant({ rateLimit: 100 });
  });
  afterEach(() => srv.close());

  const place = async (to = '+14155550123') => {
    const res = await alice.api.post('/v1/agent/calls', { body: { to, objective, fields, webhookUrl: 'http://127.0.0.1:9/hooks' } });
    expect(res.status).to.equal(202);
    return res.body.callId as string;
  };
  const cancel = (id: string, headers: Record<string, string> = {}, tenant = alice) => tenant.api.post(`/v1/agent/calls/${id}/cancel`, { headers });
  const events = async (id: string) =>
    (await srv.deps.store.db.selectFrom('webhook_events').select(['event', 'body']).where('call_id', '=', id).orderBy('created_at').execute()).map((e) => ({
      event: e.event,
      payload: JSON.parse(e.body),
    }));
  const hungUp = async (id: string) => (await srv.deps.store.db.selectFrom('sandbox_dials').select('hung_up_at').where('call_id', '=', id).execute()).map((d) => d.hung_up_at);
  /**
   * Holds the store write after the next `skip` ones (the engine's, started by a tick) until released, so a test can
   * act while a step is under way; writes made while it is held (the test's own requests) go through.
   */
  function holdWrite(skip: number): { holding: Promise<void>; release(): void } {
    const store = srv.deps.store as { -readonly [K in keyof Store]: Store[K] };
    const write = store.write;
    let release!: () => void;
    let holding!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const held = new Promise<void>((r) => (holding = r));
    let seen = 0;
    store.write = ((unit: Parameters<Store['write']>[0]) => {
      if (seen++ < skip) return write(unit);
      store.write = write;
      holding();
      return gate.then(() => write(unit));
    }) as Store['write'];
    return { holding: held, release };
  }

  /** Ticks the engine (moving the clock to each due time, up to `until`) until the call has `status`. */
  async function stepUntil(id: string, status: string, until = Infinity): Promise<CallRow> {
    for (let i = 0; i < 50; i++) {
      const r = await srv.row(id);
      if (r.status === status) return r;
      if (r.next_run_at !== null && r.next_run_at > srv.clock.now() && r.next_run_at <= until) srv.clock.ms = r.next_run_at;
      await srv.engine.tick();
    }
    throw new Error(`call ${id} did not reach ${status}`);
  }

  describe('a call not yet dialled', () => {
    it('ends canceled at once (200), with one call.canceled event, and is never dialled nor billed', async () => {
      const id = await place();
      srv.clock.advance(1500);
      const res = await cancel(id);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ id, status: 'canceled', durationSec: 0, error: null, startedAt: null, answeredBy: null, summary: null, transcript: null, recordingUrl: null });
      expect(res.body.endedAt).to.equal(new Date(srv.clock.now()).toISOString());
      const row = await srv.row(id);
      expect([row.billed_minutes, row.next_run_at, row.lease_owner]).to.deep.equal([0, null, null]);
      for (let i = 0; i < 5; i++) await srv.engine.tick();
      expect(await srv.dials(id)).to.equal(0);
      expect((await srv.row(id)).status).to.equal('canceled');
      const sent = await events(id);
      expect(sent.map((e) => e.event)).to.deep.equal(['call.canceled']);
      expect(sent[0].payload).to.deep.include({ callId: id, status: 'canceled', durationSec: 0, error: null, summary: null, extracted: null });
      // The minute it reserved while queued is free again; nothing was used.
      expect(await accountUsage(srv.deps.store.db, alice.accountId, srv.clock.now())).to.deep.equal({ usedMinutes: 0, reservedMinutes: 0 });
    });

    it('is idempotent: a canceled call is 200 again, unchanged, with no second event', async () => {
      const id = await place();
      const first = await cancel(id);
      srv.clock.advance(5000);
      const again = await cancel(id);
      expect(again.status).to.equal(200);
      expect(again.body).to.deep.equal(first.body);
      expect((await events(id)).map((e) => e.event)).to.deep.equal(['call.canceled']);
    });

    it('wins against a worker that claimed the call and is about to dial: its commit is fenced off and nothing is dialled', async () => {
      const id = await place();
      // The engine's first write after its claim (the dial attempt) waits until the cancel is answered.
      const { holding, release } = holdWrite(0);
      const ticking = srv.engine.tick();
      await holding;
      expect((await srv.row(id)).lease_owner).to.equal(srv.engine.owner);
      const res = await cancel(id);
      expect([res.status, res.body.status]).to.deep.equal([200, 'canceled']);
      release();
      await ticking;
      for (let i = 0; i < 3; i++) await srv.engine.tick();
      expect(await srv.dials(id)).to.equal(0);
      expect((await srv.row(id)).status).to.equal('canceled');
      expect((await events(id)).map((e) => e.event)).to.deep.equal(['call.canceled']);
    });
  });

  describe('a ringing call', () => {
    it('answers 202 with the call dialing, then the engine hangs the line up and it ends canceled, unbilled', async () => {
      const id = await place();
      await stepUntil(id, 'dialing');
      await srv.engine.tick(); // the carrier's reference is recorded
      expect((await srv.row(id)).carrier_ref).to.not.equal(null);
      srv.clock.advance(2000); // ringing; the sandbox answers at 4 s
      const res = await cancel(id);
      expect([res.status, res.body.status]).to.deep.equal([202, 'dialing']);
      const cancelAt = srv.clock.now();
      srv.clock.advance(5000); // the answer's time has passed by the time the engine looks: the cancel came first
      const row = await srv.drive(id);
      expect(row.status).to.equal('canceled');
      expect([row.started_at, row.duration_sec, row.billed_minutes, row.answered_by, row.transcript, row.recording_path]).to.deep.equal([null, 0, 0, null, null, null]);
      expect(row.cancel_requested_at).to.equal(cancelAt);
      expect(await srv.dials(id)).to.equal(1);
      expect(await hungUp(id)).to.deep.equal([srv.clock.now()]);
      expect((await events(id)).map((e) => e.event)).to.deep.equal(['call.canceled']);
      expect((await accountUsage(srv.deps.store.db, alice.accountId, srv.clock.now())).reservedMinutes).to.equal(0);
    });

    it('cancels a dial still in flight at the carrier: the line it gets is hung up and the call ends canceled, dialled once', async () => {
      const id = await place();
      let release!: () => void;
      dialGate = new Promise<void>((r) => (release = r));
      const ticking = srv.engine.tick();
      while ((await srv.row(id)).dial_attempted_at === null) await new Promise((r) => setTimeout(r, 5));
      const res = await cancel(id);
      expect([res.status, res.body.status]).to.deep.equal([202, 'dialing']);
      release();
      await ticking;
      const row = await srv.drive(id);
      expect(row.status).to.equal('canceled');
      expect(await srv.dials(id)).to.equal(1);
      expect((await hungUp(id))[0]).to.not.equal(null);
      expect((await events(id)).map((e) => e.event)).to.deep.equal(['call.canceled']);
    });

    it('ends a call the carrier was throttling canceled at once (200), without dialling it again', async () => {
      const id = await place();
      const now = srv.clock.now();
      await srv.deps.store.db
        .updateTable('calls')
        .set({ status: 'dialing', dial_attempted_at: null, next_run_at: now + 10_000, engine_state: JSON.stringify({ line: null, throttle: { since: now, tries: 1 } }) })
        .where('id', '=', id)
        .execute();
      const res = await cancel(id);
      expect([res.status, res.body.status]).to.deep.equal([200, 'canceled']);
      srv.clock.advance(20_000);
      await srv.engine.tick();
      expect(await srv.dials(id)).to.equal(0);
    });
  });

  describe('a live call', () => {
    it('is hung up at the cancel and ends completed with what was said, its summary saying the client ended it', async () => {
      const id = await place();
      const answered = await stepUntil(id, 'in_progress');
      srv.clock.ms = answered.started_at! + 9000; // nine seconds into the conversation
      const res = await cancel(id);
      expect([res.status, res.body.status]).to.deep.equal([202, 'in_progress']);
      const row = await srv.drive(id);
      expect(row.status).to.equal('completed');
      expect(row.duration_sec).to.equal(9);
      expect(row.billed_minutes).to.equal(1);
      expect(row.ended_at).to.equal(answered.started_at! + 9000);
      expect(row.summary).to.match(/^Objective: .*The client ended the call early \(canceled\)/s);
      const call = (await alice.api.get(`/v1/agent/calls/${id}`)).body;
      expect(call.transcript.split('\n').length).to.be.within(1, 3);
      const wav = new WaveFile((await alice.api.get(`/v1/agent/calls/${id}/recording`)).body);
      const fmt = wav.fmt as { sampleRate: number; blockAlign: number };
      expect((wav.data as { chunkSize: number }).chunkSize / fmt.blockAlign / fmt.sampleRate).to.be.closeTo(9, 0.05);
      expect(await hungUp(id)).to.deep.equal([answered.started_at! + 9000]);
      expect((await events(id)).map((e) => e.event)).to.deep.equal(['call.in_progress', 'call.completed']);
    });

    it('takes the answer that came before the cancel: a cancel after the ring completes the call from the answer', async () => {
      const id = await place();
      await stepUntil(id, 'dialing');
      await srv.engine.tick();
      const placedAt = (await srv.row(id)).dial_attempted_at!;
      srv.clock.ms = placedAt + 6000; // answered at 4 s; the engine has not looked since
      const res = await cancel(id);
      expect([res.status, res.body.status]).to.deep.equal([202, 'dialing']);
      const row = await srv.drive(id);
      expect(row.status).to.equal('completed');
      expect(row.started_at).to.equal(placedAt + 4000);
      expect(row.duration_sec).to.equal(2);
      expect((await events(id)).map((e) => e.event)).to.deep.equal(['call.in_progress', 'call.completed']);
    });

    it('is taken down at once when the cancel lands while the step of the answer is writing the conversation’s end', async () => {
      const id = await place();
      await stepUntil(id, 'dialing');
      await srv.engine.tick();
      const answerAt = (await srv.row(id)).next_run_at!;
      srv.clock.ms = answerAt;
      // The step commits the answer, then sets the call due at the conversation's end: the cancel lands in between.
      const { holding, release } = holdWrite(1);
      const ticking = srv.engine.tick();
      await holding;
      srv.clock.advance(1000);
      const res = await cancel(id);
      expect([res.status, res.body.status]).to.deep.equal([202, 'in_progress']);
      release();
      await ticking;
      const after = await srv.row(id);
      expect(after.next_run_at).to.equal(answerAt); // brought forward, not left at the conversation's end
      const row = await srv.drive(id);
      expect(row.status).to.equal('completed');
      expect([row.duration_sec, row.ended_at]).to.deep.equal([1, answerAt + 1000]);
    });
  });

  describe('a worker that died holding the call', () => {
    it('a live call it held is ended by the next worker once the lease runs out: completed, one terminal event, dialled once', async () => {
      const id = await place();
      await stepUntil(id, 'in_progress');
      const now = srv.clock.now();
      await srv.deps.store.db
        .updateTable('calls')
        .set({ lease_owner: 'dead-worker', lease_expires_at: now + 30_000 })
        .where('id', '=', id)
        .execute();
      srv.clock.advance(3000);
      const res = await cancel(id);
      expect([res.status, res.body.status]).to.deep.equal([202, 'in_progress']);
      await srv.engine.tick();
      expect((await srv.row(id)).status).to.equal('in_progress'); // the dead worker's lease still holds
      srv.clock.advance(30_000);
      const row = await srv.drive(id);
      expect(row.status).to.equal('completed');
      // What was said is cut where the cancel came; the line itself came down when the next worker took the call.
      expect(row.duration_sec).to.equal((row.cancel_requested_at! - row.started_at!) / 1000);
      expect(await hungUp(id)).to.deep.equal([row.ended_at]);
      expect(await srv.dials(id)).to.equal(1);
      expect((await events(id)).map((e) => e.event)).to.deep.equal(['call.in_progress', 'call.completed']);
    });

    it('a queued call it held is canceled at once, its lease cleared, and never dialled', async () => {
      const id = await place();
      await srv.deps.store.db
        .updateTable('calls')
        .set({ lease_owner: 'dead-worker', lease_expires_at: srv.clock.now() + 30_000 })
        .where('id', '=', id)
        .execute();
      expect((await cancel(id)).body.status).to.equal('canceled');
      srv.clock.advance(60_000);
      await srv.engine.tick();
      expect(await srv.dials(id)).to.equal(0);
      expect((await events(id)).map((e) => e.event)).to.deep.equal(['call.canceled']);
    });
  });

  describe('answers', () => {
    it('409 call_already_ended for a call that ended otherwise, naming how', async () => {
      const id = await place('+14155550113');
      await srv.drive(id);
      const res = await cancel(id);
      expect([res.status, res.body.error]).to.deep.equal([409, 'call_already_ended']);
      expect(res.body.message).to.include('declined');
    });

    it("404 not_found for another key's call and for a call that does not exist; a capitalised id names the call", async () => {
      const id = await place();
      const bob = await srv.tenant();
      expect([(await cancel(id, {}, bob)).status, (await cancel(id, {}, bob)).body.error]).to.deep.equal([404, 'not_found']);
      expect((await srv.row(id)).status).to.equal('queued');
      expect((await cancel('00000000-0000-7000-8000-000000000000')).status).to.equal(404);
      expect((await cancel('not-a-uuid')).status).to.equal(404);
      expect((await cancel(id.toUpperCase())).body).to.deep.include({ id, status: 'canceled' });
    });

    it('replays the first answer for the same Idempotency-Key, and refuses the key for another call with 422', async () => {
      const id = await place();
      await stepUntil(id, 'dialing');
      const first = await cancel(id, { 'idempotency-key': 'stop-1' });
      expect(first.status).to.equal(202);
      await srv.drive(id);
      const again = await cancel(id, { 'idempotency-key': 'stop-1' });
      expect(again.status).to.equal(202);
      expect(again.text).to.equal(first.text);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      const fresh = await cancel(id);
      expect([fresh.status, fresh.body.status]).to.deep.equal([200, 'canceled']);
      const other = await place();
      const reused = await cancel(other, { 'idempotency-key': 'stop-1' });
      expect([reused.status, reused.body.error]).to.deep.equal([422, 'idempotency_key_reused']);
      expect((await srv.row(other)).status).to.equal('queued');
      expect([(await cancel(other, { 'idempotency-key': 'bad key' })).status]).to.deep.equal([400]);
    });
  });
});
