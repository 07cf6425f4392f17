// A test server on the Twilio carrier as configured, pointed at a fake Twilio, with a stand-in live agent that
// reads the turns recorded on the call (as the realtime agent's engine side does), the jobs runner that keeps
// hang-ups and recording downloads going, a tenant, and its own data folder: what the Twilio call tests drive.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createJobRunner, type JobRunner } from '../../../server/src/jobs/job-runner.js';
import { configuredTelephony } from '../../../server/src/telephony/configured-telephony.js';
import type { LiveAgent } from '../../../server/src/conversation/agent.js';
import { recordedTurns } from '../../../server/src/voice-agent/recorded-turns.js';
import { startEngineServer, type EngineServer } from '../../support/engine.js';
import type { FakeTwilio } from '../../support/fake-twilio.js';
import type { TestTenant } from '../../support/server.js';
import type { StoreKind } from '../../support/stores.js';

export interface TwilioEngine {
  srv: EngineServer;
  alice: TestTenant;
  jobs: JobRunner;
  /** The service's data folder (its recordings). */
  dataDir: string;
  /** Places a call (this objective, and `extra` fields) and lets the engine dial it: `dialing`, with its call sid. */
  placeAndDial(extra?: Record<string, unknown>): Promise<{ id: string; sid: string }>;
  close(): Promise<void>;
}

export async function startTwilioEngine(kind: StoreKind, fake: FakeTwilio, env: Record<string, string> = {}): Promise<TwilioEngine> {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-twilio-'));
  let srv!: EngineServer;
  const agent: LiveAgent = { name: 'live-test', live: true, turns: (callId) => recordedTurns(srv.deps.store.db, callId), optedOut: async () => false };
  srv = await startEngineServer(kind, { ...fake.env(), SVC_DATA_DIR: dataDir, ...env }, { carrier: (deps) => configuredTelephony(deps).carrier, agent });
  const logger = pino({ level: process.env.SVC_TEST_LOG ?? 'silent' });
  const jobs = createJobRunner({ store: srv.deps.store, clock: srv.clock, logger, handlers: configuredTelephony({ ...srv.deps, logger }).jobs!, random: () => 0.5 });
  const alice = await srv.tenant();
  return {
    srv,
    alice,
    jobs,
    dataDir,
    async placeAndDial(extra = {}) {
      const res = await alice.api.post('/v1/agent/calls', { body: { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday.', ...extra } });
      expect(res.status).to.equal(202);
      await srv.engine.tick();
      const row = await srv.row(res.body.callId);
      expect(row.status).to.equal('dialing');
      return { id: res.body.callId, sid: row.carrier_ref! };
    },
    async close() {
      await srv.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
