// A worker that reads the carrier's news late gets the answer and the drop in one look. If the step stops after
// committing the answer (the worker is killed, its lease is taken over, or the write that ends the call fails for a
// moment), the worker that carries on must still learn of the drop: the call ends failed with call_dropped, not
// completed.
import { expect } from 'chai';
import type { LeasedUpdate, Store } from '../../server/src/store/store.js';
import { SANDBOX_DROP_AFTER_MS } from '../../server/src/telephony/sandbox/sandbox-carrier.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import { forEachStore } from '../support/stores.js';

// Two questions make the conversation outlast the drop 20 s in (without them it ends first, and the call completes).
const FIELDS = [
  { name: 'open_sunday', type: 'boolean' },
  { name: 'closing_time', description: 'Closing time on Sunday' },
];

forEachStore('news read late, a step cut short after the answer', (kind) => {
  let srv: EngineServer | undefined;
  afterEach(() => srv?.close());

  it('ends the call that dropped as failed with call_dropped when the step that saw the drop did not finish', async () => {
    srv = await startEngineServer(kind, {});
    // The first write of the call's ending (the one that sets its transcript) fails; the rest go through.
    const store: Store = srv.deps.store;
    const real = store.updateLeased.bind(store);
    let endings = 0;
    store.updateLeased = (async (ex: unknown, table: never, owner: string, updates: readonly LeasedUpdate[]) => {
      if (updates.some((u) => 'transcript' in u.set) && ++endings === 1) throw new Error('disk full for a moment');
      return real(ex as never, table, owner, updates);
    }) as Store['updateLeased'];
    const alice = await srv.tenant();
    const res = await alice.api.post('/v1/agent/calls', {
      body: { to: '+14155550116', objective: 'Ask whether the shop is open on Sunday.', fields: FIELDS, webhookUrl: 'http://127.0.0.1:9/h' },
    });
    expect(res.status).to.equal(202);
    const id = res.body.callId as string;
    await srv.engine.tick(); // dialled
    await srv.engine.tick(); // ringing: nothing new yet
    // The next look comes after the drop: answered and dropped arrive together; finishing the drop fails once.
    srv.clock.advance(4000 + SANDBOX_DROP_AFTER_MS + 1000);
    await srv.engine.tick();
    expect((await srv.row(id)).status).to.equal('in_progress');
    const row = await srv.drive(id);
    expect(endings).to.equal(2);
    expect(row).to.include({ status: 'failed', error: 'call_dropped', duration_sec: SANDBOX_DROP_AFTER_MS / 1000 });
  });
});
