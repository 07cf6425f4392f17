// A step that outlives its lease (a slow store, an event loop busy rendering other calls' recordings) must not
// be joined by a second step on the same call in the same worker. The lease fence tells workers apart, not
// claims: were the worker to claim the call again, both steps would pass the fence and both would commit the
// answer — two call.in_progress events (or, for a queued call, two dials).
import { expect } from 'chai';
import type { Agent } from '../../server/src/conversation/agent.js';
import { ScriptedAgent } from '../../server/src/voice-agent/scripted-agent.js';
import { startEngineServer, type EngineServer } from '../support/engine.js';
import { forEachStore } from '../support/stores.js';
import { until as waitUntil } from '../support/until.js';

const LEASE_MS = 1000;

/** Waits for the condition, checking every few ms of real time (the engine's steps run in real time). */
const until = (what: string, condition: () => boolean | Promise<boolean>) => waitUntil(what, condition, 10_000, 2);

forEachStore('a worker whose step outlives its lease', (kind) => {
  let srv: EngineServer | undefined;
  afterEach(async () => {
    await srv?.engine.stop();
    await srv?.close();
  });

  it('does not claim the call again while its own step is still running, so the answer is committed once', async () => {
    const scripted = new ScriptedAgent();
    const held: (() => void)[] = [];
    let conversations = 0;
    // Conversations are held until the test lets them go, as if the worker were stalled past its lease.
    const agent: Agent = {
      name: scripted.name,
      converse: async (brief) => {
        conversations++;
        await new Promise<void>((r) => held.push(r));
        return scripted.converse(brief);
      },
    };
    srv = await startEngineServer(kind, {}, { agent, settings: { leaseMs: LEASE_MS, idlePollMs: 2, concurrency: 4 } });
    const s = srv;
    const alice = await s.tenant();
    const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.', webhookUrl: 'http://127.0.0.1:9/h' } });
    expect(res.status).to.equal(202);
    const id = res.body.callId as string;
    const queue = (s.engine as any).queue;
    const claim = queue.claim.bind(queue);
    let claims = 0;
    queue.claim = (...args: unknown[]) => (claims++, claim(...args));

    s.engine.start();
    // Dialled and ringing; then the clock reaches the answer and the step stalls planning the conversation.
    await until('the call to ring', async () => {
      const r = await s.row(id);
      return r.carrier_ref !== null && r.lease_owner === null && r.next_run_at! > s.clock.ms;
    });
    s.clock.ms = (await s.row(id)).next_run_at!;
    await until('the answer to be planned', () => held.length === 1);
    // The lease runs out while the step is stalled; the loop looks for due calls a few more times. Then every
    // conversation held goes on at once.
    s.clock.advance(2 * LEASE_MS);
    const seen = claims;
    s.deps.store.wake('calls');
    // The loop looks at each of its polls, every 2 ms of the clock's.
    await until('three more claims', () => {
      if (s.clock.pending().length > 0) s.clock.advance(2);
      return claims >= seen + 3;
    });
    for (const release of held) release();

    await until('the call to end', async () => {
      const r = await s.row(id);
      if (r.next_run_at !== null && r.next_run_at > s.clock.ms) s.clock.ms = r.next_run_at;
      return r.status === 'completed';
    });
    const events = await s.deps.store.db.selectFrom('webhook_events').select('event').where('call_id', '=', id).orderBy('created_at').execute();
    expect(events.map((e) => e.event)).to.deep.equal(['call.in_progress', 'call.completed']);
    expect(conversations).to.equal(1);
    expect(await s.dials(id)).to.equal(1);
  });
});
