// Hot-path queries compiled once. Building and compiling a kysely query costs more than running it on SQLite,
// so a query that runs on every request is built at start-up with placeholders and then executed with fresh
// parameters, in the same order the builder used them.
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Stands for a parameter while the query is built. */
export const PARAM = '\u0000param\u0000';

export function preparedQuery<Row>(
  db: Kysely<Database>,
  build: (db: Kysely<Database>) => Compilable<Row>,
): (...params: unknown[]) => Promise<Row[]> {
  const compiled = build(db).compile();
  const arity = compiled.parameters.filter((p) => p === PARAM).length;
  if (arity !== compiled.parameters.length) throw new Error('every parameter of a prepared query must be PARAM');
  return async (...params) => {
    if (params.length !== arity) throw new Error(`prepared query takes ${arity} parameters, got ${params.length}`);
    const result = await db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, params));
    return result.rows;
  };
}
