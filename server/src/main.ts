// Composition root: reads the config, opens and migrates the store, seeds the dev account, then runs what the
// role asks for — the HTTP API, the workers (call engine and webhook dispatcher), or both — until SIGTERM.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { seedDevAccount } from './accounts/dev-seed.js';
import { cliProgram } from './cli-program.js';
import { devBanner } from './dev-banner.js';
import { DEFAULT_AGENT_CATALOGUE } from './placement/agent-catalogue.js';
import { DEFAULT_IRSF_PATH, IrsfList } from './numbers/irsf.js';
import { systemClock } from './clock.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { batchCallHooks } from './batches/batch-hooks.js';
import { BatchRunner } from './batches/batch-runner.js';
import { configuredAgent, createEngine } from './engine/default-engine.js';
import { callLatencyMetrics } from './http/observability/call-latency-metrics.js';
import { createApp } from './compose.js';
import { createHttpServer } from './http/http-server.js';
import { countAddress } from './http/key-gate.js';
import { createJobRunner } from './jobs/job-runner.js';
import type { Attachment } from './telephony/telephony.js';
import { configuredTelephony } from './telephony/configured-telephony.js';
import { sandboxCalleeLines } from './voice-agent/cascaded/sandbox-callee-voice.js';
import { serviceLogger } from './http/observability/service-logger.js';
import { startIdempotencySweeper } from './jobs/idempotency-sweeper.js';
import { storeFor } from './store/open-store.js';
import { migrate } from './store/store.js';
import { createWebhookDispatcher } from './webhooks/dispatcher.js';
import { StreamHub } from './streams/stream-hub.js';

/** How long shutdown waits for requests and steps in flight before exiting anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const logger = serviceLogger();
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      logger.fatal(err.message);
      process.exit(2);
    }
    throw err;
  }
  const store = storeFor(config, {
    checkpointInBackground: true,
    onCheckpointError: (message) => logger.warn({ message }, 'WAL checkpoints are failing; the writer checkpoints instead'),
  });
  await migrate(store);
  if (config.webhookAllowPrivate) {
    logger.warn('SVC_WEBHOOK_ALLOW_PRIVATE is on: webhook URLs may be http and point at loopback or private addresses. Never use this in production.');
  }
  const runsWorkers = config.role !== 'api';
  // One agent for the engine (what was said, read as a call ends) and the carrier's media streams (which it joins).
  const agent = configuredAgent(config, store, logger, callLatencyMetrics);
  const telephony = configuredTelephony({ config, store, clock: systemClock, logger, agent, calleeVoice: sandboxCalleeLines });
  const engineLogger = logger.child({ part: 'engine' });
  // Batches hear of their calls' ends through the engine's hooks, in the transactions that end them.
  const engine = runsWorkers ? createEngine(config, store, systemClock, engineLogger, batchCallHooks(store, engineLogger), { carrier: telephony.carrier, agent }) : null;
  const dispatcher = runsWorkers ? createWebhookDispatcher({ store, clock: systemClock, config, logger: logger.child({ part: 'webhooks' }) }) : null;
  const sweeper = runsWorkers ? startIdempotencySweeper({ store, clock: systemClock, logger: logger.child({ part: 'idempotency' }) }) : null;
  // Batches release their calls on their own loop: a batch step is short, so a few run at once.
  const batches = runsWorkers
    ? new BatchRunner({ store, clock: systemClock, logger: logger.child({ part: 'batches' }), leaseMs: config.engineLeaseMs, concurrency: 4, idlePollMs: config.enginePollMs })
    : null;
  const jobs = runsWorkers ? createJobRunner({ store, clock: systemClock, logger: logger.child({ part: 'jobs' }), handlers: telephony.jobs ?? {} }) : null;
  let server: Server | null = null;
  // Open live streams never finish by themselves: shutdown ends them, so the server can close.
  const streams = new StreamHub({ store, clock: systemClock, logger: logger.child({ part: 'streams' }), pollMs: config.streamPollMs });
  let attachment: Attachment | null = null;
  if (config.role !== 'worker') {
    const irsf = IrsfList.load(config.irsfPath ?? DEFAULT_IRSF_PATH);
    const deps = { config, store, clock: systemClock, logger, catalogue: DEFAULT_AGENT_CATALOGUE, irsf, telephony, streams };
    const app = createApp(deps);
    server = createHttpServer(config.httpTimeouts, logger, { handler: app.callback(), countAddress: (address) => countAddress(deps, address) });
    // A deep accept queue: after a deploy, thousands of live-stream clients reconnect within a second or two.
    server.listen({ port: config.port, host: config.host, backlog: 4096 });
    // The banner below says the service is running: it is printed only once it listens.
    await once(server, 'listening');
    logger.info({ url: config.publicBaseUrl, port: config.port, store: store.kind, role: config.role }, `svc listening on ${config.publicBaseUrl}`);
    // What the carrier attaches to the server itself (Twilio's media streams upgrade on the same port).
    attachment = telephony.attach?.(server) ?? null;
  }
  engine?.start();
  dispatcher?.start();
  jobs?.start();
  batches?.start();
  if (runsWorkers) logger.info({ role: config.role, worker: engine!.owner, batches: batches!.owner }, 'call engine and webhook dispatcher running');
  if (config.seedDev) {
    const seed = await seedDevAccount(store, config, systemClock.now());
    if (server) process.stdout.write(devBanner({ config, apiKey: seed.apiKey, webhookSecret: seed.webhookSecret, program: cliProgram() }));
  }
  onShutdown(logger, async () => {
    streams.endAll();
    await Promise.all([
      attachment?.close(),
      server ? new Promise<void>((resolve) => server!.close(() => resolve())) : undefined,
      engine?.stop(),
      dispatcher?.stop(),
      sweeper?.stop(),
      jobs?.stop(),
      batches?.stop(),
    ]);
    await store.close();
  });
}

/**
 * SIGTERM or SIGINT: stop accepting, let requests, engine steps and deliveries in flight finish, give up the
 * leases this process holds so another takes its calls at once, close the store, exit. Past the grace period the
 * process exits anyway; whatever it still held is taken over when its leases expire, so nothing is lost.
 */
function onShutdown(logger: Logger, close: () => Promise<void>): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.warn('shutdown grace period over; exiting with work in flight (its leases will expire)');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    close().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

await main();
