// The usage counters' triggers of migration 006, split by counter and guarded by WHEN, so a row fires only the
// statements that change something. On SQLite 006's triggers cost about 60 µs per inserted call, more than the
// insert itself: every insert ran both counters' statements. Now a queued call runs one upsert (its account's
// calls in flight), an ended call one insert of its minutes, and an update runs a counter's statements only when
// that counter moves. The counters keep their values; what they count does not change.
import { PostgresAdapter, sql, type Kysely, type Migration, type RawBuilder } from 'kysely';
import { countInFlight, countMinutes, differs, isBilled, isInFlight } from './usage-sql.js';

interface Trigger {
  name: string;
  event: 'insert' | 'update' | 'delete';
  /** Columns an update trigger listens to. */
  of?: string[];
  when: RawBuilder<unknown>;
  statements: RawBuilder<unknown>[];
}

export const m007SplitUsageTriggers: Migration = {
  async up(db: Kysely<any>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    for (const event of ['insert', 'update', 'delete']) {
      await sql`drop trigger calls_usage_${sql.raw(event)}${sql.raw(pg ? ' on calls' : '')}`.execute(db);
      if (pg) await sql`drop function calls_usage_${sql.raw(event)}()`.execute(db);
    }
    const movedInFlight = sql`(${isInFlight('old')}) ${sql.raw(pg ? 'is distinct from' : 'is not')} (${isInFlight('new')}) or ${sql.raw(differs(pg, 'account_id'))}`;
    const minutesColumns = ['status', 'ended_at', 'billed_minutes', 'account_id'];
    const movedMinutes = sql`(${isBilled('old')} or ${isBilled('new')}) and (${sql.raw(minutesColumns.map((c) => differs(pg, c)).join(' or '))})`;
    const triggers: Trigger[] = [
      { name: 'calls_in_flight_insert', event: 'insert', when: isInFlight('new'), statements: [countInFlight('new', '+')] },
      {
        name: 'calls_in_flight_update',
        event: 'update',
        of: ['status', 'account_id'],
        when: movedInFlight,
        statements: [countInFlight('old', '-'), countInFlight('new', '+')],
      },
      { name: 'calls_in_flight_delete', event: 'delete', when: isInFlight('old'), statements: [countInFlight('old', '-')] },
      { name: 'calls_minutes_insert', event: 'insert', when: isBilled('new'), statements: [countMinutes(pg, 'new', '+')] },
      {
        name: 'calls_minutes_update',
        event: 'update',
        of: minutesColumns,
        when: movedMinutes,
        statements: [countMinutes(pg, 'old', '-'), countMinutes(pg, 'new', '+')],
      },
      { name: 'calls_minutes_delete', event: 'delete', when: isBilled('old'), statements: [countMinutes(pg, 'old', '-')] },
    ];
    for (const t of triggers) {
      const name = sql.raw(t.name);
      const body = sql.join(t.statements, sql.raw(';\n'));
      const on = sql`after ${sql.raw(t.event)}${sql.raw(t.of ? ` of ${t.of.join(', ')}` : '')} on calls for each row when (${t.when})`;
      if (pg) {
        await sql`create function ${name}() returns trigger language plpgsql as $$ begin ${body}; return null; end $$`.execute(db);
        await sql`create trigger ${name} ${on} execute function ${name}()`.execute(db);
      } else {
        await sql`create trigger ${name} ${on} begin ${body}; end`.execute(db);
      }
    }
  },
};
