// The telephone line, as a wing of the house: each carrier's folder (sandbox/, twilio/) builds a Telephony of the
// same shape — the Carrier the engine dials through, the HTTP routes the carrier calls back on, whatever must
// attach to the HTTP server itself (Twilio's media streams), and the handlers of the durable jobs it leaves (a
// hang-up to retry, a recording to fetch) — and the composition root mounts what it gets (configured-telephony.ts)
// without knowing which carrier it is.
import type { Server } from 'node:http';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { JobHandler } from '../jobs/job-runner.js';
import type { Store } from '../store/store.js';
import type { AnyAgent } from '../conversation/agent.js';
import type { Carrier } from './carrier.js';
import type { CalleeVoice } from './sandbox/sandbox-lines.js';

/** What a carrier's wing is built with. */
export interface TelephonyDeps {
  config: Config;
  store: Store;
  clock: Clock;
  logger: Logger;
  /**
   * The agent, built once by the composition root and shared with the engine: a live one joins the lines the
   * carrier's media streams carry (needed only by `attach`).
   */
  agent?: AnyAgent;
  /** The sandbox's callee as a voice, for a live agent on the sandbox's lines (the composition root gives it). */
  calleeVoice?: CalleeVoice;
}

/** Something attached to the HTTP server, closed on shutdown. */
export interface Attachment {
  close(): Promise<void>;
}

export interface Telephony {
  readonly carrier: Carrier;
  /** The routes the carrier calls back on, outside the API (Koa middleware); none when it calls nothing back. */
  readonly routes?: Middleware;
  /** Attaches to the HTTP server (WebSocket upgrades); null when this configuration needs nothing there. */
  attach?(server: Server): Attachment | null;
  /** Handlers of the jobs it leaves in the jobs table, by kind; the worker processes run them. */
  readonly jobs?: Readonly<Record<string, JobHandler>>;
}
