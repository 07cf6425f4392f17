// Starts the real HTTP app on a loopback port over a fresh store, with a clock the test can move.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { pino } from 'pino';
import { createAccount, createKey, addNumber } from '../../server/src/accounts/accounts-repo.js';
import { DEFAULT_AGENT_CATALOGUE } from '../../server/src/placement/agent-catalogue.js';
import { DEFAULT_IRSF_PATH, IrsfList } from '../../server/src/numbers/irsf.js';
import { httpTimeouts, loadConfig, type Config } from '../../server/src/config.js';
import { createApp, type AppOptions } from '../../server/src/compose.js';
import type { AppDeps } from '../../server/src/http/app-deps.js';
import type { CallingWindow } from '../../server/src/generated/types.gen.js';
import { createHttpServer } from '../../server/src/http/http-server.js';
import { StreamHub } from '../../server/src/streams/stream-hub.js';
import { countAddress } from '../../server/src/http/key-gate.js';
import { apiClient, type ApiClient } from './contract.js';
import { freshStore, type StoreKind, type TestStore } from './stores.js';

export class TestClock {
  constructor(public ms = Date.UTC(2026, 10, 22, 12, 0, 30)) {}
  now = () => this.ms;
  advance(ms: number) {
    this.ms += ms;
  }
}

export interface TestTenant {
  accountId: string;
  keyId: string;
  key: string;
  callerId: string;
  api: ApiClient;
}

export interface TestServer {
  baseUrl: string;
  deps: AppDeps;
  clock: TestClock;
  testStore: TestStore;
  /** The HTTP server itself, for what attaches to it (the media bridge's WebSocket upgrades). */
  httpServer: Server;
  /** A tenant with a key, a number and a plan. */
  tenant(opts?: { rateLimit?: number; planMinutes?: number; callerId?: string; defaultVoice?: string | null; accountCallerId?: string | null; callingWindow?: CallingWindow }): Promise<TestTenant>;
  /** An unauthenticated client. */
  anon: ApiClient;
  close(): Promise<void>;
}

const irsf = IrsfList.load(DEFAULT_IRSF_PATH);
let tenantCount = 0;

export async function startServer(kind: StoreKind, env: Record<string, string> = {}, options: AppOptions = {}): Promise<TestServer> {
  const testStore = await freshStore(kind);
  const clock = new TestClock();
  const logger = pino({ level: process.env.SVC_TEST_LOG ?? 'silent' });
  // The server main.ts runs, with the timeouts env asks for; requests it cuts count against their address's window.
  const server: Server = createHttpServer(httpTimeouts(env), logger, { countAddress: (address) => countAddress(deps, address) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config: Config = loadConfig({ SVC_DATA_DIR: '/tmp/svc-test-data', SVC_PUBLIC_BASE_URL: baseUrl, ...env });
  // SVC_IRSF_PATH in env replaces the shipped list, as in main.ts.
  const streams = new StreamHub({ store: testStore.store, clock, logger, pollMs: config.streamPollMs });
  const deps: AppDeps = { config, store: testStore.store, clock, logger, catalogue: DEFAULT_AGENT_CATALOGUE, irsf: config.irsfPath ? IrsfList.load(config.irsfPath) : irsf, streams };
  server.on('request', createApp(deps, options).callback());
  return {
    baseUrl,
    deps,
    clock,
    testStore,
    httpServer: server,
    anon: apiClient(baseUrl),
    async tenant(opts = {}) {
      const db = testStore.store.db;
      const callerId = opts.callerId ?? '+14155550100';
      const accountId = await createAccount(
        db,
        { name: `tenant-${++tenantCount}`, planMinutes: opts.planMinutes ?? 1000, defaultCallerId: opts.accountCallerId === undefined ? callerId : opts.accountCallerId },
        clock.now(),
      );
      await addNumber(db, accountId, callerId, clock.now());
      const { row, key } = await createKey(db, { accountId, name: 'test', rateLimit: opts.rateLimit ?? 10, defaultVoice: opts.defaultVoice ?? null, callingWindow: opts.callingWindow ?? null }, clock.now());
      return { accountId, keyId: row.id, key, callerId, api: apiClient(baseUrl, key) };
    },
    async close() {
      streams.endAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await testStore.drop();
    },
  };
}
