// Runs a suite on every store: SQLite (always) and Postgres (a fresh schema per suite on the local server).
// Without Postgres the Postgres suites are skipped, unless SVC_TEST_POSTGRES=required (CI), where they fail.
import { createHash, randomBytes } from 'node:crypto';
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
  const latest = through === undefined;
  const spare = latest ? spares.pop() : undefined;
  const schema = spare ?? `t_${randomBytes(6).toString('hex')}`;
  if (!spare) await admin((c) => c.query(`create schema ${schema}`));
  const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const store = openStore({ postgresUrl: url, poolSize: 5 });
  if (!spare) await migrate(store, through);
  if (latest) migratedShape ??= shapeOf(schema);
  let handedOut = false;
  let dropped: Promise<void> | undefined;
  return {
    store,
    get url() {
      handedOut = true;
      return url;
    },
    drop: () => {
      dropped ??= (async () => {
        await store.close();
        if (latest && !handedOut && (await emptied(schema))) spares.push(schema);
        else await admin((c) => c.query(`drop schema ${schema} cascade`));
      })();
      return dropped;
    },
  };
}

// Making a migrated Postgres schema is a few hundred milliseconds of DDL, and a test process makes hundreds. So a
// dropped store's schema is emptied and kept for this process's next freshStore when it is still exactly what
// migrating makes: its shape (tables, columns, indexes, constraints, triggers, functions, the migrations applied)
// equals that of the first schema the process migrated. A schema migrated only part of the way, one whose URL was
// handed out (another process or pool may write to it yet), and one whose shape a test changed (a dropped
// trigger) are dropped. The spares are dropped after the run (root-hooks.ts). Names stay random, so processes
// running beside each other on one database never share a schema.
const spares: string[] = [];
let migratedShape: Promise<{ shape: string; tables: string[] } | null> | undefined;

let adminPool: pg.Pool | undefined;
async function admin<T>(run: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  adminPool ??= new pg.Pool({ connectionString: PG_URL, max: 2, allowExitOnIdle: true });
  const c = await adminPool.connect();
  try {
    const result = await run(c);
    c.release();
    return result;
  } catch (err) {
    c.release(true);
    throw err;
  }
}

/** Everything about the schema that migrating makes, but its rows, as one digest; null when it has sequences (emptying would not rewind them). */
async function shapeOf(schema: string): Promise<{ shape: string; tables: string[] } | null> {
  return admin(async (c) => {
    const { rows } = await c.query<{ x: string; kind: string }>(
      `select x, kind from (
        select 'r' as kind, format('%s %s %s %s %s', c.relname, c.relkind, c.relpersistence, c.reloptions,
          (select string_agg(format('%s %s %s %s', a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, pg_get_expr(d.adbin, d.adrelid)), ', ' order by a.attnum)
             from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped)) as x
          from pg_class c where c.relnamespace = $1::regnamespace
        union all select 'i', pg_get_indexdef(i.indexrelid) from pg_index i join pg_class c on c.oid = i.indrelid where c.relnamespace = $1::regnamespace
        union all select 'k', format('%s %s', k.conname, pg_get_constraintdef(k.oid)) from pg_constraint k where k.connamespace = $1::regnamespace
        union all select 't', format('%s %s', pg_get_triggerdef(t.oid), t.tgenabled) from pg_trigger t join pg_class c on c.oid = t.tgrelid where c.relnamespace = $1::regnamespace and not t.tgisinternal
        union all select 'f', pg_get_functiondef(p.oid) from pg_proc p where p.pronamespace = $1::regnamespace
        union all select 'm', name from ${schema}.kysely_migration
        union all select 's', relname from pg_class where relnamespace = $1::regnamespace and relkind = 'S'
      ) s`,
      [schema],
    );
    const lines = rows.map((r) => `${r.kind} ${r.x.replaceAll(`${schema}.`, '')}`).sort();
    if (rows.some((r) => r.kind === 's')) return null;
    const tables = (await c.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = $1 and tablename not like 'kysely\\_%'`, [schema])).rows.map((r) => r.name);
    return { shape: createHash('sha256').update(lines.join('\n')).digest('hex'), tables };
  });
}

/** Empties the schema of its rows when its shape is the migrated one; false when it is not, and it must go. */
async function emptied(schema: string): Promise<boolean> {
  try {
    const migrated = await migratedShape;
    if (!migrated || (await shapeOf(schema))?.shape !== migrated.shape) return false;
    // Triggers (the usage counters) and foreign keys are off for these deletes alone, so each table empties on its own.
    await admin((c) => c.query(`begin; set local session_replication_role = replica; ${migrated.tables.map((t) => `delete from ${schema}.${t};`).join(' ')} commit;`));
    return true;
  } catch {
    return false;
  }
}

/** Drops the schemas kept for reuse: after the run (root-hooks.ts), or when a test file ends in a parallel run's worker. */
export async function dropSpareSchemas(): Promise<void> {
  while (spares.length > 0) {
    const schema = spares.pop()!;
    await admin((c) => c.query(`drop schema ${schema} cascade`));
  }
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
