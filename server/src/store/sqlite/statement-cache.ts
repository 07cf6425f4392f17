// kysely's SQLite driver prepares every statement anew, which costs more than running it. Statements are reused
// by SQL text (better-sqlite3 runs them synchronously, so one statement is never used twice at once), in a
// bounded cache since queries with IN lists vary in text.
import type SQLite from 'better-sqlite3';

const STATEMENT_CACHE_SIZE = 200;

export function cachedPrepare(database: SQLite.Database): (sql: string) => SQLite.Statement {
  const cache = new Map<string, SQLite.Statement>();
  return (sql) => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = database.prepare(sql);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(sql, stmt);
    }
    return stmt;
  };
}
