// The claim of due rows under a lease, as both drivers run it: the due rows whose lease is free or expired, oldest
// due first, get this worker's lease in one UPDATE, and come back whole (their lease_expires_at is the claim's
// token, which the fenced commits of jobs/job-queue.ts check). The drivers differ only in how the inner select
// locks its rows.
import type { ExpressionBuilder, Kysely, SelectQueryBuilder } from 'kysely';
import type { DueClaim, RowFilter } from './store.js';

// The claim names its table and columns at run time, so it is built without kysely's column types.
export type DueSelect = SelectQueryBuilder<any, any, any>;

export function claimQuery(db: Kysely<any>, c: DueClaim, lockRows: (due: DueSelect) => DueSelect) {
  const free = (eb: ExpressionBuilder<any, any>) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', c.now)]);
  let due: DueSelect = db.selectFrom(c.table).select(c.key).where(c.due, '<=', c.now).where(free).orderBy(c.due).limit(c.limit);
  if (c.only) due = due.where(matching(c.only));
  if (c.excluding.length > 0) due = due.where(c.key, 'not in', c.excluding);
  return db
    .updateTable(c.table)
    .set({ lease_owner: c.owner, lease_expires_at: c.now + c.leaseMs })
    .where(c.key, 'in', lockRows(due))
    .where(free)
    .returningAll();
}

/** The filter as a where clause. */
export function matching({ column, value, not }: RowFilter) {
  const op = value === null ? (not ? 'is not' : 'is') : not ? '<>' : '=';
  return (eb: ExpressionBuilder<any, any>) => eb(column, op, value);
}
