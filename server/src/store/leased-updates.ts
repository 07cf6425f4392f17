// Updates of leased rows, fenced by the claim: a row changes only while its lease_owner and lease_expires_at are
// still the claim's (due-claims.ts). Each row on its own here, by a statement compiled once per shape (the
// columns it sets); the Postgres driver writes rows of the same shape in one statement instead
// (postgres/postgres-driver.ts).
import { PARAM, statement, type Statement } from './prepared-query.js';
import type { Executor, LeasedUpdate, QueueTableName } from './store.js';

const byShape = new Map<string, Statement<unknown>>();

function updateStatement(table: QueueTableName, key: string, columns: readonly string[]): Statement<unknown> {
  const id = `${table}:${key}:${columns.join(',')}`;
  let s = byShape.get(id);
  if (!s) {
    s = statement((db) =>
      db
        .updateTable(table)
        .set(Object.fromEntries(columns.map((c) => [c, PARAM])) as never)
        .where(key as never, '=', PARAM as never)
        .where('lease_owner', '=', PARAM as never)
        .where('lease_expires_at', '=', PARAM as never)
        .returningAll(),
    );
    byShape.set(id, s);
  }
  return s;
}

export async function updateLeasedRows<Row>(ex: Executor, table: { table: QueueTableName; key: string }, owner: string, updates: readonly LeasedUpdate[]): Promise<(Row | undefined)[]> {
  const rows: (Row | undefined)[] = [];
  for (const u of updates) {
    const columns = Object.keys(u.set).sort();
    const run = updateStatement(table.table, table.key, columns);
    rows.push((await run(ex, ...columns.map((c) => u.set[c]), u.key, owner, u.leaseExpiresAt))[0] as Row | undefined);
  }
  return rows;
}
