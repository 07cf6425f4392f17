// Composition root: reads the config, opens and migrates the store, seeds the dev account, serves HTTP.
import { pino } from 'pino';
import { seedDevAccount } from './accounts/dev-seed.js';
import { DEFAULT_AGENT_CATALOGUE } from './calls/agent-catalogue.js';
import { DEFAULT_IRSF_PATH, IrsfList } from './calls/irsf.js';
import { systemClock } from './clock.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createApp } from './http/app.js';
import { storeFor } from './store/open-configured.js';
import { migrate } from './store/store.js';

async function main(): Promise<void> {
  const logger = pino({ name: 'svc' });
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
  const store = storeFor(config);
  await migrate(store);
  const irsf = IrsfList.load(config.irsfPath ?? DEFAULT_IRSF_PATH);
  if (config.webhookAllowPrivate) {
    logger.warn('SVC_WEBHOOK_ALLOW_PRIVATE is on: webhook URLs may be http and point at loopback or private addresses. Never use this in production.');
  }
  const app = createApp({ config, store, clock: systemClock, logger, catalogue: DEFAULT_AGENT_CATALOGUE, irsf });
  const server = app.listen(config.port, config.host, () => {
    logger.info({ url: config.publicBaseUrl, port: config.port, store: store.dialect }, `svc listening on ${config.publicBaseUrl}`);
  });
  if (config.seedDev) {
    const seed = await seedDevAccount(store.db, config, systemClock.now());
    printDevBanner(config, seed.apiKey, seed.webhookSecret);
  }
  const shutdown = () => {
    server.close(() => void store.close().then(() => process.exit(0)));
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

function printDevBanner(config: Config, apiKey: string | null, webhookSecret: string): void {
  const key = apiKey ?? '<the dev key printed on first start; set SVC_DEV_API_KEY to fix one>';
  const lines = [
    '',
    `  svc is running at ${config.publicBaseUrl}  (store: ${config.databaseUrl ? 'postgres' : `sqlite in ${config.dataDir}`}, carrier: sandbox)`,
    `  dev API key:        ${key}`,
    `  webhook secret:     ${webhookSecret}`,
    apiKey ? '  (the key is shown in full only now; it is stored hashed)' : '',
    '',
    '  Place a sandbox call:',
    `  curl -sS -X POST ${config.publicBaseUrl}/v1/agent/calls \\`,
    `    -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" \\`,
    `    -d '{"to":"+14155550123","objective":"Ask whether the shop is open on Sunday","fields":[{"name":"open_sunday","type":"boolean"}]}'`,
    '',
  ];
  process.stdout.write(lines.filter((l, i) => l !== '' || i === 0 || lines[i - 1] !== '').join('\n') + '\n');
}

await main();
