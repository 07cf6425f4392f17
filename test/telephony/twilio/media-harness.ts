// A call on a stand-in callback carrier, the media bridge on the test server, the realtime agent pointed at a
// fake realtime server, and a fake Twilio media-stream peer: what the media and realtime tests drive.
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import type { LiveAgent } from '../../../server/src/conversation/agent.js';
import { RealtimeAgent } from '../../../server/src/voice-agent/realtime-agent.js';
import { realtimeProtocol, type RealtimeProtocolName } from '../../../server/src/voice-agent/realtime-protocol.js';
import type { AgentHangUp } from '../../../server/src/telephony/live-line.js';
import { recordLineEvent } from '../../../server/src/telephony/carrier-inbox.js';
import { amdLineEvent, callbackPayload } from '../../../server/src/telephony/twilio/line-events.js';
import { attachMediaBridge, type MediaBridge } from '../../../server/src/telephony/twilio/media-bridge.js';
import { mediaStreamToken, mediaStreamUrl } from '../../../server/src/telephony/twilio/media-stream.js';
import type { Database } from '../../../server/src/store/schema.js';
import { FakeMediaPeer, type MediaPeerOptions } from '../../support/fake-media-peer.js';
import type { LatencyObserver } from '../../../server/src/voice-agent/turn-timing.js';
import { FakeRealtime, type FakeRealtimeOptions, type RealtimeStep } from '../../support/fake-realtime.js';
import type { RealtimeConnection } from '../../../server/src/voice-agent/realtime-session.js';
import { DEFAULT_TURN_TAKING } from '../../../server/src/settings/turn-taking.js';
import { startEngineServer, type EngineServer } from '../../support/engine.js';
import { InboxCarrier } from '../../support/inbox-carrier.js';
import type { TestTenant } from '../../support/server.js';
import type { StoreKind } from '../../support/stores.js';

export const STREAM_SECRET = 'stream-secret-for-tests';
export const REALTIME_KEY = 'sk-realtime-test-key-0123456789';
export const callSidOf = (callId: string) => `CA${callId.replace(/[^0-9a-f]/gi, '').slice(0, 32)}`;

export interface BridgeHarness {
  srv: EngineServer;
  db: Kysely<Database>;
  realtime: FakeRealtime;
  bridge: MediaBridge;
  /** The realtime agent the bridge joins streams with. */
  agent: RealtimeAgent;
  alice: TestTenant;
  /** Every hang-up the bridge asked the carrier for. */
  hangUps: Array<{ callId: string; callSid: string; reason: AgentHangUp }>;
  /** Resolves at the next hang-up. */
  nextHangUp(): Promise<void>;
  /** Places a call and lets the engine dial it; returns its id. */
  placeCall(body?: Record<string, unknown>): Promise<string>;
  /** Twilio's answering-machine callback for the call, kept in the inbox as the callback route keeps it. */
  amd(callId: string, answeredBy: string): Promise<void>;
  /** Connects a peer and sends connected + start with the call's valid token and call sid. */
  stream(callId: string, opts?: { token?: string; callSid?: string; peer?: MediaPeerOptions }): Promise<FakeMediaPeer>;
  close(): Promise<void>;
}

export interface BridgeOptions {
  script: RealtimeStep[];
  /** The interface svc speaks; GA by default. */
  protocol?: RealtimeProtocolName;
  /** The interface the fake server speaks; svc's by default. */
  serverProtocol?: RealtimeProtocolName;
  env?: Record<string, string>;
  realtimeUrl?: string;
  startTimeoutMs?: number;
  /** The fake realtime server's options besides the script and interface. */
  realtimeOptions?: Omit<FakeRealtimeOptions, 'script' | 'protocol'>;
  /** The realtime connection's settings; by default the agent greets at once and the server cuts it off at once. */
  connection?: Partial<RealtimeConnection>;
  /** The agent warms sessions (prepare), recording the test server's address as the holder's internal URL. */
  warm?: { holdMs?: number };
  /** Where the agent's latencies go as they are measured. */
  observer?: LatencyObserver;
}

