// The engine's rules where the carrier or a worker misbehaves, with stand-in carriers: a refused dial, a dial
// whose outcome is unknown, a call found mid-dial after a crash, a lease taken over by another worker, and two
// workers claiming the same calls at once.
import { expect } from 'chai';
import { CallEngine } from '../../server/src/engine/call-engine.js';
import { CarrierRefused, type Carrier } from '../../server/src/telephony/carrier.js';
import { SandboxCarrier } from '../../server/src/telephony/sandbox/sandbox-carrier.js';
import { forEachStore } from '../support/stores.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';

function carrier(dial: Carrier['dial']): Carrier {
  return { name: 'stand-in', timeScale: 1, dial, check: async (_r, state) => ({ events: [], nextCheckAt: null, state }), hangUp: async () => {} };
}

forEachStore('the engine when things go wrong', (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  afterEach(() => srv.close());

  async function place(to = '+14155550123') {
    const res = await alice.api.post('/v1/agent/calls', { body: { to, objective: 'Ask whether the shop is open on Sunday.', webhookUrl: 'http://127.0.0.1:9/h' } });
    expect(res.status).to.equal(202);
    return res.body.callId as string;
  }
  const eventsOf = async (id: string) => (await srv.deps.store.db.selectFrom('webhook_events').select('event').where('call_id', '=', id).execute()).map((e) => e.event);

  it('fails a call the carrier refuses with its token, never dialling it again', async () => {
    let dials = 0;
    srv = await startEngineServer(
      kind,
      {},
      {
        carrier: carrier(async () => {
          dials++;
          throw new CarrierRefused('carrier_rejected', 'number barred');
        }),
      },
    );
    alice = await srv.tenant();
    const id = await place();
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'failed', error: 'carrier_rejected', duration_sec: 0, started_at: null, next_run_at: null });
    for (let i = 0; i < 3; i++) await srv.engine.tick();
    expect(dials).to.equal(1);
    expect(await eventsOf(id)).to.deep.equal(['call.failed']);
  });

  it('fails a call whose dial broke midway with dial_failed rather than risk a second dial', async () => {
    let dials = 0;
    srv = await startEngineServer(
      kind,
      {},
      {
        carrier: carrier(async () => {
          dials++;
          throw new Error('socket hang up');
        }),
      },
    );
    alice = await srv.tenant();
    const row = await srv.drive(await place());
    expect(row).to.include({ status: 'failed', error: 'dial_failed' });
    expect(dials).to.equal(1);
  });

  it('ends a call found dialled without a carrier reference as engine_interrupted, without dialling it', async () => {
    srv = await startEngineServer(kind);
    alice = await srv.tenant();
    const id = await place();
    // What a worker killed between recording the attempt and recording the carrier's reference leaves behind.
    await srv.deps.store.db
      .updateTable('calls')
      .set({ status: 'dialing', dial_attempted_at: srv.clock.now(), lease_owner: 'dead-worker', lease_expires_at: srv.clock.now() + 30_000 })
      .where('id', '=', id)
      .execute();
    await srv.engine.tick();
    expect((await srv.row(id)).status).to.equal('dialing'); // the dead worker's lease still holds
    srv.clock.advance(30_000);
    const row = await srv.drive(id);
    expect(row).to.include({ status: 'failed', error: 'engine_interrupted', duration_sec: 0 });
    expect(await srv.dials(id)).to.equal(0);
    expect(await eventsOf(id)).to.deep.equal(['call.failed']);
  });

  it('abandons a step whose lease another worker took over: the late write changes nothing', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let dials = 0;
    srv = await startEngineServer(
      kind,
      {},
      {
        carrier: carrier(async () => {
          dials++;
          await gate;
          return { ref: 'CA1', state: {} };
        }),
        settings: { leaseMs: 1000 },
      },
    );
    alice = await srv.tenant();
    const id = await place();
    const slow = srv.engine.tick(); // dials, and hangs there
    while ((await srv.row(id)).dial_attempted_at === null) await new Promise((r) => setTimeout(r, 5));
    srv.clock.advance(1000); // its lease expires
    const other = new CallEngine({ ...(srv.engine as any).deps, owner: 'worker-2' });
    await other.tick(); // takes over: attempt without reference
    expect(await srv.row(id)).to.include({ status: 'failed', error: 'engine_interrupted' });
    release();
    await slow;
    const row = await srv.row(id);
    expect(row).to.include({ status: 'failed', error: 'engine_interrupted', carrier_ref: null });
    expect(dials).to.equal(1);
    expect(await eventsOf(id)).to.deep.equal(['call.failed']);
  });

  it('dials each call exactly once when two workers claim at the same time', async () => {
    srv = await startEngineServer(kind, {}, { settings: { concurrency: 4 } });
    alice = await srv.tenant({ rateLimit: 100 });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await place());
    const deps = (srv.engine as any).deps;
    const second = new CallEngine({ ...deps, owner: 'worker-2', carrier: new SandboxCarrier(srv.deps.store.db, { timeScale: 1, dialLatencyMs: 1 }) });
    await Promise.all([srv.engine.tick(), second.tick(), srv.engine.tick(), second.tick()]);
    for (const id of ids) expect(await srv.dials(id), id).to.equal(1);
  });
});
