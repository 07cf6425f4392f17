// Runs the svc CLI in this process (runCli with captured output and a TestClock) against a store the test owns:
// a fresh SQLite data folder, or a fresh Postgres schema through DATABASE_URL.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../server/src/cli/run-cli.js';
import { loadConfig } from '../../server/src/config.js';
import { storeFor } from '../../server/src/store/open-store.js';
import { migrate, type Store } from '../../server/src/store/store.js';
import { freshStore, type StoreKind } from '../support/stores.js';
import { TestClock } from '../support/server.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
  /** stdout parsed as JSON. */
  json: any;
}

export interface CliHarness {
  env: Record<string, string>;
  clock: TestClock;
  /** The store the CLI writes to, opened separately, as the service would. */
  store: Store;
  /** Roles passed to `serve`. */
  served: string[];
  run(...argv: string[]): Promise<CliRun>;
  /** Rows in a developer-settings table. */
  count(table: 'accounts' | 'api_keys' | 'numbers'): Promise<number>;
  /** `accounts create` with caller id +14155550100; returns the id. */
  account(name?: string, ...extra: string[]): Promise<string>;
  /** `keys create` on account acme; returns what it printed. */
  key(...extra: string[]): Promise<{ id: string; key: string; webhookSecret: string }>;
  close(): Promise<void>;
}

export async function cliHarness(kind: StoreKind): Promise<CliHarness> {
  const clock = new TestClock();
  const served: string[] = [];
  let env: Record<string, string>;
  let store: Store;
  let cleanup: () => Promise<void>;
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
    env = { SVC_DATA_DIR: dir };
    store = storeFor(loadConfig(env));
    await migrate(store);
    cleanup = async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    };
  } else {
    const ts = await freshStore('postgres');
    env = { DATABASE_URL: ts.url };
    store = ts.store;
    cleanup = () => ts.drop();
  }
  async function runOnce(argv: string[]): Promise<CliRun> {
    let out = '';
    let err = '';
    const code = await runCli(argv, {
      env,
      out: (t) => void (out += t),
      err: (t) => void (err += t),
      now: clock.now,
      program: 'npx svc',
      serve: async (role) => void served.push(role),
      mcp: async () => (served.push('mcp'), 0),
    });
    let json: unknown;
    try {
      json = JSON.parse(out);
    } catch {
      json = undefined;
    }
    return { code, out, err, json };
  }
  const harness: CliHarness = {
    env,
    clock,
    store,
    served,
    async count(table) {
      return Number(
        (
          await store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    },
    async account(name = 'acme', ...extra) {
      const r = await harness.run('accounts', 'create', '--name', name, '--caller-id', '+14155550100', ...extra, '--json');
      expect(r.code, r.err).to.equal(0);
      return r.json.id;
    },
    async key(...extra) {
      const r = await harness.run('keys', 'create', '--account', 'acme', ...extra, '--json');
      expect(r.code, r.err).to.equal(0);
      return r.json;
    },
    async run(...argv) {
      // Each invocation migrates first, and kysely's migrator reads the catalogue of every schema, which fails
      // when a parallel test run drops its own schema at that moment (see freshStore); nothing ran yet, so retry.
      for (let attempt = 1; ; attempt++) {
        const result = await runOnce(argv);
        if (attempt >= 5 || result.code !== 1 || !/schema \\?"t_[0-9a-f]+\\?" does not exist/.test(result.err)) return result;
      }
    },
    close: () => cleanup(),
  };
  return harness;
}
