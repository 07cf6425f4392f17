// An empty Postgres schema of its own for a scale test (nothing migrated, so the processes under test migrate
// it), and the skip-or-fail rule of test/support/stores.ts for when Postgres is not there.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PG_URL, postgresAvailable } from '../../support/stores.js';

export interface EmptySchema {
  /** DATABASE_URL for the schema: the server's URL with `options=-c search_path=<schema>`. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function admin<T>(run: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return await run(c);
  } finally {
    await c.end();
  }
}

export async function emptySchema(): Promise<EmptySchema> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`create schema ${name}`));
  return {
    url: `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${name}`)}`,
    name,
    drop: () => admin((c) => c.query(`drop schema ${name} cascade`)).then(() => {}),
  };
}

/** For a mocha `before`: skips the suite without Postgres, unless SVC_TEST_POSTGRES=required, where it fails. */
export async function requirePostgres(ctx: Mocha.Context): Promise<void> {
  if (await postgresAvailable()) return;
  if (process.env.SVC_TEST_POSTGRES === 'required') throw new Error(`Postgres is required but not reachable at ${PG_URL}`);
  ctx.skip();
}
