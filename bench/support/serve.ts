// A server for the benchmarks, in its own process so the load generator does not share its event loop.
// BENCH_TARGET=bare: bare Koa answering the same JSON from memory (the baseline).
// BENCH_TARGET=app: the real service over the store named by DATABASE_URL or SVC_DATA_DIR.
import Koa from 'koa';
import Router from '@koa/router';
import { pino } from 'pino';
import { DEFAULT_AGENT_CATALOGUE } from '../../server/src/placement/agent-catalogue.js';
import { DEFAULT_IRSF_PATH, IrsfList } from '../../server/src/numbers/irsf.js';
import { systemClock } from '../../server/src/clock.js';
import { loadConfig } from '../../server/src/config.js';
import { createApp } from '../../server/src/compose.js';
import { serviceLogger } from '../../server/src/http/observability/service-logger.js';
import { storeFor } from '../../server/src/store/open-store.js';

const target = process.env.BENCH_TARGET;
let app: Koa;
if (target === 'bare') {
  const record = JSON.parse(process.env.BENCH_RECORD ?? '{}');
  const list = JSON.parse(process.env.BENCH_LIST ?? '{"calls":[]}');
  const router = new Router();
  router.get('/v1/agent/calls/:id', (ctx) => {
    ctx.body = record;
  });
  router.get('/v1/agent/calls', (ctx) => {
    ctx.body = list;
  });
  router.post('/v1/agent/calls', (ctx) => {
    ctx.status = 202;
    ctx.body = { callId: record.id, status: 'queued', language: 'en-US', languageSource: 'inferred', voice: 'alloy' };
  });
  app = new Koa();
  app.use(router.routes());
} else {
  const config = loadConfig();
  // As the service opens it (main.ts).
  const store = storeFor(config, { checkpointInBackground: true });
  app = createApp({
    config,
    store,
    clock: systemClock,
    // BENCH_LOG_FILE: the service's JSON logs (a line per request), written synchronously to that file.
    logger: process.env.BENCH_LOG_FILE ? serviceLogger({ destination: pino.destination({ dest: process.env.BENCH_LOG_FILE, sync: true }) }) : pino({ level: 'silent' }),
    catalogue: DEFAULT_AGENT_CATALOGUE,
    irsf: IrsfList.load(DEFAULT_IRSF_PATH),
  });
}
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`ready ${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
