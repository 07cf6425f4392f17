// The status log (call_status_changes): each status a call reaches after queued, written in the transaction that
// reaches it.
import type { Insertable } from 'kysely';
import { runQuery } from '../prepared-query.js';
import type { CallStatusChangesTable } from '../schema.js';
import type { Executor } from '../store.js';

/** Writes status changes, in one statement; none writes nothing. */
export async function insertStatusChanges(ex: Executor, rows: readonly Insertable<CallStatusChangesTable>[]): Promise<void> {
  if (rows.length > 0) await runQuery(ex, ex.compiler.insertInto('call_status_changes').values(rows));
}
