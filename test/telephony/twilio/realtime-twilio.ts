// The realtime agent on the Twilio carrier as main.ts composes them, against a fake Twilio and a fake realtime
// server: a test server on the configured carrier, the media bridge attached to it with a logger the test reads,
// and a call placed, dialled, and (on answer) picked up by a person, whose stream URL and token are read from
// the TwiML the carrier sent. By default the agent is the one configured from the environment; `bounds` builds it
// with those bounds instead, and `apart` gives the engine an agent of its own over the same store (as a worker
// process beside the api process that holds the line).
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { configuredTelephony } from '../../../server/src/telephony/configured-telephony.js';
import type { LineAgent } from '../../../server/src/telephony/live-line.js';
import type { Attachment } from '../../../server/src/telephony/telephony.js';
import type { LiveAgent } from '../../../server/src/conversation/agent.js';
import { RealtimeAgent } from '../../../server/src/voice-agent/realtime-agent.js';
import { GA_PROTOCOL } from '../../../server/src/voice-agent/realtime-protocol.js';
import type { RealtimeConnection } from '../../../server/src/voice-agent/realtime-session.js';
import { startEngineServer, type EngineServer } from '../../support/engine.js';
import { FakeRealtime, type RealtimeStep } from '../../support/fake-realtime.js';
import type { FakeTwilio } from '../../support/fake-twilio.js';
import type { StoreKind } from '../../support/stores.js';
import type { TestTenant } from '../../support/server.js';

export const REALTIME_TEST_KEY = 'sk-realtime-key-never-logged-0123';

export interface RealtimeTwilio {
  srv: EngineServer;
  realtime: FakeRealtime;
  /** Every line the bridge logged (debug and up). */
  logs: string[];
  /** Places a call (with `extra` in its body) and lets the engine dial it: its id, call sid, and the stream URL and token of its TwiML. */
  placeCall(extra?: Record<string, unknown>): Promise<{ id: string; sid: string; url: string; token: string }>;
  /** The tenant the calls are placed for. */
  tenant: TestTenant;
  /** The call is picked up by a person (in-progress, AMD human) 4 s later on the engine's clock: in_progress. */
  answer(sid: string, id: string): Promise<void>;
  close(): Promise<void>;
}

export async function startRealtimeTwilio(kind: StoreKind, twilio: FakeTwilio, script: RealtimeStep[], opts: { bounds?: Partial<RealtimeConnection>; apart?: boolean } = {}): Promise<RealtimeTwilio> {
  const realtime = await FakeRealtime.start({ script });
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-realtime-'));
  const env = { ...twilio.env(), SVC_DATA_DIR: dataDir, SVC_AGENT: 'realtime', SVC_REALTIME_URL: realtime.url, SVC_REALTIME_API_KEY: REALTIME_TEST_KEY };
  const connection = (extra: Partial<RealtimeConnection>) => ({ url: realtime.url, model: 'gpt-realtime', protocol: GA_PROTOCOL, apiKey: REALTIME_TEST_KEY, ...extra, ...opts.bounds });
  let agent: RealtimeAgent | undefined;
  let engineAgent: RealtimeAgent | undefined;
  // One agent for the engine and the bridge, as main.ts composes them, built over the store the server opens.
  const shared: (LiveAgent & LineAgent) | undefined = opts.bounds
    ? {
        name: 'realtime',
        live: true,
        turns: (id) => engineAgent!.turns(id),
        optedOut: (id) => agent!.optedOut(id),
        heldTooLong: (id) => engineAgent!.heldTooLong(id),
        join: (brief, line, logger) => agent!.join(brief, line, logger),
      }
    : undefined;
  const srv = await startEngineServer(kind, env, { carrier: (deps) => configuredTelephony(deps).carrier, ...(shared ? { agent: shared } : {}) });
  if (shared) {
    agent = new RealtimeAgent(srv.deps.store.db, connection({ endGraceMs: 60_000 }));
    engineAgent = opts.apart ? new RealtimeAgent(srv.deps.store.db, connection({})) : agent;
  }
  const logs: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(line) });
  const bridge: Attachment = configuredTelephony({ ...srv.deps, logger, agent: shared ?? srv.agent }).attach!(srv.httpServer)!;
  const alice = await srv.tenant();
  return {
    srv,
    realtime,
    logs,
    tenant: alice,
    async placeCall(extra = {}) {
      const res = await alice.api.post('/v1/agent/calls', {
        body: {
          to: '+14155550123',
          objective: 'Ask whether the shop is open on Sunday.',
          fields: [{ name: 'open_sunday', type: 'boolean', description: 'whether the shop is open on Sunday' }],
          ...extra,
        },
      });
      expect(res.status).to.equal(202);
      await srv.engine.tick();
      const id = res.body.callId as string;
      const sid = (await srv.row(id)).carrier_ref!;
      // Where Twilio would connect the stream, and with what, read from the TwiML the carrier sent.
      const [, url, token] = /<Stream url="([^"]+)"><Parameter name="token" value="([^"]+)"\/>/.exec(twilio.call(sid).params.Twiml[0])!;
      return { id, sid, url, token };
    },
    async answer(sid, id) {
      srv.clock.advance(4000);
      expect((await twilio.status(sid, 'in-progress')).status).to.equal(204);
      expect((await twilio.amd(sid, 'human')).status).to.equal(204);
      await srv.engine.tick();
      expect((await srv.row(id)).status).to.equal('in_progress');
    },
    async close() {
      await bridge.close();
      await srv.close();
      await realtime.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
