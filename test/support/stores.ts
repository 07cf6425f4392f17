// Runs a suite on every store: SQLite (always) and Postgres (a fresh schema per suite on the local server).
// Without Postgres the Postgres suites are skipped, unless SVC_TEST_POSTGRES=required (CI), where they fail.
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate, type Store } from '../../server/src/store/store.js';
import { openStore } from '../../server/src/store/open-store.js';
import { openSqlite } from '../../server/src/store/sqlite/sqlite-driver.js';

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
    const store = openStore({ sqlitePath: through === undefined ? await migratedImage() : ':memory:' });
    if (through !== undefined) await migrate(store, through);
    return { store, url: ':memory:', drop: () => store.close() };
  }
  const latest = through === undefined;
  const spare = latest ? spares.pop() : undefined;
  const run = process.env.SVC_TEST_RUN;
  const schema = spare ?? `t_${run ? `${run}_` : ''}${randomBytes(6).toString('hex')}`;
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

// Migrating is most of what a fresh SQLite store costs, and a run opens a great many: each opens as a copy in memory
// of one migrated image, made once per process (the migrations' own rows included, so migrate() finds nothing to do
// on it).
let sqliteImage: Promise<Buffer> | undefined;
function migratedImage(): Promise<Buffer> {
  sqliteImage ??= (async () => {
    const store = openSqlite({ sqlitePath: ':memory:' });
    try {
      await migrate(store);
      return store.serialize();
    } finally {
      await store.close();
    }
  })();
  return sqliteImage;
}

// Making a migrated Postgres schema is a few hundred milliseconds of DDL, and a test process makes hundreds. So a
// dropped store's schema is emptied and kept for this process's next freshStore when it is still exactly what
// migrating makes: its shape (tables, columns, indexes, constraints, triggers, functions, the migrations applied)
// equals that of the first schema the process migrated. A schema migrated only part of the way, one whose URL was
// handed out (another process or pool may write to it yet), and one whose shape a test changed (a dropped
// trigger) are dropped. Names stay random, so processes running beside each other on one database never share a
// schema. A serial run drops its spares when it ends (root-hooks.ts). A parallel run's worker keeps them for the
// next file it runs, and the run drops them all when it ends, by the run's own prefix in their names (SVC_TEST_RUN,
// which the main process sets before it starts its workers, and which also catches the schemas of a worker that
// died).
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

/**
 * Everything about the schema that migrating makes, but its rows, as one digest; null when it has sequences
 * (emptying would not rewind them). The schema's objects are found through pg_depend's index, not by scanning
 * pg_class: catalogs grow with every schema made and dropped, and a server without autovacuum keeps them large.
 */
async function shapeOf(schema: string): Promise<{ shape: string; tables: string[] } | null> {
  return admin(async (c) => {
    const { rows } = await c.query<{ kind: string; x: string; tbl: string | null }>(
      `with objs as (
          select d.classid, d.objid from pg_depend d
           where d.refclassid = 'pg_namespace'::regclass and d.deptype = 'n' and d.refobjid = (select oid from pg_namespace where nspname = $1)),
        rels as (select c.* from objs o join pg_class c on c.oid = o.objid where o.classid = 'pg_class'::regclass)
      select kind, x, tbl from (
        select 'r' as kind, format('%s %s %s %s', r.relname, r.relkind, r.relpersistence, r.reloptions) as x, case when r.relkind in ('r', 'p') then r.relname end as tbl from rels r
        union all select 'a', format('%s %s %s %s %s', r.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, pg_get_expr(d.adbin, d.adrelid)), null
          from rels r join pg_attribute a on a.attrelid = r.oid and a.attnum > 0 and not a.attisdropped left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        union all select 'i', pg_get_indexdef(i.indexrelid), null from rels r join pg_index i on i.indrelid = r.oid
        union all select 'k', format('%s %s', k.conname, pg_get_constraintdef(k.oid)), null from rels r join pg_constraint k on k.conrelid = r.oid
        union all select 't', format('%s %s', pg_get_triggerdef(t.oid), t.tgenabled), null from rels r join pg_trigger t on t.tgrelid = r.oid and not t.tgisinternal
        union all select 'f', pg_get_functiondef(o.objid), null from objs o where o.classid = 'pg_proc'::regclass
        union all select 'o', format('%s %s', o.classid::regclass, o.objid), null from objs o where o.classid not in ('pg_class'::regclass, 'pg_proc'::regclass)
        union all select 's', relname, null from rels where relkind = 'S'
        union all select 'm', name, null from ${schema}.kysely_migration
      ) s`,
      [schema],
    );
    if (rows.some((r) => r.kind === 's')) return null;
    const lines = rows.map((r) => `${r.kind} ${r.x.replaceAll(`${schema}.`, '')}`).sort();
    const tables = rows.flatMap((r) => (r.tbl !== null && !r.tbl.startsWith('kysely_') ? [r.tbl] : []));
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

/** Drops the schemas this process kept for reuse (a serial run's end, root-hooks.ts). */
export async function dropSpareSchemas(): Promise<void> {
  while (spares.length > 0) {
    const schema = spares.pop()!;
    await admin((c) => c.query(`drop schema ${schema} cascade`));
  }
}

/**
 * Vacuums the catalogue tables that making and dropping schemas fills with dead rows. A Postgres without
 * autovacuum (this machine's, as CI's) keeps them from every earlier run, and each new connection, each migration
 * and each look at a schema's shape reads through them: a fresh schema took half as long again on catalogues left
 * by one run. A role that may not vacuum them is told so by Postgres and the run goes on.
 */
export async function vacuumCatalogue(): Promise<void> {
  if (!(await postgresAvailable())) return;
  const tables = ['pg_attribute', 'pg_attrdef', 'pg_class', 'pg_constraint', 'pg_depend', 'pg_index', 'pg_namespace', 'pg_proc', 'pg_trigger', 'pg_type'];
  await admin((c) => c.query(`vacuum ${tables.map((t) => `pg_catalog.${t}`).join(', ')}`)).catch(() => undefined);
}

/** Drops every schema the run `run` made that is left (a parallel run's end, in its main process). */
export async function dropRunSchemas(run: string): Promise<void> {
  if (!/^[a-z0-9]+$/.test(run) || !(await postgresAvailable())) return;
  const { rows } = await admin((c) => c.query<{ nspname: string }>(`select nspname from pg_namespace where starts_with(nspname, $1)`, [`t_${run}_`]));
  for (const { nspname } of rows) await admin((c) => c.query(`drop schema ${nspname} cascade`));
  await adminPool?.end();
  adminPool = undefined;
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
