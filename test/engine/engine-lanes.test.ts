// The engine's lanes: calls to dial and calls on a line have slots of their own, so a call placed while every
// slot of a worker is busy ending other calls (an analysis by an LLM: seconds each) is dialled at once.
import { expect } from 'chai';
import type { Analyst } from '../../server/src/analysis/analyst.js';
import { RuleBasedAnalyst } from '../../server/src/analysis/rule-based-analyst.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import type { TestTenant } from '../support/server.js';
import { forEachStore } from '../support/stores.js';
import { until } from '../support/until.js';

/** An analyst whose analyses wait until let go, counting those under way. */
function heldAnalyst() {
  let letGo!: () => void;
  const gate = new Promise<void>((resolve) => (letGo = resolve));
  const held = { waiting: 0, letGo };
  const real = new RuleBasedAnalyst();
  const analyst: Analyst = {
    name: real.name,
    async analyse(input) {
      held.waiting++;
      await gate;
      held.waiting--;
      return real.analyse(input);
    },
  };
  return { analyst, held };
}

forEachStore("the engine's lanes", (kind) => {
  let srv: EngineServer;
  let alice: TestTenant;
  let held: ReturnType<typeof heldAnalyst>['held'];
  // Two slots in each lane; every analysis waits until the test lets it go.
  beforeEach(async () => {
    const made = heldAnalyst();
    held = made.held;
    srv = await startEngineServer(kind, {}, { analyst: made.analyst, settings: { concurrency: 2, idlePollMs: 5 } });
    alice = await srv.tenant();
    srv.engine.start();
  });
  afterEach(async () => {
    held.letGo();
    await srv.engine.stop();
    await srv.close();
  });

  const place = async () => {
    const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.' } });
    expect(res.status).to.equal(202);
    return res.body.callId as string;
  };

  const allCompleted = async (ids: string[]) => (await Promise.all(ids.map((id) => srv.row(id)))).every((r) => r.status === 'completed');

  /** Moves the clock to each call's next step until `done` holds; the loop steps them. */
  const follow = async (ids: string[], what: string, done: () => Promise<boolean>) => {
    await until(what, async () => {
      if (await done()) return true;
      const rows = await Promise.all(ids.map((id) => srv.row(id)));
      const next = Math.min(...rows.filter((r) => r.lease_owner === null && r.next_run_at !== null).map((r) => r.next_run_at!));
      if (Number.isFinite(next) && next > srv.clock.now()) srv.clock.ms = next;
      return false;
    });
  };

  it('dials a new call while every slot for calls on a line waits on the end of another call', async () => {
    const ending = [await place(), await place()];
    await follow(ending, 'both calls ending, their analyses held', async () => held.waiting === 2);

    const fresh = await place();
    // The status turns to dialing as the dial starts, and the carrier's record of it follows: the test waits for both.
    await until('the new call dialled', async () => (await srv.row(fresh)).status === 'dialing' && (await srv.dials(fresh)) > 0);
    expect(await srv.dials(fresh)).to.equal(1);
    for (const id of ending) expect((await srv.row(id)).status).to.equal('in_progress');
    expect(held.waiting).to.equal(2);

    held.letGo();
    await follow([...ending, fresh], 'every call completed', () => allCompleted([...ending, fresh]));
    for (const id of [...ending, fresh]) expect(await srv.dials(id)).to.equal(1);
  });

  it('steps no more calls on a line at once than its slots, however many are due', async () => {
    const ids = [await place(), await place(), await place()];
    // Two calls end, their analyses held; the third call's end falls due and waits for a slot.
    const dueToEnd = async () => {
      const rows = await Promise.all(ids.map((id) => srv.row(id)));
      return rows.filter((r) => r.status === 'in_progress' && r.lease_owner === null && r.next_run_at! <= srv.clock.now());
    };
    await follow(ids, 'two analyses held and the third call due to end', async () => held.waiting === 2 && (await dueToEnd()).length === 1);
    const [waiting] = await dueToEnd();
    // The loop looks again at each of its polls (every 5 ms of the clock's): three more looks leave the call waiting.
    for (let i = 0; i < 3; i++) {
      await until('the loop asleep', () => srv.clock.pending().length === 1);
      srv.clock.advance(5);
    }
    await until('the loop asleep', () => srv.clock.pending().length === 1);
    expect(held.waiting).to.equal(2);
    expect(await srv.row(waiting!.id)).to.deep.equal(waiting);
    held.letGo();
    await follow(ids, 'every call completed', () => allCompleted(ids));
  });
});