export async function startBridge(kind: StoreKind, opts: BridgeOptions): Promise<BridgeHarness> {
  const protocol = opts.protocol ?? 'ga';
  const realtime = await FakeRealtime.start({ ...opts.realtimeOptions, script: opts.script, protocol: opts.serverProtocol ?? protocol });
  let realtimeAgent!: RealtimeAgent;
  // The engine's agent is built over the store the server opens, so it reads through this stand-in.
  const agent: LiveAgent = {
    name: 'realtime',
    live: true,
    turns: (id) => realtimeAgent.turns(id),
    optedOut: (id) => realtimeAgent.optedOut(id),
    failure: (id) => realtimeAgent.failure(id),
    heldTooLong: (id) => realtimeAgent.heldTooLong(id),
  };
  let db!: Kysely<Database>;
  const srv = await startEngineServer(kind, opts.env ?? {}, { agent, carrier: ({ store }) => new InboxCarrier((db = store.db), { ref: callSidOf }) });
  realtimeAgent = new RealtimeAgent(
    db,
    {
      url: opts.realtimeUrl ?? realtime.url,
      model: 'gpt-test-realtime',
      protocol: realtimeProtocol(protocol),
      apiKey: REALTIME_KEY,
      endGraceMs: 60_000,
      greetAfterMs: 0,
      turnTaking: { ...DEFAULT_TURN_TAKING, interruptAfterMs: 0 },
      ...opts.connection,
    },
    undefined,
    { ...(opts.warm ? { internalUrl: srv.baseUrl, logger: pino({ level: process.env.SVC_TEST_LOG ?? 'silent' }), warmHoldMs: opts.warm.holdMs } : {}), observer: opts.observer },
  );
  const hangUps: BridgeHarness['hangUps'] = [];
  let waiters: Array<() => void> = [];
  const bridge = attachMediaBridge(srv.httpServer, {
    db,
    agent: realtimeAgent,
    streamSecret: STREAM_SECRET,
    logger: pino({ level: process.env.SVC_TEST_LOG ?? 'silent' }),
    startTimeoutMs: opts.startTimeoutMs,
    verdictPollMs: 20,
    async hangUp(call) {
      hangUps.push(call);
      const at = srv.clock.now();
      await recordLineEvent(db, { callId: call.callId, ref: call.callSid, event: { kind: 'hung_up', at } }, at);
      for (const w of waiters.splice(0)) w();
    },
  });
  waiters = [];
  const alice = await srv.tenant();
  const peers: FakeMediaPeer[] = [];
  return {
    srv,
    db,
    realtime,
    bridge,
    agent: realtimeAgent,
    alice,
    hangUps,
    nextHangUp: () => new Promise<void>((resolve) => waiters.push(resolve)),
    async placeCall(body) {
      const res = await alice.api.post('/v1/agent/calls', {
        body: body ?? {
          to: '+14155550123',
          objective: 'Ask whether the shop is open on Sunday.',
          context: 'The customer wants to drop off a parcel.',
          voice: 'coral',
          fields: [{ name: 'open_sunday', type: 'boolean', description: 'whether the shop is open on Sunday' }],
        },
      });
      if (res.status !== 202) throw new Error(`placeCall: ${res.status}`);
      await srv.engine.tick(); // dials: the call is `dialing` with its carrier ref
      return res.body.callId as string;
    },
    async amd(callId, answeredBy) {
      const at = srv.clock.now();
      const params = { CallSid: callSidOf(callId), AnsweredBy: answeredBy, MachineDetectionDuration: '2400' };
      await recordLineEvent(db, { callId, ref: params.CallSid, event: amdLineEvent(params, at)!, payload: callbackPayload('amd', params) }, at);
    },
    async stream(callId, o = {}) {
      const peer = await FakeMediaPeer.connect(mediaStreamUrl(srv.baseUrl, callId), o.peer);
      peers.push(peer);
      peer.start({ callSid: o.callSid ?? callSidOf(callId), token: o.token ?? mediaStreamToken(STREAM_SECRET, callId) });
      return peer;
    },
    async close() {
      for (const p of peers) p.close();
      await bridge.close();
      await realtime.close();
      await srv.close();
    },
  };
}
