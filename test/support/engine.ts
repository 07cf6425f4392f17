// The call engine beside a test server, on the same store and the same TestClock, so a test places calls over
// HTTP and then drives time: every step happens at a clock the test moves, nothing sleeps.
import { pino, type Logger } from 'pino';
import type { AnyAgent } from '../../server/src/conversation/agent.js';
import type { Analyst } from '../../server/src/analysis/analyst.js';
import { batchCallHooks } from '../../server/src/batches/batch-hooks.js';
import { CallEngine, type EngineSettings } from '../../server/src/engine/call-engine.js';
import type { Carrier } from '../../server/src/telephony/carrier.js';
import type { TelephonyDeps } from '../../server/src/telephony/telephony.js';
import { SandboxCarrier } from '../../server/src/telephony/sandbox/sandbox-carrier.js';
import { TERMINAL } from '../../server/src/calls/call-status.js';
import { defaultEngineParts, engineSettings } from '../../server/src/engine/default-engine.js';
import type { CallStatus } from '../../server/src/generated/types.gen.js';
import type { CallRow } from '../../server/src/store/calls-repo.js';
import { startServer, type TestServer } from './server.js';
import type { StoreKind } from './stores.js';

export interface EngineParts {
  /** A carrier, or a function making one over the server's store, config, clock and the engine's logger. */
  carrier?: Carrier | ((deps: TelephonyDeps) => Carrier);
  agent?: AnyAgent;
  analyst?: Analyst;
  settings?: Partial<EngineSettings>;
  /** The engine's logger; silent (or SVC_TEST_LOG) by default. */
  logger?: Logger;
}

export interface EngineServer extends TestServer {
  engine: CallEngine;
  /** The engine's agent, to share with the telephony as the composition root does. */
  agent: AnyAgent;
  /** Steps the call (ticking the engine, moving the clock to when it is next due) until it is terminal. */
  drive(callId: string, maxSteps?: number, afterTick?: () => Promise<unknown>): Promise<CallRow>;
  /** Every status the call passed through, as seen between ticks. */
  row(callId: string): Promise<CallRow>;
  dials(callId: string): Promise<number>;
}

export async function startEngineServer(kind: StoreKind, env: Record<string, string> = {}, parts: EngineParts = {}): Promise<EngineServer> {
  const srv = await startServer(kind, { SVC_WEBHOOK_ALLOW_PRIVATE: '1', ...env });
  const { config, store } = srv.deps;
  const clock = srv.clock;
  const defaults = defaultEngineParts(config, store);
  const logger = parts.logger ?? pino({ level: process.env.SVC_TEST_LOG ?? 'silent' });
  const agent = parts.agent ?? defaults.agent;
  const engine = new CallEngine({
    store,
    clock,
    logger,
    carrier: typeof parts.carrier === 'function' ? parts.carrier({ config, store, clock, logger }) : (parts.carrier ?? new SandboxCarrier(store.db, { timeScale: 1, dialLatencyMs: 0 })),
    agent,
    analyst: parts.analyst ?? defaults.analyst,
    settings: { ...engineSettings(config), ...parts.settings },
    // As the composition root wires it: batches hear of their calls' ends.
    hooks: batchCallHooks(store, logger),
  });
  const row = (id: string) => store.db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return {
    ...srv,
    engine,
    agent,
    row,
    async drive(callId, maxSteps = 50, afterTick) {
      for (let i = 0; i < maxSteps; i++) {
        await engine.tick();
        await afterTick?.();
        const r = await row(callId);
        if (TERMINAL.has(r.status as CallStatus)) return r;
        if (r.next_run_at === null) throw new Error(`call ${callId} is ${r.status} with nothing due`);
        if (r.next_run_at > clock.now()) clock.ms = r.next_run_at;
      }
      throw new Error(`call ${callId} did not end in ${maxSteps} steps`);
    },
    async dials(callId) {
      const r = await store.db
        .selectFrom('sandbox_dials')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('call_id', '=', callId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}
