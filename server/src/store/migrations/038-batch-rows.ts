// A batch's rows followed from creation: calls.batch_index names the row (batch_items.idx) a batch's call was
// released for, and a redial carries its call's. Index calls_by_batch_row serves a page of rows' calls, partial
// like calls_by_batch so a call placed on its own pays nothing for it.
//
// The batch calls already stored are numbered here: a batch releases its rows in index order, each call made
// after the one before it (a later step, or a later id of uuidv7 in the same step), so its released calls in the
// order they were made are rows 0, 1, 2…; then each redial takes its previous call's row, one link of the chain at
// a time.
import { sql, type Kysely, type Migration } from 'kysely';

/** More links than any redial chain has (a redial policy allows at most 5 + 5). */
const MAX_REDIAL_LINKS = 20;

export const m038BatchRows: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('calls').addColumn('batch_index', 'integer').execute();
    await db.schema.createIndex('calls_by_batch_row').on('calls').columns(['batch_id', 'batch_index']).where(sql.ref('batch_id'), 'is not', null).execute();
    await sql`
      update calls set batch_index = numbered.n
        from (select id, row_number() over (partition by batch_id order by created_at, id) - 1 as n
                from calls where batch_id is not null and previous_call_id is null) numbered
       where calls.id = numbered.id`.execute(db);
    for (let link = 0; link < MAX_REDIAL_LINKS; link++) {
      const { numAffectedRows } = await sql`
        update calls set batch_index = (select p.batch_index from calls p where p.id = calls.previous_call_id)
         where batch_id is not null and batch_index is null
           and exists (select 1 from calls p where p.id = calls.previous_call_id and p.batch_index is not null)`.execute(db);
      if (Number(numAffectedRows ?? 0) === 0) break;
    }
  },
};
