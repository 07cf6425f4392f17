// Hot-path reads compiled once. Building and compiling a kysely query costs more than running it on SQLite,
// so a query that runs on every request is built at start-up with placeholders and then executed with fresh
// parameters, in the same order the builder used them: on SQLite among the grouped reads of its event-loop turn,
// on Postgres through kysely's pool.
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { Store } from './store.js';

/** Stands for a parameter while the query is built. */
export const PARAM = '\u0000param\u0000';

export function preparedQuery<Row>(store: Store, build: (db: Kysely<Database>) => Compilable<Row>): (...params: unknown[]) => Promise<Row[]> {
  const { db, groupedReads } = store;
  const compiled = build(db).compile();
  const arity = compiled.parameters.filter((p) => p === PARAM).length;
  if (arity !== compiled.parameters.length) throw new Error('every parameter of a prepared query must be PARAM');
  return async (...params) => {
    if (params.length !== arity) throw new Error(`prepared query takes ${arity} parameters, got ${params.length}`);
    if (groupedReads) return groupedReads.all<Row>(compiled.sql, params);
    const result = await db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, params));
    return result.rows;
  };
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
