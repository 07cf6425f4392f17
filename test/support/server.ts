// Starts the real HTTP app on a loopback port over a fresh store, with a clock the test can move.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { pino } from 'pino';
import { createAccount, createKey, addNumber } from '../../server/src/accounts/accounts-repo.js';
import { DEFAULT_AGENT_CATALOGUE } from '../../server/src/placement/agent-catalogue.js';
import { DEFAULT_IRSF_PATH, IrsfList } from '../../server/src/numbers/irsf.js';
import type { Clock } from '../../server/src/clock.js';
import { httpTimeouts, loadConfig, type Config } from '../../server/src/config.js';
import { createApp, type AppOptions } from '../../server/src/compose.js';
import type { AppDeps } from '../../server/src/http/app-deps.js';
import type { CallingWindow } from '../../server/src/generated/types.gen.js';
import { createHttpServer } from '../../server/src/http/http-server.js';
import { StreamHub } from '../../server/src/streams/stream-hub.js';
import { countAddress } from '../../server/src/http/key-gate.js';
import { apiClient, type ApiClient } from './contract.js';
import { freshStore, type StoreKind, type TestStore } from './stores.js';

interface TestTimer {
  dueAt: number;
  /** Timers due at the same time fire in the order they were set. */
  seq: number;
  fn: () => void;
}

/**
 * The tests' clock: it stands still until the test moves it (advance, or setting ms), and moving it fires what fell
 * due by then, in the order it fell due: the timers set on it and the sleeps on it (every wait of a worker loop, a
 * back-off). A timer due already when it is set fires on the next turn of the event loop, as a real one would.
 */
export class TestClock implements Clock {
  private at: number;
  private readonly timers: TestTimer[] = [];
  private timersSet = 0;

  constructor(ms = Date.UTC(2026, 10, 22, 12, 0, 30)) {
    this.at = ms;
  }

  get ms(): number {
    return this.at;
  }

  set ms(to: number) {
    this.at = to;
    this.fireDue();
  }

  now = () => this.at;

  advance(ms: number) {
    this.ms = this.at + ms;
  }

  sleep = (ms: number) => new Promise<void>((resolve) => void this.setTimer(ms, resolve));

  setTimer = (ms: number, fn: () => void) => {
    const timer: TestTimer = { dueAt: this.at + Math.max(0, ms), seq: this.timersSet++, fn };
    this.timers.push(timer);
    if (timer.dueAt <= this.at) setImmediate(() => this.fireDue());
    return () => {
      const i = this.timers.indexOf(timer);
      if (i >= 0) this.timers.splice(i, 1);
    };
  };

  /** When the timers and sleeps waiting on this clock fall due, earliest first. */
  pending(): number[] {
    return this.timers.map((t) => t.dueAt).sort((a, b) => a - b);
  }

  private fireDue(): void {
    for (;;) {
      const due = this.timers.filter((t) => t.dueAt <= this.at).sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq)[0];
      if (!due) return;
      this.timers.splice(this.timers.indexOf(due), 1);
      due.fn();
    }
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
      const { row, key } = await createKey(
        db,
        { accountId, name: 'test', rateLimit: opts.rateLimit ?? 10, defaultVoice: opts.defaultVoice ?? null, callingWindow: opts.callingWindow ?? null },
        clock.now(),
      );
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
