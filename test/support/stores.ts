// Runs a suite on every store: SQLite (always) and Postgres (a fresh schema per suite on the local server).
// Without Postgres the Postgres suites are skipped, unless SVC_TEST_POSTGRES=required (CI), where they fail.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate, type Store } from '../../server/src/store/store.js';
import { openStore } from '../../server/src/store/open-store.js';

export const PG_URL = process.env.SVC_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export type StoreKind = 'sqlite' | 'postgres';

let pgAvailable: Promise<boolean> | undefined;
export function postgresAvailable(): Promise<boolean> {
  pgAvailable ??= (async () => {
    const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return pgAvailable;
}

export interface TestStore {
  store: Store;
  /** The URL a separate process would use to reach the same data. */
  url: string;
  drop(): Promise<void>;
}

/** A store of its own, migrated to the latest, or only through the migration named (to test the ones after it). */
export async function freshStore(kind: StoreKind, through?: string): Promise<TestStore> {
  if (kind === 'sqlite') {
    const store = openStore({ sqlitePath: ':memory:' });
    await migrate(store, through);
    return { store, url: ':memory:', drop: () => store.close() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const store = openStore({ postgresUrl: url, poolSize: 5 });
  await migrate(store, through);
  return {
    store,
    url,
    drop: async () => {
      await store.close();
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}

/** `describe` once per store kind; the body receives the kind. */
export function forEachStore(title: string, body: (kind: StoreKind) => void): void {
  for (const kind of ['sqlite', 'postgres'] as const) {
    describe(`${title} [${kind}]`, function () {
      if (kind === 'postgres') {
        before(async function () {
          if (await postgresAvailable()) return;
          if (process.env.SVC_TEST_POSTGRES === 'required') throw new Error(`Postgres is required but not reachable at ${PG_URL}`);
          this.skip();
        });
      }
      body(kind);
    });
  }
}
