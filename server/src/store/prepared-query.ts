// Hot-path queries compiled once. Building and compiling a kysely query costs more than running it on SQLite, so a
// query that runs on every request is built once with placeholders (PARAM) and then executed with fresh parameters, in the order the builder used them.
// Parameters the builder was given as values (a constant 1, a null) stay as compiled.
//
// preparedQuery: a read run by the store's hot read path (Store.read).
// statement: a query run by an Executor: kysely (its pool, or a transaction), or the SQLite connection of a
// write batch (write-batches.ts).
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { Executor, Store } from './store.js';

/** Stands for a parameter while the query is built. */
export const PARAM = '\u0000param\u0000';

interface Compiled {
  sql: string;
  /** The compiled parameters with the PARAM slots filled from `params`, in order. */
  bind(params: readonly unknown[]): unknown[];
}

function compileWithParams(db: Kysely<Database>, build: (db: Kysely<Database>) => Compilable<unknown>): Compiled {
  const compiled = build(db).compile();
  const template = compiled.parameters;
  const slots = template.flatMap((p, i) => (p === PARAM ? [i] : []));
  if (slots.length === template.length) {
    return {
      sql: compiled.sql,
      bind: (params) => {
        if (params.length !== slots.length) throw new Error(`prepared query takes ${slots.length} parameters, got ${params.length}`);
        return params as unknown[];
      },
    };
  }
  return {
    sql: compiled.sql,
    bind: (params) => {
      if (params.length !== slots.length) throw new Error(`prepared query takes ${slots.length} parameters, got ${params.length}`);
      const bound = [...template];
      for (let i = 0; i < slots.length; i++) bound[slots[i]!] = params[i];
      return bound;
    },
  };
}

export function preparedQuery<Row>(store: Store, build: (db: Kysely<Database>) => Compilable<Row>): (...params: unknown[]) => Promise<Row[]> {
  const compiled = compileWithParams(store.db, build);
  return (...params) => store.read<Row>(compiled.sql, compiled.bind(params));
}

/** One set of prepared queries per store, compiled on first use. */
export function perStore<Q>(compile: (store: Store) => Q): (store: Store) => Q {
  const compiled = new WeakMap<Store, Q>();
  return (store) => {
    let q = compiled.get(store);
    if (!q) compiled.set(store, (q = compile(store)));
    return q;
  };
}

const kyselyExecutors = new WeakMap<Kysely<Database>, Executor>();

/**
 * Runs statements through kysely: `db` itself (a pool: each statement on its own) or a transaction of it, given
 * with the store's kysely instance as `compiler` so that statements are not compiled anew for every transaction.
 */
export function executorFor(db: Kysely<Database>, compiler: Kysely<Database> = db): Executor {
  const cached = compiler === db ? kyselyExecutors.get(db) : undefined;
  if (cached) return cached;
  const ex: Executor = { compiler, run: async (sql, params) => (await db.executeQuery(CompiledQuery.raw(sql, params as unknown[]))).rows };
  if (compiler === db) kyselyExecutors.set(db, ex);
  return ex;
}

/** Runs a query built anew (from the store's kysely instance) on an executor: for writes whose columns vary. */
export function runQuery<Row>(ex: Executor, query: Compilable<Row>): Promise<Row[]> {
  const { sql, parameters } = query.compile();
  return ex.run(sql, parameters) as Promise<Row[]>;
}

/** A query built once per dialect and run by whichever executor is given. */
export type Statement<Row> = (ex: Executor, ...params: unknown[]) => Promise<Row[]>;

export function statement<Row>(build: (db: Kysely<Database>) => Compilable<Row>): Statement<Row> {
  const byCompiler = new WeakMap<Kysely<Database>, Compiled>();
  return (ex, ...params) => {
    let compiled = byCompiler.get(ex.compiler);
    if (!compiled) byCompiler.set(ex.compiler, (compiled = compileWithParams(ex.compiler, build)));
    return ex.run(compiled.sql, compiled.bind(params)) as Promise<Row[]>;
  };
}
