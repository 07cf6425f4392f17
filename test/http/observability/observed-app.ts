// A real HTTP app over a fresh store whose log lines are captured, for the operations tests.
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { addNumber, createAccount, createKey } from '../../../server/src/accounts/accounts-repo.js';
import { DEFAULT_AGENT_CATALOGUE } from '../../../server/src/placement/agent-catalogue.js';
import { DEFAULT_IRSF_PATH, IrsfList } from '../../../server/src/numbers/irsf.js';
import { httpTimeouts, loadConfig } from '../../../server/src/config.js';
import { createApp, type AppOptions } from '../../../server/src/compose.js';
import { createHttpServer } from '../../../server/src/http/http-server.js';
import type { AppDeps } from '../../../server/src/http/app-deps.js';
import { serviceLogger } from '../../../server/src/http/observability/service-logger.js';
import type { Store } from '../../../server/src/store/store.js';
import { TestClock } from '../../support/server.js';

const irsf = IrsfList.load(DEFAULT_IRSF_PATH);

export interface ObservedApp {
  baseUrl: string;
  clock: TestClock;
  /** Every log line written so far, as written (after scrubbing). */
  lines: string[];
  logger: Logger;
  /** A tenant with a number and a key; returns the key in clear. */
  tenant(): Promise<{ key: string; keyId: string; accountId: string }>;
  close(): Promise<void>;
}

export async function observedApp(store: Store, options: AppOptions = {}): Promise<ObservedApp> {
  const lines: string[] = [];
  const logger = serviceLogger({ level: 'debug', destination: { write: (line: string) => void lines.push(line) } });
  const clock = new TestClock();
  const server = createHttpServer(httpTimeouts({}), logger);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadConfig({ SVC_DATA_DIR: '/tmp/svc-test-data', SVC_PUBLIC_BASE_URL: baseUrl });
  const deps: AppDeps = { config, store, clock, logger, catalogue: DEFAULT_AGENT_CATALOGUE, irsf };
  server.on('request', createApp(deps, options).callback());
  return {
    baseUrl,
    clock,
    lines,
    logger,
    async tenant() {
      const accountId = await createAccount(store.db, { name: 'observed', planMinutes: 100, defaultCallerId: '+14155550100' }, clock.now());
      await addNumber(store.db, accountId, '+14155550100', clock.now());
      const { row, key } = await createKey(store.db, { accountId, name: 'k', rateLimit: 10 }, clock.now());
      return { key, keyId: row.id, accountId };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
